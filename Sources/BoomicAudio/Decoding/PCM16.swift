/// 16-bit samples as the C decoders hand them out (native-endian), widened to the engine's
/// unscaled `Int32`.
public enum PCM16 {
    /// Widens `count` samples from `source` into `target`, sixteen at a time (the compiler leaves a
    /// plain loop scalar; an append per sample, with its capacity check, costs a third of the
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

    /// Widens `count` 16-bit samples packed at the start of `samples` into the `Int32`s that
    /// take the whole of it, in place: from the end backwards, so each 16-bit sample is read
    /// before a wider one is written over it (sample i is written over bytes 4i..<4i+4, which
    /// held samples 2i and 2i+1, both at or past i). No allocation: the output thread's.
    public static func widenInPlace(_ samples: UnsafeMutablePointer<Int32>, count: Int) {
        let raw = UnsafeMutableRawPointer(samples)
        var i = count
        while i % 16 != 0 {
            i -= 1
            raw.storeBytes(of: Int32(raw.load(fromByteOffset: 2 &* i, as: Int16.self)), toByteOffset: 4 &* i, as: Int32.self)
        }
        while i > 0 {
            i -= 16
            let v = raw.loadUnaligned(fromByteOffset: 2 &* i, as: SIMD16<Int16>.self)
            raw.storeBytes(of: SIMD16<Int32>(truncatingIfNeeded: v), toByteOffset: 4 &* i, as: SIMD16<Int32>.self)
        }
    }
}
