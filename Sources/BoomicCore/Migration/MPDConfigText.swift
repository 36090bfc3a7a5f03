/// One `mpd.conf` file's text read as MPD reads it (`src/config/File.cxx`): a setting per line,
/// `name "value"`; `#` starts a comment; `name {` opens a block of such lines that `}` closes;
/// `include "PATTERN"` and `include_optional "PATTERN"` read other files there.
///
/// Pure: which files the includes name, and what a path value means (`~`, `$HOME/…`), is the
/// reader's business (`MPDConfig` in BoomicLibrary).
public enum MPDConfigText {
    /// One line that matters, in the file's order: a later setting of a name overrides an
    /// earlier one, an include's settings among them.
    public enum Entry: Equatable, Sendable {
        case setting(name: String, value: String, line: Int)
        case include(pattern: String, optional: Bool, line: Int)
        /// A block (`audio_output { … }`, `database { … }`) and its settings.
        case block(name: String, settings: [String: String], line: Int)
    }

    /// Why a line cannot be read: its number and MPD's words for it.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public static func parse(_ text: String) throws(Failure) -> [Entry] {
        var entries: [Entry] = []
        var open: (name: String, settings: [String: String], line: Int)?
        var number = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            var line = Substring(raw)
            if line.last == "\r" { line.removeLast() }
            line = line.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.first == "#" { continue }
            if open != nil, line.first == "}" {
                let rest = line.dropFirst().drop { $0 == " " || $0 == "\t" }
                guard rest.isEmpty || rest.first == "#" else { throw Failure(line: number, reason: "Unknown tokens after '}'") }
                entries.append(.block(name: open!.name, settings: open!.settings, line: open!.line))
                open = nil
                continue
            }
            let name = line.prefix { $0 != " " && $0 != "\t" }
            var rest = line.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }
            if open == nil, rest.first == "{" {
                rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
                guard rest.isEmpty || rest.first == "#" else { throw Failure(line: number, reason: "Unknown tokens after '{'") }
                open = (String(name), [:], number)
                continue
            }
            let value = try Self.value(rest, line: number)
            if var block = open {
                block.settings[String(name)] = value
                open = block
            } else if name == "include" || name == "include_optional" {
                entries.append(.include(pattern: value, optional: name == "include_optional", line: number))
            } else {
                entries.append(.setting(name: String(name), value: value, line: number))
            }
        }
        if open != nil { throw Failure(line: number, reason: "Expected '}' before end-of-file") }
        return entries
    }

    /// The value after a name: a quoted string whose `\` escapes the next character, then
    /// nothing but a comment. MPD wants the quotes; a bare word is taken as it is, as a
    /// hand-written file may have one.
    private static func value(_ text: Substring, line: Int) throws(Failure) -> String {
        guard let first = text.first else { throw Failure(line: line, reason: "Value missing") }
        var value = ""
        var rest: Substring
        if first == "\"" {
            var i = text.index(after: text.startIndex)
            var closed = false
            while i < text.endIndex {
                var c = text[i]
                if c == "\"" { closed = true; break }
                if c == "\\" {
                    i = text.index(after: i)
                    guard i < text.endIndex else { break }
                    c = text[i]
                }
                value.append(c)
                i = text.index(after: i)
            }
            guard closed else { throw Failure(line: line, reason: "Missing closing '\"'") }
            rest = text[text.index(after: i)...]
            guard rest.isEmpty || rest.first == " " || rest.first == "\t" else {
                throw Failure(line: line, reason: "Space expected after closing '\"'")
            }
        } else {
            let word = text.prefix { $0 != " " && $0 != "\t" }
            value = String(word)
            rest = text.dropFirst(word.count)
        }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        guard rest.isEmpty || rest.first == "#" else { throw Failure(line: line, reason: "Unknown tokens after value") }
        return value
    }
}
