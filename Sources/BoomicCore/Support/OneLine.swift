/// Quoting what a user typed in a one-line error message, whatever they typed: long text is cut
/// around the place that matters, control characters are shown as escapes. Every error of the
/// query, taglist, list and search languages quotes through it.
public enum OneLine {
    /// At most 40 characters either side of the offset, with `…` where the text was cut.
    public static func excerpt(_ text: String, around offset: Int) -> String {
        let chars = Array(text)
        let window = 40
        let lo = max(0, min(offset, chars.count) - window), hi = min(chars.count, offset + window)
        return (lo > 0 ? "…" : "") + visible(String(chars[lo..<hi])) + (hi < chars.count ? "…" : "")
    }

    /// Newlines, tabs and other control characters written as escapes.
    public static func visible(_ text: String) -> String {
        guard text.contains(where: { $0.isNewline || $0.unicodeScalars.contains(where: isControl) }) else {
            return text
        }
        return text.map { c -> String in
            switch c {
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            default:
                let hidden = c.isNewline || c.unicodeScalars.contains(where: isControl)
                return hidden ? c.unicodeScalars.map { "\\u{\(String($0.value, radix: 16))}" }.joined() : String(c)
            }
        }.joined()
    }

    private static func isControl(_ u: Unicode.Scalar) -> Bool { u.properties.generalCategory == .control }
}
