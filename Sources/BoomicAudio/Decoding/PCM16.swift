/// 16-bit samples as the C decoders hand them out (native-endian), widened to the engine's
/// unscaled `Int32`.
enum PCM16 {
    /// Widens `count` samples from `source` into `target`, sixteen at a time (the compiler left a
    /// plain loop scalar; an append per sample, with its capacity check, cost a third of the
    /// time libmpg123 takes to decode).
    static func widen(_ source: UnsafePointer<Int16>, count: Int, to target: UnsafeMutablePointer<Int32>) {
        var from = source, to = target, left = count
        while left >= 16 {
            let v = UnsafeRawPointer(from).loadUnaligned(as: SIMD16<Int16>.self)
            UnsafeMutableRawPointer(to).storeBytes(of: SIMD16<Int32>(truncatingIfNeeded: v), as: SIMD16<Int32>.self)
            from += 16
            to += 16
            left &-= 16
        }
        for i in 0..<left { to[i] = Int32(from[i]) }
    }
}
