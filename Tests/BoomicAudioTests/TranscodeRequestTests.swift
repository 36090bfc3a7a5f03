import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// The bit rate a transcode asks the encoder for: libopus takes 6 to 256 kbit/s a channel, so
/// `TranscodeRequest` holds every caller to it, whatever the channels the file decodes to.
@Suite struct TranscodeRequestTests {
    let dir = TempDir("boomic-transcode-request")

    @Test func opusIsHeldTo6To256KbpsAChannel() {
        let asked = TranscodeRequest(path: "/m/a.flac", format: .opus, kbps: 510)
        #expect(asked.kbps == 510, "the codec's whole range when the library does not say")
        #expect(asked.kbps(channels: 1) == 256)
        #expect(asked.kbps(channels: 2) == 510)
        #expect(asked.kbps(channels: 6) == 510, "more than two channels are encoded as stereo")
        #expect(TranscodeRequest(path: "/m/a.flac", format: .opus, kbps: 510, channels: 1).kbps == 256)
        #expect(TranscodeRequest(path: "/m/a.flac", format: .opus, kbps: 320, channels: 1).kbps == 256)
        let low = TranscodeRequest(path: "/m/a.flac", format: .opus, kbps: 2)
        #expect(low.kbps(channels: 1) == 6 && low.kbps(channels: 2) == 12)
        #expect(TranscodeRequest(path: "/m/a.flac", format: .opus, kbps: 96, channels: 1).kbps == 96)
        #expect(TranscodeFormat.opus.kbpsRange(channels: 1) == 6...256)
        #expect(TranscodeFormat.opus.kbpsRange(channels: 2) == 12...510)
    }

    @Test func mp3KeepsItsRangeWhateverTheChannels() {
        #expect(TranscodeRequest(path: "/m/a.mp3", format: .mp3, kbps: 320, channels: 1).kbps == 320)
        #expect(TranscodeRequest(path: "/m/a.mp3", format: .mp3, kbps: 999).kbps(channels: 1) == 320)
        #expect(TranscodeRequest(path: "/m/a.mp3", format: .mp3, kbps: 1).kbps(channels: 2) == 8)
    }

    /// A mono file asked for 510 kbit/s of Opus without the library's channel count is encoded
    /// at 256: the stream comes out whole, at about that rate.
    @Test func aMonoFileAskedForMoreThanLibopusTakesIsTranscoded() async throws {
        let path = dir.file("mono.flac")
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "1", path, "synth", "4", "whitenoise", "gain", "-6"])
        let transcode = try await Transcoder.start(TranscodeRequest(path: path, format: .opus, kbps: 510))
        var bytes = 0
        for try await chunk in transcode { bytes += chunk.count }
        #expect(transcode.duration == 4)
        #expect(bytes > 4 * 64_000 / 8, "\(bytes) bytes for 4 s")
        #expect(Double(bytes) <= 4 * 256_000 / 8 * 1.1, "\(bytes * 8 / 4_000) kbit/s, above libopus's 256 for one channel")
    }
}
