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
        // Over UTF-8 bytes: every byte the grammar looks at is ASCII, and a multi-byte
        // character is never a space, a quote or a backslash, so arguments stay whole. The
        // string's own storage, not a copy (a line is parsed per request).
        var line = line
        return try line.withUTF8 { parse(bytes: $0) }.get()
    }

    /// Whether `error` is a line without a command word, which no MPD client sends: MPD closes
    /// such a connection. A bad quote after the word is answered and the connection goes on,
    /// as MPD does (`ACK [5@0] {} Missing closing '"'`).
    static func hasNoCommandWord(_ error: MPDError) -> Bool {
        error.code == .unknown && [noCommand, letterExpected, badWordCharacter].contains(error.message)
    }

    // MPD's texts for a line whose command word is missing or malformed.
    private static let noCommand = "No command given"
    private static let letterExpected = "Letter expected"
    private static let badWordCharacter = "Invalid word character"

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Result<MPDCommandLine, MPDError> {
        do { return .success(try parseBytes(bytes)) } catch { return .failure(error) }
    }

    private static func parseBytes(_ bytes: UnsafeBufferPointer<UInt8>) throws(MPDError) -> MPDCommandLine {
        var i = 0
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        guard i < bytes.count else { throw MPDError(.unknown, noCommand) }
        guard isLetter(bytes[i]) else { throw MPDError(.unknown, letterExpected) }
        let start = i
        while i < bytes.count, !isSpace(bytes[i]) {
            let b = bytes[i]
            guard isLetter(b) || (b >= 0x30 && b <= 0x39) || b == 0x5F else { throw MPDError(.unknown, badWordCharacter) }
            i += 1
        }
        let command = String(decoding: bytes[start..<i], as: UTF8.self).lowercased()
        var arguments: [String] = []
        while true {
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count else { break }
            // MPD reads the arguments before it looks the command up, so their errors name none.
            guard arguments.count < maxArguments else { throw MPDError(.argument, "Too many arguments") }
            if bytes[i] == 0x22 {
                var value: [UInt8] = []
                i += 1
                while true {
                    guard i < bytes.count else { throw MPDError(.unknown, "Missing closing '\"'") }
                    var b = bytes[i]
                    if b == 0x22 { break }
                    if b == 0x5C {
                        i += 1
                        guard i < bytes.count else { throw MPDError(.unknown, "Missing closing '\"'") }
                        b = bytes[i]
                    }
                    value.append(b)
                    i += 1
                }
                i += 1
                if i < bytes.count, !isSpace(bytes[i]) {
                    throw MPDError(.unknown, "Space expected after closing '\"'")
                }
                arguments.append(String(decoding: value, as: UTF8.self))
            } else {
                let start = i
                while i < bytes.count, !isSpace(bytes[i]) {
                    let b = bytes[i]
                    if b == 0x22 || b == 0x27 || b < 0x20 { throw MPDError(.unknown, "Invalid unquoted character") }
                    i += 1
                }
                arguments.append(String(decoding: bytes[start..<i], as: UTF8.self))
            }
        }
        return MPDCommandLine(command: command, arguments: arguments)
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
