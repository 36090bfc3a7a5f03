/// Where a long flow (import, write) reports as it goes: problems with single files, and progress.
///
/// The library layer never prints. The CLI turns these into stderr lines and a progress bar;
/// the server into its log and `update` status; tests collect them.
public protocol LibraryEvents: Sendable {
    /// One problem that did not stop the flow (a file skipped, a tag the file cannot hold).
    func warn(_ message: String)
    /// Starts a piece of work of `total` steps; the returned object counts them (from any thread).
    func progress(_ title: String, total: Int) -> any WorkProgress
}

/// Counts steps of one piece of work.
public protocol WorkProgress: Sendable {
    func advance(by steps: Int)
    func finish()
}

extension WorkProgress {
    public func advance() { advance(by: 1) }
}

/// Events nobody listens to (a test, a server request whose reply holds everything).
public struct SilentEvents: LibraryEvents {
    public init() {}
    public func warn(_ message: String) {}
    public func progress(_ title: String, total: Int) -> any WorkProgress { Silent() }

    private struct Silent: WorkProgress {
        func advance(by steps: Int) {}
        func finish() {}
    }
}
