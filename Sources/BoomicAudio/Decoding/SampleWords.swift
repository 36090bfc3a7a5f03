/// Samples held as 32-bit words, the way libwavpack and `boomic-ffmpeg` hand them over: an
/// integer source's values unscaled, a float source's IEEE bits. Both read paths of
/// `AudioDecoder` start from them.
enum SampleWords {
    /// As integers: unchanged, or a float scaled to 32-bit full scale and clamped.
    static func appendInts(_ words: ArraySlice<Int32>, of format: PCMFormat, to out: inout [Int32]) {
        guard format.isFloat else { return out.append(contentsOf: words) }
        out.reserveCapacity(out.count + words.count)
        for w in words {
            let x = Double(Float(bitPattern: UInt32(bitPattern: w))) * 2_147_483_648
            out.append(Int32(min(max(x.rounded(), -2_147_483_648), 2_147_483_647)))
        }
    }

    /// As floats (±1.0): a float's bits unchanged, an integer scaled by 1/2^(bits-1).
    static func appendFloats(_ words: ArraySlice<Int32>, of format: PCMFormat, to out: inout [Float]) {
        out.reserveCapacity(out.count + words.count)
        if format.isFloat {
            for w in words { out.append(Float(bitPattern: UInt32(bitPattern: w))) }
        } else {
            let scale = 1 / Float(Int64(1) << (format.bitsPerSample - 1))
            for w in words { out.append(Float(w) * scale) }
        }
    }
}
