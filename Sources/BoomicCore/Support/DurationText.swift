/// A length of time as people type it: `90s`, `30m`, `1h`, `1h30m`, `2.5m`. A bare number is
/// refused: "--sleep 30" could mean seconds or minutes, and guessing wrong ends the music at
/// the wrong time.
public enum DurationText {
    public struct Invalid: Error, Equatable, Sendable {
        public let text: String
    }

    /// Seconds.
    public static func seconds(_ text: String) throws(Invalid) -> Double {
        var total = 0.0, number = ""
        var sawUnit = false
        for ch in text.lowercased() {
            if ch.isNumber || ch == "." {
                number.append(ch)
                continue
            }
            guard let value = Double(number) else { throw Invalid(text: text) }
            switch ch {
            case "h": total += value * 3600
            case "m": total += value * 60
            case "s": total += value
            default: throw Invalid(text: text)
            }
            number = ""
            sawUnit = true
        }
        guard sawUnit, number.isEmpty, total.isFinite else { throw Invalid(text: text) }
        return total
    }
}
