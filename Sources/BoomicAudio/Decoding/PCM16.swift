/// 16-bit samples as the C decoders hand them out (native-endian), widened to the engine's
/// unscaled `Int32`.
enum PCM16 {
    /// Widens `count` samples from `source` into `target`: a plain loop over pointers, which
    /// the compiler turns into vector sign extensions (an append per sample, with its capacity
    /// check, cost a third of the time libmpg123 takes to decode).
    @inline(__always)
    static func widen(_ source: UnsafePointer<Int16>, count: Int, to target: UnsafeMutablePointer<Int32>) {
        for i in 0..<count { target[i] = Int32(source[i]) }
    }
}
