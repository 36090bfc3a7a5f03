/// The one number syntax of queries, taglists and `modify`: `-`? digits (`.` digits)?
/// (`e` `+`|`-`? digits)?, finite.
///
/// Swift's `Double(_:)` also reads `0x7B9`, `nan`, `inf` and `.5`. Queries and taglists both read
/// numbers here, so a number that means something in one is never an error in the other.
public enum DecimalNumber {
    /// The number `text` spells, or nil when it is not one (or is too large to be finite).
    public static func parse(_ text: some StringProtocol) -> Double? {
        guard isNumber(text.utf8), let d = Double(String(text)), d.isFinite else { return nil }
        return d
    }

    /// Whether the bytes are a number in the shared syntax.
    static func isNumber(_ s: some Collection<UInt8>) -> Bool {
        var i = s.startIndex
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        func digits() -> Bool {
            let start = i
            while i < s.endIndex, isDigit(s[i]) { i = s.index(after: i) }
            return i != start
        }
        if i < s.endIndex, s[i] == UInt8(ascii: "-") { i = s.index(after: i) }
        guard digits() else { return false }
        if i < s.endIndex, s[i] == UInt8(ascii: ".") { i = s.index(after: i); guard digits() else { return false } }
        if i < s.endIndex, s[i] == UInt8(ascii: "e") || s[i] == UInt8(ascii: "E") {
            i = s.index(after: i)
            if i < s.endIndex, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") { i = s.index(after: i) }
            guard digits() else { return false }
        }
        return i == s.endIndex
    }
}
