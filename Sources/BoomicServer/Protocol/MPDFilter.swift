import Foundation

/// A song filter as MPD's `find`, `search`, `list`, `count`, `playlistfind` … take it: either
/// an expression, `((artist == 'x') AND (!(album contains 'y')))`, or the older `TAG VALUE`
/// pairs (MPD's `src/song/Filter.cxx` is the reference for both). Parsed into this tree, then
/// evaluated through the library's own query evaluator (`query`).
public indirect enum MPDFilter: Equatable, Sendable {
    /// A tag's values (nil: any tag) tested against a string.
    case tag(MPDTag?, StringTest)
    /// One of MPD's tags that Boomic does not keep (`Performer`, `Label`, …): empty on every song.
    case unkeptTag(String, StringTest)
    /// The song's path relative to the music folder.
    case file(StringTest)
    /// Songs under a folder (relative to the music folder).
    case base(String)
    /// File or library time stamps, in seconds since 1970.
    case modifiedSince(Double)
    case addedSince(Double)
    /// `SAMPLERATE:BITS:CHANNELS`; with `mask`, `*` matches anything.
    case audioFormat(String, mask: Bool)
    /// Queue entries whose priority is at least this (queue commands only).
    case priority(atLeast: Int)
    case not(MPDFilter)
    case and([MPDFilter])

    public struct StringTest: Equatable, Sendable {
        public enum Position: Equatable, Sendable { case full, prefix, anywhere, regex }
        public var value: String
        public var position: Position
        public var negated: Bool
        /// Whether case is ignored; nil when the operator leaves it to the command (`search`
        /// ignores case, `find` does not).
        public var foldCase: Bool?

        public init(_ value: String, _ position: Position = .full, negated: Bool = false, foldCase: Bool? = nil) {
            self.value = value
            self.position = position
            self.negated = negated
            self.foldCase = foldCase
        }
    }

    /// Parses a command's filter arguments: one expression, or `TYPE VALUE` pairs, where the
    /// pairs compare whole values for `find` and substrings for `search` (`substrings`).
    public static func parse(_ arguments: ArraySlice<String>, substrings: Bool) throws(MPDError) -> MPDFilter {
        guard !arguments.isEmpty else { throw MPDError(.argument, "Filter expected") }
        // As MPD 0.23 reads them: expressions and TYPE VALUE pairs in any mix, all of them
        // required (`find "(artist == 'x')" album y`).
        var items: [MPDFilter] = []
        var i = arguments.startIndex
        while i < arguments.endIndex {
            if arguments[i].hasPrefix("(") {
                var parser = ExpressionParser(text: arguments[i])
                items.append(try parser.expression())
                guard parser.atEnd else { throw MPDError(.argument, "Unparsed garbage after expression") }
                i += 1
                continue
            }
            guard i + 1 < arguments.endIndex else { throw MPDError(.argument, "Incorrect number of filter arguments") }
            items.append(try pair(type: arguments[i], value: arguments[i + 1], substrings: substrings))
            i += 2
        }
        return items.count == 1 ? items[0] : .and(items)
    }

    private static func pair(type: String, value: String, substrings: Bool) throws(MPDError) -> MPDFilter {
        let test = StringTest(value, substrings ? .anywhere : .full)
        switch type.lowercased() {
        case "any": return .tag(nil, test)
        case "file": return .file(test)
        case "base":
            guard isSafeLocalURI(value) else { throw MPDError(.argument, "Bad URI") }
            return .base(value)
        case "modified-since": return .modifiedSince(try timeStamp(value))
        case "added-since": return .addedSince(try timeStamp(value))
        default:
            if MPDTag.isUnkeptMPDName(type) { return .unkeptTag(type, test) }
            // MPD names the type only in an expression's error.
            guard let tag = MPDTag(name: type) else { throw MPDError(.argument, "Unknown filter type") }
            return .tag(tag, test)
        }
    }

    /// MPD's `uri_safe_local`: a relative path none of whose segments is empty, `.` or `..`.
    static func isSafeLocalURI(_ uri: String) -> Bool {
        !uri.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    /// ISO 8601 (a date, or a date and time) or a whole number of seconds since 1970, as MPD
    /// takes for `modified-since`.
    static func timeStamp(_ text: String) throws(MPDError) -> Double {
        if let seconds = UInt64(text) { return Double(seconds) }
        let full = ISO8601DateFormatter()
        if let date = full.date(from: text) { return date.timeIntervalSince1970 }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        if let date = day.date(from: text) { return date.timeIntervalSince1970 }
        throw MPDError(.argument, "Failed to parse time stamp: \(text)")
    }
}

/// MPD's expression grammar, by recursive descent over the characters of one argument.
private struct ExpressionParser {
    let text: [Character]
    var i = 0

    init(text: String) { self.text = Array(text) }

    var atEnd: Bool { i == text.count }

    mutating func expression() throws(MPDError) -> MPDFilter {
        try expect("(")
        skipSpaces()
        if peek == "(" {
            let first = try expression()
            if peek == ")" {
                advance()
                return first
            }
            var items = [first]
            while true {
                guard try word() == "AND" else { throw MPDError(.argument, "'AND' expected") }
                items.append(try expression())
                if peek == ")" {
                    advance()
                    return .and(items)
                }
            }
        }
        if peek == "!" {
            advance()
            skipSpaces()
            guard peek == "(" else { throw MPDError(.argument, "'(' expected") }
            let inner = try expression()
            try expect(")")
            return .not(inner)
        }
        let type = try word()
        let filter: MPDFilter
        switch type.lowercased() {
        case "modified-since": filter = .modifiedSince(try MPDFilter.timeStamp(try quoted()))
        case "added-since": filter = .addedSince(try MPDFilter.timeStamp(try quoted()))
        case "base": filter = .base(try quoted())
        case "audioformat":
            let mask: Bool
            if take("==") { mask = false } else if take("=~") { mask = true } else {
                throw MPDError(.argument, "'==' or '=~' expected")
            }
            filter = .audioFormat(try quoted(), mask: mask)
        case "prio":
            guard take(">=") else { throw MPDError(.argument, "'>=' expected") }
            let digits = String(text[i...].prefix { $0.isASCII && $0.isNumber })
            guard let n = Int(digits) else { throw MPDError(.argument, "Number expected") }
            i += digits.count
            skipSpaces()
            filter = .priority(atLeast: n)
        case "file": filter = .file(try stringTest())
        case "any": filter = .tag(nil, try stringTest())
        default:
            if MPDTag.isUnkeptMPDName(type) {
                filter = .unkeptTag(type, try stringTest())
            } else {
                guard let tag = MPDTag(name: type) else { throw MPDError(.argument, "Unknown filter type: \(type)") }
                filter = .tag(tag, try stringTest())
            }
        }
        try expect(")")
        return filter
    }

    /// An operator and its quoted operand.
    private mutating func stringTest() throws(MPDError) -> MPDFilter.StringTest {
        typealias Test = MPDFilter.StringTest
        // Longest first, so `!contains_ci` is not read as `!contains`.
        let words: [(String, Test.Position, Bool, Bool?)] = [
            ("!starts_with_cs", .prefix, true, false), ("!starts_with_ci", .prefix, true, true),
            ("starts_with_cs", .prefix, false, false), ("starts_with_ci", .prefix, false, true),
            ("!contains_cs", .anywhere, true, false), ("!contains_ci", .anywhere, true, true),
            ("contains_cs", .anywhere, false, false), ("contains_ci", .anywhere, false, true),
            ("!starts_with", .prefix, true, nil), ("starts_with", .prefix, false, nil),
            ("!contains", .anywhere, true, nil), ("contains", .anywhere, false, nil),
            ("!eq_cs", .full, true, false), ("!eq_ci", .full, true, true),
            ("eq_cs", .full, false, false), ("eq_ci", .full, false, true),
        ]
        for (word, position, negated, fold) in words where takeWord(word) {
            return Test(try quoted(), position, negated: negated, foldCase: fold)
        }
        if take("=~") { return Test(try quoted(), .regex) }
        if take("!~") { return Test(try quoted(), .regex, negated: true) }
        if take("==") { return Test(try quoted()) }
        if take("!=") { return Test(try quoted(), negated: true) }
        throw MPDError(.argument, "'==' or '!=' expected")
    }

    /// A tag name: letters, `_` and `-`.
    private mutating func word() throws(MPDError) -> String {
        let w = String(text[i...].prefix { ($0.isASCII && $0.isLetter) || $0 == "_" || $0 == "-" })
        guard !w.isEmpty else { throw MPDError(.argument, "Word expected") }
        i += w.count
        skipSpaces()
        return w
    }

    /// A value in single or double quotes; a backslash takes the next character literally.
    private mutating func quoted() throws(MPDError) -> String {
        guard let quote = peek, quote == "'" || quote == "\"" else { throw MPDError(.argument, "Quoted string expected") }
        advance()
        var value = ""
        while true {
            guard var c = peek else { throw MPDError(.argument, "Closing quote not found") }
            if c == quote { break }
            if c == "\\" {
                advance()
                guard let next = peek else { throw MPDError(.argument, "Closing quote not found") }
                c = next
            }
            value.append(c)
            advance()
        }
        advance()
        skipSpaces()
        return value
    }

    private var peek: Character? { i < text.count ? text[i] : nil }
    private mutating func advance() { i += 1 }
    private mutating func skipSpaces() { while let c = peek, c == " " || c == "\t" { i += 1 } }

    private mutating func expect(_ c: Character) throws(MPDError) {
        guard peek == c else { throw MPDError(.argument, "'\(c)' expected") }
        advance()
        skipSpaces()
    }

    /// Takes `s` if it comes next (symbols: `==`, `=~`).
    private mutating func take(_ s: String) -> Bool {
        let chars = Array(s)
        guard i + chars.count <= text.count, Array(text[i..<(i + chars.count)]) == chars else { return false }
        i += chars.count
        skipSpaces()
        return true
    }

    /// Takes the operator word `s` if it comes next, followed by a space (MPD's rule, so
    /// `contains_x` is no `contains`), ignoring case.
    private mutating func takeWord(_ s: String) -> Bool {
        let chars = Array(s)
        let end = i + chars.count
        guard end < text.count, text[end] == " " || text[end] == "\t",
              String(text[i..<end]).lowercased() == s else { return false }
        i = end
        skipSpaces()
        return true
    }
}
