/// The play queue's own source of chance, carried inside the value so that `random` and
/// `shuffle` are reproducible from the seed the queue was made with and survive `--resume`.
///
/// BoomicCore draws no randomness of its own: the seed comes from outside (`--seed`, or a fresh
/// one the player picks) and every draw is a pure step of this state. The stream is SplitMix64
/// (Steele, Lea, Flood 2014), the same as the tests' `SplitMix64`, and the two ways it is used are
/// fixed here, so that a seed means the same order in every build: see `index(below:)` and
/// `shuffle(_:)`.
public struct QueueRandom: Equatable, Sendable, Codable {
    /// The whole state: one 64-bit word, saved as a number.
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (`n > 0`) from one draw, by remainder: the bias is below 2⁻⁴⁰ for any
    /// queue that fits in memory, and one draw per call keeps the stream easy to follow.
    public mutating func index(below n: Int) -> Int {
        precondition(n > 0, "index(below:) needs a non-empty range")
        return Int(next() % UInt64(n))
    }

    /// Fisher–Yates from the back: for `i` from `count - 1` down to 1, swap `i` with
    /// `index(below: i + 1)`.
    public mutating func shuffle<T>(_ xs: inout [T]) {
        guard xs.count > 1 else { return }
        for i in stride(from: xs.count - 1, to: 0, by: -1) {
            xs.swapAt(i, index(below: i + 1))
        }
    }

    public init(from decoder: any Decoder) throws {
        state = try decoder.singleValueContainer().decode(UInt64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(state)
    }
}
