import BoomicDecoderPipe
import BoomicTestSupport
import Testing

/// The stream between `boomic-ffmpeg` and the player: whatever sizes the pipe's reads come in,
/// the same packets come out, and a header says exactly what it was given.
@Suite struct DecoderPipeTests {
    @Test func headerTextRoundTrips() {
        let headers = [
            DecoderPipe.Header(sampleRate: 44_100, channels: 2, bitsPerSample: 16, isFloat: false, totalFrames: 145_530, codec: "alac"),
            DecoderPipe.Header(sampleRate: 48_000, channels: 6, bitsPerSample: 32, isFloat: true, totalFrames: nil, codec: "aac"),
            DecoderPipe.Header(sampleRate: 96_000, channels: 1, bitsPerSample: 24, isFloat: false, totalFrames: 0, codec: "wavpack"),
        ]
        for h in headers { #expect(DecoderPipe.Header(text: h.text) == h, "\(h.text)") }
    }

    @Test(arguments: [
        "", "rate=44100", "rate=0 channels=2 bits=16 float=0 frames=1",
        "rate=44100 channels=0 bits=16 float=0 frames=1", "rate=44100 channels=2 bits=7 float=0 frames=1",
        "rate=44100 channels=2 bits=16 float=2 frames=1", "rate=44100 channels=2 bits=16 float=0 frames=x",
        "rate=44100 channels=2 bits=16 float=0", "rate=44100 channels=2 bits=16 float=0 frames=1 junk",
    ])
    func nonsenseHeadersAreRefused(_ text: String) {
        #expect(DecoderPipe.Header(text: text) == nil)
    }

    @Test func anyChunkingGivesThePacketsWritten() throws {
        for seed in Seeds.list(50, from: 0xD1_9E00) {
            var rng = SplitMix64(seed: seed)
            var written: [(DecoderPipe.Kind, [UInt8])] = [(.header, Array("rate=44100 channels=2 bits=16 float=0 frames=9 codec=x".utf8))]
            for _ in 0..<Int.random(in: 0...20, using: &rng) {
                let kind: DecoderPipe.Kind = [.samples, .samples, .warning][Int.random(in: 0...2, using: &rng)]
                written.append((kind, (0..<Int.random(in: 0...3000, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
            }
            written.append((.end, []))
            let stream = written.flatMap { DecoderPipe.packet($0.0, $0.1) }
            var parser = DecoderPipeParser()
            var read: [(DecoderPipe.Kind, [UInt8])] = []
            var at = 0
            while at < stream.count {
                let n = min(stream.count - at, Int.random(in: 1...5000, using: &rng))
                parser.feed(stream[at..<(at + n)])
                at += n
                while let p = try parser.next({ ($0, Array($1)) }) { read.append(p) }
            }
            #expect(read.map(\.0) == written.map(\.0), "\(Seeds.replay(seed))")
            #expect(read.map(\.1) == written.map(\.1), "\(Seeds.replay(seed))")
            #expect(parser.pending == 0)
        }
    }

    @Test func garbageIsAFailureNotACrash() {
        var parser = DecoderPipeParser()
        parser.feed([0x51, 0, 0, 0, 0])
        #expect(throws: DecoderPipeParser.Failure.unknownKind(0x51)) { try parser.next { _, _ in () } }
        var long = DecoderPipeParser()
        long.feed([0x50, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: DecoderPipeParser.Failure.tooLong(0x7FFF_FFFF)) { try long.next { _, _ in () } }
    }
}
