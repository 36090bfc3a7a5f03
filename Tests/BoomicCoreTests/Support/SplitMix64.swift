import Foundation

/// A repeatable random number generator (SplitMix64), so that a failing random history can be
/// rebuilt from the seed printed with the failure.
///
/// The standard library's `random(in:using:)` and `shuffled(using:)` are deterministic for a
/// given generator, so everything drawn from one of these is too.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// An element of a non-empty collection.
    mutating func pick<C: Collection>(_ xs: C) -> C.Element { xs.randomElement(using: &self)! }

    /// Up to `max` distinct elements, in their original order.
    mutating func subset<T>(of xs: [T], max: Int) -> [T] {
        guard !xs.isEmpty, max > 0 else { return [] }
        let n = Int.random(in: 1...Swift.min(max, xs.count), using: &self)
        let chosen = Set(Array(xs.indices).shuffled(using: &self).prefix(n))
        return xs.indices.filter(chosen.contains).map { xs[$0] }
    }
}

/// The seeds the random laws run on. `BOOMIC_SEED=<n>` in the environment runs that one seed
/// alone, to replay a failure.
enum Seeds {
    static let base: UInt64 = 0xB00_1C
    static let count = 200

    static var all: [UInt64] {
        if let n = replayed { return [n] }
        return (0..<UInt64(count)).map { base &+ $0 }
    }

    /// The seed given in `BOOMIC_SEED`, if any.
    static var replayed: UInt64? { ProcessInfo.processInfo.environment["BOOMIC_SEED"].flatMap { UInt64($0) } }

    /// How many checks a law must have made: `n` on a full run, none when replaying one seed.
    static func atLeast(_ n: Int) -> Int { replayed == nil ? n : 0 }
}
