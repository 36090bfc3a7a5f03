import BoomicAudio
import Testing

/// `--output` specs: the four forms parse (ALSA device names keep their own colons and commas),
/// everything else is a typed usage error in one line, and a spec reads back as written.
@Suite struct SinkSpecTests {
    @Test func theFormsParse() throws {
        #expect(try SinkSpec(parsing: "null") == .null)
        #expect(try SinkSpec(parsing: "NULL") == .null)
        #expect(try SinkSpec(parsing: "wav:/tmp/a b.wav") == .wav(path: "/tmp/a b.wav"))
        #expect(try SinkSpec(parsing: "wav:c:d.wav") == .wav(path: "c:d.wav"))
        #expect(try SinkSpec(parsing: "alsa") == .alsa(device: "default"))
        #expect(try SinkSpec(parsing: "alsa:hw:0,0") == .alsa(device: "hw:0,0"))
        #expect(try SinkSpec(parsing: "alsa:file:'/tmp/x.wav',wav") == .alsa(device: "file:'/tmp/x.wav',wav"))
        for text in ["null", "wav:/tmp/x.wav", "alsa", "alsa:plughw:1"] {
            #expect(try SinkSpec(parsing: text).description == text)
        }
    }

    @Test(arguments: ["", "pulse", "wav", "wav:", "alsa:", "null:x", "speaker:1", "alsa:a\nb"])
    func badSpecsAreUsageErrors(text: String) {
        #expect { _ = try SinkSpec(parsing: text) } throws: { error in
            guard let e = error as? SinkSpecError else { return false }
            return e.spec == text && !e.reason.isEmpty && !e.reason.contains("\n")
        }
    }
}
