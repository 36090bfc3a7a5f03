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
        case "file", "filename": return .file(test)
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

    /// A time stamp as MPD 0.23 reads one for `modified-since`: ISO 8601 (`2021-06` for a whole
    /// month, `2021-06-15` or `20210615`, then `T12`, `T12:30` or `T12:30:45`, then `Z` or an
    /// offset), else a whole number of seconds since 1970 as `strtoull` reads it (so `-5` is
    /// five seconds before); otherwise the ISO reading's error, in MPD's words.
    static func timeStamp(_ text: String) throws(MPDError) -> Double {
        do {
            return try ISOTimeStamp.parse(Array(text.utf8))
        } catch {
            let b = Array(text.utf8)
            var i = 0
            while i < b.count, b[i] == 0x20 || (0x09...0x0D).contains(b[i]) { i += 1 }
            var negative = false
            if i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { negative = b[i] == UInt8(ascii: "-"); i += 1 }
            let digits = b[i...]
            guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                  let n = UInt64(String(decoding: digits, as: UTF8.self)) else { throw error }
            let seconds = Int64(bitPattern: negative ? 0 &- n : n)  // strtoull's wrap, as time_t
            return Double(seconds)
        }
    }
}

/// MPD's `ParseISO8601`, on bytes, with glibc's `strptime` fields: a number reads digits while
/// ten times what it has read stays within the field's range (so `1623758400` is the year 1623,
/// month 7, day 5, and then garbage). UTC unless an offset says otherwise.
private enum ISOTimeStamp {
    static func parse(_ b: [UInt8]) throws(MPDError) -> Double {
        var i = 0
        func field(_ range: ClosedRange<Int>, digits most: Int) -> Int? {
            guard i < b.count, (0x30...0x39).contains(b[i]) else { return nil }
            var n = 0, count = 0
            repeat {
                n = n * 10 + Int(b[i] - 0x30)
                i += 1
                count += 1
            } while count < most && n * 10 <= range.upperBound && i < b.count && (0x30...0x39).contains(b[i])
            return range.contains(n) ? n : nil
        }
        func take(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        func at(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) throws(MPDError) -> Double {
            var c = DateComponents(year: y, month: m, day: d, hour: h, minute: mi, second: s)
            c.timeZone = TimeZone(identifier: "UTC")
            guard let date = Calendar(identifier: .gregorian).date(from: c) else { throw MPDError(.argument, "Failed to parse date") }
            return date.timeIntervalSince1970
        }
        let dash = UInt8(ascii: "-"), colon = UInt8(ascii: ":")
        // A whole month: the text is exactly YEAR-MONTH.
        if let y = field(0...9999, digits: 4), take(dash), let m = field(1...12, digits: 2), i == b.count { return try at(y, m, 1) }
        i = 0
        var ymd: (Int, Int, Int)?
        if let y = field(0...9999, digits: 4), take(dash), let m = field(1...12, digits: 2), take(dash), let d = field(1...31, digits: 2) {
            ymd = (y, m, d)
        } else {
            i = 0
            if let y = field(0...9999, digits: 4), let m = field(1...12, digits: 2), let d = field(1...31, digits: 2) { ymd = (y, m, d) }
        }
        guard let (y, m, d) = ymd else { throw MPDError(.argument, "Failed to parse date") }
        var h = 0, mi = 0, s = 0
        if take(UInt8(ascii: "T")) {
            let timeOfDay = MPDError(.argument, "Failed to parse time of day")
            guard let hour = field(0...23, digits: 2) else { throw timeOfDay }
            h = hour
            if take(colon) {
                guard let minute = field(0...59, digits: 2) else { throw timeOfDay }
                mi = minute
                if take(colon) {
                    guard let second = field(0...61, digits: 2) else { throw timeOfDay }
                    s = second
                }
            } else if i < b.count, (0x30...0x39).contains(b[i]) {
                guard let minute = field(0...59, digits: 2) else { throw timeOfDay }
                mi = minute
                if i < b.count, (0x30...0x39).contains(b[i]) {
                    guard let second = field(0...61, digits: 2) else { throw timeOfDay }
                    s = second
                }
            }
        }
        var stamp = try at(y, m, d, h, mi, s)
        if take(UInt8(ascii: "Z")) {
        } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == dash {
            let negative = b[i] == dash
            i += 1
            let offset = MPDError(.argument, "Failed to parse time zone offset")
            let start = i
            while i < b.count, (0x30...0x39).contains(b[i]) { i += 1 }
            guard let raw = Int(String(decoding: b[start..<i], as: UTF8.self)) else { throw offset }
            var hours = raw, minutes = 0
            switch i - start {
            case 4: (hours, minutes) = (raw / 100, raw % 100)
            case 2:
                if take(colon) {
                    let minuteStart = i
                    while i < b.count, (0x30...0x39).contains(b[i]) { i += 1 }
                    guard i - minuteStart == 2, let mm = Int(String(decoding: b[minuteStart..<i], as: UTF8.self)) else { throw offset }
                    minutes = mm
                }
            default: throw offset
            }
            guard hours <= 13 else { throw MPDError(.argument, "Time offset hours out of range") }
            guard minutes < 60 else { throw MPDError(.argument, "Time offset minutes out of range") }
            let seconds = Double(hours * 3600 + minutes * 60)
            stamp -= negative ? -seconds : seconds
        }
        guard i == b.count else { throw MPDError(.argument, "Garbage at end of time stamp") }
        return stamp
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
        // `filename`: the old name, which MPD still takes (GMPC's "Filename" search sends it).
        case "file", "filename": filter = .file(try stringTest())
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
