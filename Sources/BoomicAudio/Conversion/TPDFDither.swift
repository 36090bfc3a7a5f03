/// Triangular (TPDF) dither noise in LSBs: the difference of two independent uniform values in
/// [0, 1), so between −1 and +1 with a triangle's distribution, mean 0. Added before rounding to
/// fewer bits, it makes the rounding error independent of the signal (no harmonic distortion on
/// quiet passages), at the cost of a little white noise.
///
/// xorshift64* is enough: the noise needs no cryptographic quality, only speed and no pattern
/// in the audio band. A fixed seed makes tests reproducible.
struct TPDFDither {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
    }

    mutating func next() -> Double {
        uniform() - uniform()
    }

    private mutating func uniform() -> Double {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Double((state &* 0x2545_F491_4F6C_DD1D) >> 11) * 0x1p-53
    }
}
