import BoomicCore
import BoomicSystem
import Foundation
import Synchronization

/// The API users' bookmarks and saved play queues (`ListenerState`), in one file beside the
/// library: `listeners.json` in the library folder.
///
/// Read once when opened, then each change replaces the file atomically (`AtomicFile`, as the
/// player's state is written): a crash leaves the old file or the new, never half of one. One
/// process owns it, the server; within it, changes are serialized here. The file is JSON with
/// sorted keys: `{"format": 1, "users": {"anna": {"bookmarks": {...}, "playQueue": {...}}}}`.
public final class ListenerStateStore: Sendable {
    public let path: String
    private let state: Mutex<[String: ListenerState]>

    public static let fileName = "listeners.json"
    static let format = 1

    private struct File: Codable {
        var format: Int
        var users: [String: ListenerState]
    }

    /// Opens the file in `libraryLocation` (none yet: nothing saved).
    ///
    /// - Throws: `LibraryError` naming the file when it cannot be read or is damaged.
    public init(libraryLocation: String) throws {
        path = libraryLocation + "/" + Self.fileName
        var users: [String: ListenerState] = [:]
        if let data = FileManager.default.contents(atPath: path) {
            let file: File
            do { file = try JSONDecoder().decode(File.self, from: data) } catch {
                throw LibraryError("\(path) is damaged (\(error.localizedDescription)); move it away to start afresh (it holds only bookmarks and saved play queues)")
            }
            guard file.format == Self.format else {
                throw LibraryError("\(path) has format \(file.format), which this boomic does not read")
            }
            users = file.users
        }
        state = Mutex(users)
    }

    /// `user`'s state (empty when they saved nothing).
    public func state(of user: String) -> ListenerState {
        state.withLock { $0[user] ?? ListenerState() }
    }

    /// `createBookmark`: sets `user`'s bookmark in `song` (replacing one there), at `time`.
    public func setBookmark(_ song: SongID, position: Int64, comment: String?, for user: String, at time: Double) throws {
        try change(user) { s in
            let created = s.bookmarks[song]?.created ?? time
            s.bookmarks[song] = .init(song: song, position: max(0, position), comment: comment, created: created, changed: time)
        }
    }

    /// `getBookmarks`: `user`'s bookmarks, the most recently changed first.
    public func bookmarks(of user: String) -> [ListenerState.Bookmark] {
        state(of: user).bookmarks.values.sorted { ($0.changed, $1.song) > ($1.changed, $0.song) }
    }

    /// `deleteBookmark`: removes `user`'s bookmark in `song`; false when there was none.
    @discardableResult
    public func deleteBookmark(_ song: SongID, for user: String) throws -> Bool {
        var had = false
        try change(user) { s in had = s.bookmarks.removeValue(forKey: song) != nil }
        return had
    }

    /// `savePlayQueue`: replaces `user`'s saved queue; an empty list of songs clears it.
    public func savePlayQueue(_ queue: ListenerState.PlayQueue, for user: String) throws {
        try change(user) { s in s.playQueue = queue.songs.isEmpty ? nil : queue }
    }

    /// `getPlayQueue`: `user`'s saved queue, nil when none.
    public func playQueue(of user: String) -> ListenerState.PlayQueue? { state(of: user).playQueue }

    /// Forgets a user's state (their account removed).
    public func forget(_ user: String) throws {
        try change(user) { $0 = ListenerState() }
    }

    /// Applies `body` to `user`'s state and writes the file under the lock, so two changes never
    /// write over each other; on a failed write the state in memory stays as it was.
    private func change(_ user: String, _ body: (inout ListenerState) -> Void) throws {
        try state.withLock { users in
            var next = users
            var s = next[user] ?? ListenerState()
            body(&s)
            next[user] = s.isEmpty ? nil : s
            guard next != users else { return }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do {
                try AtomicFile.write(try encoder.encode(File(format: Self.format, users: next)), to: path)
            } catch let error as SystemError {
                throw LibraryError("cannot save \(path) (\(error.reason))")
            }
            users = next
        }
    }
}
