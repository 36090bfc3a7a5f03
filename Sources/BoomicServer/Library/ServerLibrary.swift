import BoomicCore
import BoomicLibrary
import Synchronization

/// The library as the server holds it: the newest snapshot and its tree of client paths, both
/// immutable, swapped whole when a commit lands (this server's or another process's), and the
/// idle notifications that go with the change.
public final class ServerLibrary: Sendable {
    public let session: LibrarySession
    public let folders: [String]

    /// One consistent view: a command reads one of these from start to end.
    public struct Snapshot: Sendable {
        public var basis: DataBasis
        public var tree: MusicTree
        public var head: Int
        /// Tag indexes of this snapshot, built as commands need them.
        public let indexes: TagIndexes

        init(basis: DataBasis, tree: MusicTree, head: Int) {
            self.basis = basis
            self.tree = tree
            self.head = head
            indexes = TagIndexes(basis: basis, tree: tree)
        }

        /// A directory's songs as they are in this snapshot.
        public func songs(in directory: MusicTree.Directory) -> [Song] { directory.songs.compactMap { basis[$0] } }

        /// The song (not missing) a client's path names, found in its directory of the tree by
        /// a binary search on the paths: no index of every path to build (the first `lsinfo`
        /// built one for the whole library).
        public func song(at uri: String) -> Song? {
            guard let path = tree.path(for: uri), !uri.hasSuffix("/") else { return nil }
            let parent = uri.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(uri[..<$0]) } ?? ""
            guard let dir = tree.directory(parent) else { return nil }
            var low = 0, high = dir.songs.count
            while low < high {
                let mid = (low + high) / 2
                guard let song = basis[dir.songs[mid]] else { return nil }
                if song.path.utf8.lexicographicallyPrecedes(path.utf8) { low = mid + 1 } else { high = mid }
            }
            guard low < dir.songs.count, let song = basis[dir.songs[low]], !song.missing,
                  song.path.utf8.elementsEqual(path.utf8) else { return nil }
            return song
        }
    }

    private let current: Mutex<Snapshot>
    /// The snapshot's head, readable without the lock.
    private let currentHead: Atomic<Int>

    /// The first snapshot's tree is built on a thread of its own: clients are served
    /// meanwhile, and a command that needs a directory waits for it.
    public init(session: LibrarySession, folders: [String]) {
        self.session = session
        self.folders = folders
        let basis = session.basis
        current = Mutex(Snapshot(basis: basis, tree: MusicTree(folders: folders, buildingFrom: basis, then: {
            // What opening the library and building the tree left free goes back to the system
            // (13 MB of a 112 MB server on the bench's 50k library); glibc keeps it otherwise.
            _ = releaseFreeMemory(0)
        }), head: session.head))
        currentHead = Atomic(session.head)
    }

    public var snapshot: Snapshot { current.withLock { $0 } }

    /// The log position of the snapshot: what a client keeps an answer made from it by.
    public var head: Int { currentHead.load(ordering: .acquiring) }

    /// After this server's own commit: the snapshot takes it in at once, so the client's next
    /// command sees it (the change feed tells the idle clients as usual).
    public func refreshNow(songsChanged: Bool) {
        let basis = session.basis, head = session.head
        let tree = songsChanged ? MusicTree(folders: folders, songs: basis.songs.values) : nil
        current.withLock { s in
            guard head > s.head else { return }
            s = Snapshot(basis: basis, tree: tree ?? s.tree, head: head)
            currentHead.store(head, ordering: .releasing)
        }
    }

    /// Follows the session's changes until it closes: a new snapshot for each, and the
    /// subsystems clients hear of (`database` for songs, `stored_playlist` for lists,
    /// `sticker` for plays and ratings).
    public func follow(telling hub: IdleHub) -> Task<Void, Never> {
        let changes = session.changes()
        return Task.detached { [self] in
            for await change in changes {
                let basis = session.basis
                let songsChanged = !change.songs.isEmpty && !change.kinds.isSubset(of: [.play])
                // The tree holds paths: only a change that can add, remove or move a song rebuilds it.
                let pathsMayMove = !change.songs.isEmpty && !change.kinds.isSubset(of: [.play, .edit, .tag, .rating, .playlist, .taglist])
                let tree = pathsMayMove ? MusicTree(folders: folders, songs: basis.songs.values) : current.withLock(\.tree)
                let head = session.head
                current.withLock {
                    $0 = Snapshot(basis: basis, tree: tree, head: head)
                    currentHead.store(head, ordering: .releasing)
                }
                var told: Set<Subsystem> = []
                if songsChanged { told.insert(.database) }
                if !change.songs.isEmpty { told.insert(.sticker) }
                if !change.playlists.isEmpty || !change.taglists.isEmpty { told.insert(.storedPlaylist) }
                hub.post(told)
            }
        }
    }
}

/// glibc's `int malloc_trim(size_t pad)` from <malloc.h>, which Swift's Glibc module does not
/// include: returns the free memory of every arena to the system.
@_silgen_name("malloc_trim")
private func releaseFreeMemory(_ pad: Int) -> Int32
