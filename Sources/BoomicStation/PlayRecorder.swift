import BoomicCore
import BoomicLibrary
import BoomicPlayback
import Foundation
import Synchronization

/// Turns the engine's `ended` events into plays in the library (one `play` transaction each),
/// and keeps those it cannot commit (the library read-only, a disk full) for the state file, to
/// be committed at the next start.
public final class PlayRecorder: Sendable {
    private let session: LibrarySession
    private let pending: Mutex<[PlayRecord]>
    /// Warnings for the front to show (a song gone, a commit that failed).
    private let warn: @Sendable (String) -> Void

    public init(session: LibrarySession, pending: [PlayRecord] = [], warn: @escaping @Sendable (String) -> Void) {
        self.session = session
        self.pending = Mutex(pending)
        self.warn = warn
    }

    /// The play an ended song makes, by the counting rule; nil for one that could not be played
    /// or that leaves nothing to record (a song without a bookmark, quit).
    public static func record(for end: SongEnd, song: Song?, at time: Date = Date()) -> PlayRecord? {
        let ending: PlayCounting.Ending
        switch end.reason {
        case .finished: ending = end.endedEarly ? .movedOn : .finished
        case .skipped, .stopped: ending = .movedOn
        case .quit: ending = .quit
        case .failed: return nil
        }
        let outcome = PlayCounting.outcome(heard: end.heard, duration: end.duration, ending: ending)
        let remembers = song?.remembersPosition ?? false
        // An audiobook keeps its place unless heard to its end; other songs hold no bookmark.
        let bookmark = remembers && (end.reason != .finished || end.endedEarly) ? Bookmark(position: end.position, speed: end.speed) : nil
        if outcome == .bookmarkOnly && !remembers { return nil }
        // A play or a skip counts once, by its key; a bookmark alone is no count and carries none
        // (the same play goes on after a resume, and its end is recorded then).
        return PlayRecord(song: end.song, outcome: outcome, time: time.timeIntervalSince1970, bookmark: bookmark,
                          key: outcome == .bookmarkOnly ? nil : end.key)
    }

    /// Commits the plays left from an earlier run, then this one.
    public func record(_ record: PlayRecord) {
        hold(record)
        commitHeld()
    }

    /// Keeps `record` as not committed yet: a state saved from now on holds it, so that a crash
    /// before its commit records it at the next start (by its key, once).
    public func hold(_ record: PlayRecord) { pending.withLock { $0.append(record) } }

    /// Commits what is held (what earlier runs left, then this run's plays, in order). Each
    /// stays held until its commit is done: a state saved meanwhile still holds it.
    public func commitHeld() {
        for record in pending.withLock({ $0 }) {
            do {
                if let message = try session.recordPlay(record).message { warn(message) }
            } catch {
                warn("the play could not be recorded yet (\(error.localizedDescription)); it is kept and recorded next time")
                return
            }
            pending.withLock { p in
                if let i = p.firstIndex(of: record) { p.remove(at: i) }
            }
        }
    }

    /// Commits what earlier runs left.
    public func flushPending() { commitHeld() }

    /// What is not committed yet (held, or failed to commit), for the state file.
    public var uncommitted: [PlayRecord] { pending.withLock { $0 } }
}
