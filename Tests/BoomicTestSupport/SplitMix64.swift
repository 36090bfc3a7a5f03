import Foundation

/// A repeatable random number generator (SplitMix64: Steele, Lea, Flood 2014), so that a failing
/// random test can be rerun on exactly the same inputs from the seed its failure names.
///
/// One implementation for every test target: the tests pin outputs drawn from fixed seeds (the
/// sample histories, the codec round trips), so the stream must never change; the first value
/// for seed 0 is checked in `SplitMix64Tests`. The standard library's `random(in:using:)` and
/// `shuffled(using:)` are deterministic for a given generator, so everything drawn from one of
/// these is too.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The seed this generator started from: what a failure message names.
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A generator for a test that draws a fresh seed on each run (to explore more over time):
    /// the seed given in `BOOMIC_SEED` when there is one (to replay a failure), else a random one.
    /// The test must name `seed` (or `replay`) in its failure messages.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> SplitMix64 {
        SplitMix64(seed: Seeds.replayed(from: environment) ?? UInt64.random(in: 0...UInt64.max))
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed and how to rerun it, for failure messages: "seed 7 (BOOMIC_SEED=7 replays it)".
    public var replay: String { Seeds.replay(seed) }

    /// Uniform in [0, 1), from the top 53 bits of one draw.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// An element of a non-empty collection.
    public mutating func pick<C: Collection>(_ xs: C) -> C.Element { xs.randomElement(using: &self)! }

    /// Up to `max` distinct elements, in their original order.
    public mutating func subset<T>(of xs: [T], max: Int) -> [T] {
        guard !xs.isEmpty, max > 0 else { return [] }
        let n = Int.random(in: 1...Swift.min(max, xs.count), using: &self)
        let chosen = Set(Array(xs.indices).shuffled(using: &self).prefix(n))
        return xs.indices.filter(chosen.contains).map { xs[$0] }
    }
}

extension SplitMix64 {
    /// A UUID from two draws, so that ids replay with the seed.
    public mutating func uuid() -> UUID {
        let a = next(), b = next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * i)); bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * i)) }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
