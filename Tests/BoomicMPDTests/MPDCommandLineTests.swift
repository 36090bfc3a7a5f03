import BoomicMPD
import BoomicTestSupport
import Testing

/// Request lines split as MPD's own tokenizer splits them, with MPD's error codes.
@Suite struct MPDCommandLineTests {
    @Test func wordsAndQuotedArguments() throws {
        #expect(try MPDCommandLine.parse("status") == MPDCommandLine(command: "status"))
        #expect(try MPDCommandLine.parse("  PLAY 3 ") == MPDCommandLine(command: "play", arguments: ["3"]))
        #expect(try MPDCommandLine.parse(#"add "Night Drive/01 a b.flac""#).arguments == ["Night Drive/01 a b.flac"])
        #expect(try MPDCommandLine.parse(#"find artist "A \"B\" \\ C" album X"#).arguments == ["artist", #"A "B" \ C"#, "album", "X"])
        #expect(try MPDCommandLine.parse(#"search any """#).arguments == ["any", ""])
        #expect(try MPDCommandLine.parse("list album group albumartist").arguments == ["album", "group", "albumartist"])
        // Non-ASCII arguments pass as they are.
        #expect(try MPDCommandLine.parse("find artist 坂本").arguments == ["artist", "坂本"])
    }

    /// MPD's documentation's own example of quoting a filter inside an argument.
    @Test func theProtocolDocumentsExampleOfNestedQuotes() throws {
        let line = try MPDCommandLine.parse(#"find "(Artist == \"foo\\'bar\\\"\")""#)
        #expect(line.arguments == [#"(Artist == "foo\'bar\"")"#])
        #expect(try MPDFilter.parse(line.arguments[...], substrings: false) == .tag(.artist, .init(#"foo'bar""#)))
    }

    @Test(arguments: [
        ("", MPDError.Code.unknown), ("   ", .unknown), ("3play", .unknown), ("pl-ay", .unknown),
        // A bad quote is MPD's ACK [5@0] {} (checked against Debian's mpd), not the command's.
        (#"add "unterminated"#, .unknown), (#"add "a"b"#, .unknown), (#"add it's"#, .unknown),
        (#"add "ends in a backslash\"#, .unknown),
    ])
    func badLinesAreErrorsWithMPDsCodes(line: String, code: MPDError.Code) {
        #expect(throws: MPDError.self) { try MPDCommandLine.parse(line) }
        do { _ = try MPDCommandLine.parse(line) } catch { #expect(error.code == code, "\(line): \(error.line)") }
    }

    @Test func tooManyArgumentsIsAnErrorNotATruncation() throws {
        let line = "find" + String(repeating: " a", count: MPDCommandLine.maxArguments + 1)
        #expect { try MPDCommandLine.parse(line) } throws: { ($0 as? MPDError)?.code == .argument }
        #expect(try MPDCommandLine.parse("find" + String(repeating: " a", count: MPDCommandLine.maxArguments)).arguments.count
                == MPDCommandLine.maxArguments)
    }

    /// What a client quotes (libmpdclient's rule) comes back unchanged, whatever it holds.
    @Test func quotedArgumentsComeBackUnchanged() throws {
        var rng = SplitMix64.fromEnvironment()
        let alphabet: [Character] = ["a", "Z", " ", "\t", "\"", "\\", "'", "(", ")", "é", "坂", "🎵", "=", "~"]
        for _ in 0..<500 {
            let args = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
                String((0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            }
            let line = "find " + args.map(MPDCommandLine.quote).joined(separator: " ")
            #expect(try MPDCommandLine.parse(line).arguments == args, "seed \(rng.seed): \(line)")
        }
    }

    @Test func anErrorIsOneACKLine() {
        let e = MPDError(.password, "incorrect password", command: "password")
        #expect(e.line == "ACK [3@0] {password} incorrect password")
        #expect(MPDError(.unknown, "unknown command \"x\"\nmore", index: 2).line == "ACK [5@2] {} unknown command \"x\" more")
    }
}
