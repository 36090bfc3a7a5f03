import Glibc

/// What a Musepack SV8 file's stream header says of its length, which FFmpeg's demuxer does not
/// pass on: FFmpeg's decoder gives the synthesis filter's 481 samples of delay first and the
/// last frame whole, where `mpcdec` (the reference decoder, libmpcdec) trims both, so tracks
/// join gaplessly. The stream header is `MPCK`, then packets of a two-letter key and a varint
/// size; `SH` holds a CRC, the version, the sample count and the beginning silence.
struct MusepackHeader: Equatable {
    /// Frames of music (the encoder's beginning silence not counted).
    var samples: Int
    var beginningSilence: Int

    /// libmpcdec's MPC_DECODER_SYNTH_DELAY: samples of filter delay before the first real one.
    static let synthesisDelay = 481

    /// The frames to drop from the start of FFmpeg's decoding.
    var leading: Int { Self.synthesisDelay + beginningSilence }

    init?(file: InputFile) {
        self.init(bytes: file.bytes(at: 0, count: 4096))
    }

    init?(bytes: [UInt8]) {
        guard bytes.starts(with: Array("MPCK".utf8)) else { return nil }
        var i = 4
        func varint() -> Int? {
            var value = 0
            for _ in 0..<9 {
                guard i < bytes.count else { return nil }
                let c = bytes[i]
                i += 1
                value = value << 7 | Int(c & 0x7F)
                if c & 0x80 == 0 { return value }
            }
            return nil
        }
        while i + 2 < bytes.count {
            let start = i
            let key = String(decoding: bytes[i..<(i + 2)], as: UTF8.self)
            i += 2
            guard let size = varint(), size > 2 else { return nil }
            if key == "SH" {
                i += 5 // CRC, version
                guard let samples = varint(), let silence = varint(), silence <= samples else { return nil }
                self.samples = samples - silence
                beginningSilence = silence
                return
            }
            i = start + size
        }
        return nil
    }
}
