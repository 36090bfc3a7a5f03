/// 16-bit samples as the C decoders hand them out (native-endian bytes), widened to the engine's
/// unscaled `Int32`: the one conversion libmpg123 and libvorbisfile output both need.
enum PCM16 {
    /// Appends the first `count` samples of `bytes` to `out`.
    static func append(_ bytes: UnsafeRawBufferPointer, count: Int, to out: inout [Int32]) {
        out.reserveCapacity(out.count + count)
        for i in 0..<count {
            out.append(Int32(bytes.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self)))
        }
    }
}
