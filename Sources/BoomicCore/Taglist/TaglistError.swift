import Foundation

/// A taglist that cannot be read: one line that quotes the clause, says where reading stopped
/// and what is accepted there.
///
/// `bad taglist clause '-@yeer(<2000)' at offset 1: unknown field 'yeer'; did you mean 'year'?`
public enum TaglistError: Error, Hashable, Sendable, LocalizedError {
    /// The clause as given, the offset (in characters, from 0) of the first thing that could not
    /// be read, and why.
    case badClause(String, offset: Int, reason: String)
    /// A taglist name that cannot be used, and why.
    case badName(String, reason: String)

    public var errorDescription: String? { message }

    /// The one-line message. A long clause is quoted around the offset, and control characters
    /// are escaped (in the quoted clause and in pieces of it the reason quotes), so the message
    /// stays one readable line whatever was typed.
    public var message: String {
        switch self {
        case .badClause(let clause, let offset, let reason):
            return "bad taglist clause '\(Self.excerpt(clause, around: offset))' at offset \(offset): \(Self.visible(reason))"
        case .badName(let name, let reason):
            return "bad taglist name '\(Self.excerpt(name, around: 0))': \(Self.visible(reason))"
        }
    }

    /// At most 40 characters either side of the offset, with `…` where the text was cut.
    public static func excerpt(_ text: String, around offset: Int) -> String {
        let chars = Array(text)
        let window = 40
        let lo = max(0, min(offset, chars.count) - window), hi = min(chars.count, offset + window)
        return (lo > 0 ? "…" : "") + visible(String(chars[lo..<hi])) + (hi < chars.count ? "…" : "")
    }

    /// Newlines, tabs and other control characters written as escapes.
    static func visible(_ text: String) -> String {
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
