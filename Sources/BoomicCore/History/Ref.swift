import Foundation

/// A REF as typed (DESIGN §4): names a state of the library. Resolving it needs the log
/// (and, for dates, the local time zone), so that happens above BoomicCore.
public enum Ref: Equatable, Sendable {
    /// `42`: the state after transaction 42. `0` is the empty library.
    case seq(Int)
    /// `HEAD`, `HEAD~3`
    case head(back: Int)
    /// `3fa2c1`: a prefix of a transaction id (at least 4 hex digits).
    case idPrefix(String)
    /// `2026-11-01`, `2026-11-01T10:00`, `2026-11-01 10:00:30`: the state at the end of that
    /// moment, in local time. Components: year, month, day, hour?, minute?, second?.
    case date(year: Int, month: Int, day: Int, hour: Int?, minute: Int?, second: Int?)

    public static func parse(_ text: String) -> Ref? {
        let s = text.trimmingCharacters(in: .whitespaces)
        if s.uppercased() == "HEAD" { return .head(back: 0) }
        if s.uppercased().hasPrefix("HEAD~") {
            let n = s.dropFirst(5)
            if n.isEmpty { return .head(back: 1) }
            return Int(n).flatMap { $0 >= 0 ? .head(back: $0) : nil }
        }
        if s.uppercased().hasPrefix("HEAD^") && s.dropFirst(4).allSatisfy({ $0 == "^" }) {
            return .head(back: s.count - 4)
        }
        if let d = parseDate(s) { return d }
        if let n = Int(s), n >= 0 { return .seq(n) }
        let hex = s.lowercased()
        if isIDPrefix(hex) { return .idPrefix(hex) }
        return nil
    }

    /// At least 4 hex digits, with dashes only where a UUID has them (`3fa2c1d4-9b`), so that
    /// `----` or a mistyped date like `2026-13-01` is not taken for an id.
    private static func isIDPrefix(_ s: String) -> Bool {
        let dashes: Set = [8, 13, 18, 23]
        let isHex = { (c: Character) in c.isASCII && c.isHexDigit }
        return s.count <= 36 && s.filter(isHex).count >= 4
            && s.enumerated().allSatisfy { i, c in isHex(c) || (c == "-" && dashes.contains(i)) }
    }

    private static func parseDate(_ s: String) -> Ref? {
        let parts = s.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let ymd = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard ymd.count == 3, ymd[0].count == 4, let y = Int(ymd[0]), let m = Int(ymd[1]), let d = Int(ymd[2]),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        guard parts.count == 2 else { return .date(year: y, month: m, day: d, hour: nil, minute: nil, second: nil) }
        let hms = parts[1].split(separator: ":").map { Int($0) }
        guard (1...3).contains(hms.count), hms.allSatisfy({ $0 != nil }) else { return nil }
        let h = hms[0]!, mi = hms.count > 1 ? hms[1] : nil, se = hms.count > 2 ? hms[2] : nil
        guard (0...23).contains(h), (0...59).contains(mi ?? 0), (0...60).contains(se ?? 0) else { return nil }
        return .date(year: y, month: m, day: d, hour: h, minute: mi, second: se)
    }
}
