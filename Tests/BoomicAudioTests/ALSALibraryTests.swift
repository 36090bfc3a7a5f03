import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// The ALSA sink through the real alsa-lib, without a sound card: ALSA's `file` plugin writes a
/// WAV file of what it is given, whose data must be the bytes the sink was handed; `default`
/// made such a plugin by an `ALSA_CONFIG_PATH` file; a device that does not exist.
/// Serialized: `ALSA_CONFIG_PATH` is the process's environment.
@Suite(.serialized) struct ALSALibraryTests {
    static let samples: [Int32] = (0..<44100).flatMap { i -> [Int32] in
        let s = Int32((20000 * sin(Double(i) * 0.0627)).rounded())
        return [s, -s / 3]
    }

    @Test func theFilePluginGetsExactlyTheSamples() throws {
        let dir = TempDir("boomic-alsa")
        let wav = dir.path + "/out.wav"
        let sink = try Sinks.open("alsa:file:'\(wav)',wav")
        try play(Self.samples, format: PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: 16), through: sink)
        #expect(!sink.isPaced, "ALSA's file plugin takes everything at once")
        #expect(try ToneTracks.wavData(ofFile: wav) == ALSASinkTests.le(Self.samples, width: 2))
    }

    @Test func defaultIsWhatTheConfigurationSays() throws {
        let dir = TempDir("boomic-alsa")
        let wav = dir.path + "/default.wav", conf = dir.path + "/asound.conf"
        try """
        </usr/share/alsa/alsa.conf>
        pcm.!default { type file slave.pcm "null" file "\(wav)" format "wav" }
        """.write(toFile: conf, atomically: true, encoding: .utf8)
        let previous = ProcessInfo.processInfo.environment["ALSA_CONFIG_PATH"]
        setenv("ALSA_CONFIG_PATH", conf, 1)
        defer { if let previous { setenv("ALSA_CONFIG_PATH", previous, 1) } else { unsetenv("ALSA_CONFIG_PATH") } }
        let sink = try Sinks.open("alsa")
        let values = Self.samples.map { $0 << 8 }
        try play(values, format: PCMFormat(sampleRate: 48000, channels: 2, bitsPerSample: 24), through: sink)
        let taken = try #require((sink as? ALSASink)?.hardware)
        #expect(taken.rate == 48000 && taken.channels == 2)
        let width = taken.format.width
        #expect(try ToneTracks.wavData(ofFile: wav) == ALSASinkTests.le(values, width: width))
    }

    @Test func aDeviceThatDoesNotExistIsOneLine() throws {
        let sink = ALSASink(device: "boomic_no_such_device")
        #expect { _ = try sink.prepare(for: PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: 16)) } throws: { error in
            error is AudioError && "\(error)".hasPrefix("alsa:boomic_no_such_device: ") && !"\(error)".contains("\n")
        }
    }

    /// Prepares `sink` for `format` (which it must take as it is), writes in blocks, drains, closes.
    func play(_ samples: [Int32], format: PCMFormat, through sink: any AudioSink) throws {
        #expect(try sink.prepare(for: format) == format)
        try samples.withUnsafeBufferPointer { all in
            var at = 0
            while at < all.count {
                let n = min(4410, all.count - at)
                try sink.write(UnsafeBufferPointer(rebasing: all[at..<(at + n)]))
                at += n
            }
        }
        try sink.drain()
        try sink.close()
    }
}
