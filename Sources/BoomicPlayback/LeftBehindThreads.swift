import Synchronization

/// Decode threads a quit left behind (stuck in a file's open, or behind an output that does not
/// let go), counted for the whole process: a call stuck in the kernel cannot be cancelled, so
/// each keeps its thread until the call returns. Beyond `limit` no new engine starts.
public final class LeftBehindThreads: Sendable {
    /// The process's count, which every engine uses unless a test gives its own.
    public static let process = LeftBehindThreads(limit: 4)

    public let limit: Int
    private let left = Atomic<Int>(0)

    public init(limit: Int) { self.limit = limit }

    /// Threads left behind that have not finished yet.
    public var count: Int { left.load(ordering: .acquiring) }
    /// Whether a new engine may start.
    var hasRoom: Bool { count < limit }
    func leave() { left.add(1, ordering: .acquiringAndReleasing) }
    func reclaim() { left.subtract(1, ordering: .acquiringAndReleasing) }
}
