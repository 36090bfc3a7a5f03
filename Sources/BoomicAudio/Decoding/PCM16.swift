/// 16-bit samples as the C decoders hand them out (native-endian bytes), widened to the engine's
/// unscaled `Int32`: the one conversion libmpg123 and libvorbisfile output both need.
enum PCM16 {
    /// Appends the first `count` samples of `bytes` to `out`.
    static func append(_ bytes: UnsafeRawBufferPointer, count: Int, to out: inout [Int32]) {
        guard count > 0 else { return }
        let start = out.count
        // Grown once and written through a pointer: an append per sample, with its capacity
        // check, cost a third of the time libmpg123 takes to decode.
        out.append(contentsOf: repeatElement(0, count: count))
        out.withUnsafeMutableBufferPointer { o in
            for i in 0..<count { o[start + i] = Int32(bytes.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self)) }
        }
    }

    /// Widens `count` samples from `source` into `target`: a plain loop over pointers, which
    /// the compiler turns into vector sign extensions.
    @inline(__always)
    static func widen(_ source: UnsafePointer<Int16>, count: Int, to target: UnsafeMutablePointer<Int32>) {
        for i in 0..<count { target[i] = Int32(source[i]) }
    }
}
