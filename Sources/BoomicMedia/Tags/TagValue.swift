import Foundation

/// Parsers for the text values tags hold, shared by every format.
///
/// Tags are user input: anything unparsable becomes nil, nothing traps. Kept free of files so the
/// whole table of odd values can be tested directly.
public enum TagValue {
    /// The largest track or disc number accepted; beyond it the value is garbage, not a number.
    static let maxIndex = 99_999

    /// A track or disc number and its optional total: `"3/12"` → (3, 12), `"03"` → (3, nil),
    /// `"3 of 12"` → (3, 12), `"/12"` → (nil, 12), `"A1"` → (nil, nil).
    public static func numberPair(_ text: String) -> (number: Int?, total: Int?) {
        let t = text.trimmingWhitespace()
        guard !t.isEmpty else { return (nil, nil) }
        let parts: [Substring]
        if let slash = t.firstIndex(of: "/") {
            parts = [t[..<slash], t[t.index(after: slash)...]]
        } else if let of = t.range(of: " of ") {
            parts = [t[..<of.lowerBound], t[of.upperBound...]]
        } else {
            parts = [t[...]]
        }
        let number = index(String(parts[0]))
        let total = parts.count > 1 ? index(String(parts[1])) : nil
        return (number, total)
    }

    /// A positive whole number such as a track total: `"12"`, `" 07 "`; else nil.
    public static func index(_ text: String) -> Int? {
        let t = text.trimmingWhitespace()
        guard !t.isEmpty, t.utf8.count <= 9, t.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let n = Int(t), n >= 1, n <= maxIndex else { return nil }
        return n
    }

    /// A year and a date from a DATE tag: `"1969-09-26"` → (1969, "1969-09-26"),
    /// `"1969"` → (1969, nil) since a bare year says nothing more; `"26.09.1969"` → (1969, that
    /// text); text with no plausible year → (nil, nil).
    public static func yearAndDate(_ text: String) -> (year: Int?, date: String?) {
        let t = text.trimmingWhitespace()
        let bytes = Array(t.utf8)
        func isDigit(_ i: Int) -> Bool { i >= 0 && i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
        // The year is the first run of exactly four digits.
        var i = 0
        while i < bytes.count {
            guard isDigit(i) else { i += 1; continue }
            var j = i
            while isDigit(j) { j += 1 }
            if j - i == 4, let year = Int(String(decoding: bytes[i..<j], as: UTF8.self)), year >= 1 {
                return (year, bytes.count > 4 ? t : nil)
            }
            i = j
        }
        return (nil, nil)
    }

    /// A ReplayGain gain or peak: `"-6.50 dB"` → -6.5, `"+1.2 dB"` → 1.2, `"0.988"` → 0.988.
    /// A decimal comma is accepted; NaN, infinities and other text give nil.
    public static func decibels(_ text: String) -> Double? {
        var t = text.trimmingWhitespace()
        if t.lowercased().hasSuffix("db") { t = String(t.dropLast(2)).trimmingWhitespace() }
        if t.hasPrefix("+") { t.removeFirst() }
        t = t.replacingOccurrences(of: ",", with: ".")
        // Double() alone would also take "nan", "inf" and hex floats.
        let allowed = Set("0123456789.-eE".utf8)
        guard !t.isEmpty, t.utf8.allSatisfy(allowed.contains),
              let value = Double(t), value.isFinite else { return nil }
        return value
    }

    /// A yes/no flag such as COMPILATION: `"1"`, `"true"`, `"yes"` (any case) are true.
    public static func flag(_ text: String) -> Bool {
        switch text.trimmingWhitespace().lowercased() {
        case "1", "true", "yes": return true
        default: return false
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
