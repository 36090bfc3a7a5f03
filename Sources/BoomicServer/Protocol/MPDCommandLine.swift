/// One request line split as MPD's tokenizer splits it (`src/util/Tokenizer.cxx`): the command
/// is a word of ASCII letters, digits and `_`; each argument is either a run of characters
/// above space other than quotes, or a double-quoted string in which a backslash takes the
/// next character literally. Clients quote every argument with spaces, quotes or backslashes
/// in it (libmpdclient, python-mpd2), so this is the whole grammar.
public struct MPDCommandLine: Equatable, Sendable {
    public var command: String
    public var arguments: [String]

    /// MPD's own limit (2 + twice its tag types); a longer line is refused, not truncated.
    public static let maxArguments = 2 + 2 * 64

    public init(command: String, arguments: [String] = []) {
        self.command = command
        self.arguments = arguments
    }

    /// Parses one line (without its newline). Errors carry MPD's codes: a line with no command
    /// word is `unknown` (MPD then closes the connection), a bad argument is `argument`.
    public static func parse(_ line: String) throws(MPDError) -> MPDCommandLine {
        var rest = Substring(line)
        rest = rest.drop { $0 == " " || $0 == "\t" }
        guard let first = rest.first else { throw MPDError(.unknown, "No command given") }
        guard first.isASCII, first.isLetter else { throw MPDError(.unknown, "Letter expected") }
        let end = rest.firstIndex { $0 == " " || $0 == "\t" } ?? rest.endIndex
        let word = rest[..<end]
        guard word.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw MPDError(.unknown, "Invalid word character")
        }
        let command = String(word).lowercased()
        rest = rest[end...].drop { $0 == " " || $0 == "\t" }
        var arguments: [String] = []
        while !rest.isEmpty {
            guard arguments.count < maxArguments else { throw MPDError(.argument, "Too many arguments", command: command) }
            if rest.first == "\"" {
                arguments.append(try quoted(&rest, command: command))
            } else {
                let end = rest.firstIndex { $0 == " " || $0 == "\t" } ?? rest.endIndex
                let word = rest[..<end]
                if word.contains(where: { $0 == "\"" || $0 == "'" || ($0.isASCII && $0.asciiValue! < 0x20) }) {
                    throw MPDError(.argument, "Invalid unquoted character", command: command)
                }
                arguments.append(String(word))
                rest = rest[end...]
            }
            rest = rest.drop { $0 == " " || $0 == "\t" }
        }
        return MPDCommandLine(command: command, arguments: arguments)
    }

    /// A double-quoted argument at the start of `rest`, which moves past it.
    private static func quoted(_ rest: inout Substring, command: String) throws(MPDError) -> String {
        var value = ""
        var i = rest.index(after: rest.startIndex)
        while true {
            guard i < rest.endIndex else { throw MPDError(.argument, "Missing closing '\"'", command: command) }
            var c = rest[i]
            if c == "\"" { break }
            if c == "\\" {
                i = rest.index(after: i)
                guard i < rest.endIndex else { throw MPDError(.argument, "Missing closing '\"'", command: command) }
                c = rest[i]
            }
            value.append(c)
            i = rest.index(after: i)
        }
        i = rest.index(after: i)
        if i < rest.endIndex, rest[i] != " ", rest[i] != "\t" {
            throw MPDError(.argument, "Space expected after closing '\"'", command: command)
        }
        rest = rest[i...]
        return value
    }

    /// An argument as a client writes it: quoted, with `"` and `\` escaped (libmpdclient's
    /// rule), so that `parse` gives it back unchanged.
    public static func quote(_ argument: String) -> String {
        var out = "\""
        for c in argument {
            if c == "\"" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out + "\""
    }
}
