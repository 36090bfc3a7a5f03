import Synchronization

/// When this process checks a mapped image's bytes: all of them at the open (the default), or
/// each segment at its first touch (storage.md, "The image").
///
/// Checking on touch makes a command's cost follow what it reads, not the library's size; but a
/// damaged segment is then met in the middle of a read that cannot fail, so the process must
/// have said what to do then. The CLI does: it names the damage in one line, removes
/// `library.image` (a cache: the next command rebuilds it from its checkpoint row) and exits,
/// having committed nothing the damage could have reached. A process that has not said (a
/// server, the tests) keeps checking everything at the open, where damage is an error to throw.
public enum ImageChecks {
    /// Told of a damaged segment: the one-line reason, and the mapped file it lies in (nil for
    /// bytes read into memory). The CLI's ends the process; one that returns (a test's) lets the
    /// read go on over the damaged bytes, which stays within the block, and is not told of that
    /// segment again.
    public typealias DamageHandler = @Sendable (_ reason: String, _ file: String?) -> Void

    private static let handler = Mutex<DamageHandler?>(nil)

    /// Makes images mapped from now on check each segment at its first touch, calling `onDamage`
    /// for a damaged one.
    public static func checkOnFirstTouch(onDamage: @escaping DamageHandler) {
        handler.withLock { $0 = onDamage }
    }

    static var onDamage: DamageHandler? { handler.withLock { $0 } }
}
