import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// A `wav:` file a server keeps open between songs says how much it holds whenever playback
/// stops, pauses, seeks or reaches the end of the queue: its header said 0 bytes until the
/// output was closed, so `soxi` or an editor read nothing of a file the server still held.
@Suite struct WAVFileSinkTests {
    let dir = TempDir("wav-sink")
    static let cd = PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: 16)

    /// The data size and RIFF size the header at the file's start gives, and the file's size.
    func sizes(_ path: String) throws -> (data: Int, riff: Int, file: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        try #require(bytes.count >= 44 && bytes[36..<40] == [0x64, 0x61, 0x74, 0x61], "a 16-bit stereo PCM header")
        return (u32(40), u32(4), bytes.count)
    }

    @Test func theHeaderIsBroughtUpToDateWhenPlaybackWaits() throws {
        let path = dir.path + "/out.wav"
        let sink = try WAVFileSink(path: path, format: Self.cd)
        try sink.write([Int32](repeating: 1000, count: 4096))
        #expect(try sizes(path).data == 0, "nothing said while it plays")
        sink.discard()  // a stop, a pause, a seek
        #expect(try sizes(path) == (data: 8192, riff: 8192 + 36, file: 8192 + 44))
        try sink.write([Int32](repeating: -1000, count: 2048))
        sink.drain()  // the end of the queue
        #expect(try sizes(path) == (data: 12288, riff: 12288 + 36, file: 12288 + 44))
        try sink.write([Int32](repeating: 7, count: 2))
        try sink.close()
        #expect(try sizes(path) == (data: 12292, riff: 12292 + 36, file: 12292 + 44))
    }

    /// A pipe has no place to write a header at: the sink writes to it as before and says nothing.
    @Test func aPipeIsWrittenOnly() throws {
        let fifo = dir.path + "/out.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let sink = try WAVFileSink(path: fifo, format: Self.cd)
        try sink.write([Int32](repeating: 1000, count: 256))
        sink.discard()
        sink.drain()
        var got = [UInt8](repeating: 0, count: 4096)
        let n = read(reader, &got, got.count)
        #expect(n == 44 + 512, "the header once, then the samples: \(n)")
    }
}
