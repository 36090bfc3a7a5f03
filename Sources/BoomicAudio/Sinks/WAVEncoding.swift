/// Samples as a WAV file's data chunk holds them: little-endian, 8-bit unsigned (offset 128),
/// 16/24/32-bit signed, as `flac -d` writes them. The `wav:` sink and the tests that compare
/// decoded audio with the reference decoders' output both use it.
public enum WAVEncoding {
    public static func append(_ samples: some Collection<Int32>, bitsPerSample: Int, to out: inout [UInt8]) {
        let width = (bitsPerSample + 7) / 8
        out.reserveCapacity(out.count + samples.count * width)
        for s in samples {
            switch width {
            case 1:
                out.append(UInt8(truncatingIfNeeded: s + 128))
            default:
                let u = UInt32(bitPattern: s)
                for b in 0..<width { out.append(UInt8(truncatingIfNeeded: u >> (8 * UInt32(b)))) }
            }
        }
    }
}
