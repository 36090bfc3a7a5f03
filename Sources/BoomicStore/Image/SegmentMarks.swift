import Synchronization

/// Which segments of an image have been checked: a bit each, read without a lock because a read
/// of a song touches several per field, and set once (two threads checking the same segment
/// both find it good or both find it damaged: the bytes do not change).
final class SegmentMarks: Sendable {
    private final class Word: Sendable {
        let bits = Atomic<UInt64>(0)
    }

    private let words: [Word]

    init(count: Int) {
        words = (0..<((count + 63) / 64)).map { _ in Word() }
    }

    @inline(__always)
    func isSet(_ segment: Int) -> Bool {
        words[segment >> 6].bits.load(ordering: .acquiring) & (1 << UInt64(segment & 63)) != 0
    }

    /// Marks the segment; whether this call is the one that marked it.
    @discardableResult
    func set(_ segment: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(segment & 63)
        return words[segment >> 6].bits.bitwiseOr(bit, ordering: .acquiringAndReleasing).oldValue & bit == 0
    }
}
