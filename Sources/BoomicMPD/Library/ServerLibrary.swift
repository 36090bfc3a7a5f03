import BoomicCore
import BoomicMedia
import Foundation
import BoomicLibrary
import Dispatch
import Synchronization

/// The library as the server holds it: the newest snapshot and its tree of client paths, both
/// immutable, swapped whole when a commit lands (this server's or another process's), and the
/// idle notifications that go with the change.
public final class ServerLibrary: Sendable {
    public let session: LibrarySession
    public let folders: [String]
    /// The music folder when there is one: the directory client paths are relative to (MPD's
    /// `music_directory`). With several, each is a top-level directory of the tree.
    public var onlyFolder: String? { folders.count == 1 ? folders[0] : nil }

    /// One consistent view: a command reads one of these from start to end.
    public struct Snapshot: Sendable {
        public var basis: DataBasis
        public var tree: MusicTree
        public var head: Int
        /// Tag indexes of this snapshot, built as commands need them.
        public let indexes: TagIndexes

        init(basis: DataBasis, tree: MusicTree, head: Int, carrying earlier: TagIndexes? = nil) {
            self.basis = basis
            self.tree = tree
            self.head = head
            indexes = earlier.map { TagIndexes(basis: basis, tree: tree, carrying: $0) } ?? TagIndexes(basis: basis, tree: tree)
        }

        /// A directory's songs as they are in this snapshot.
        public func songs(in directory: MusicTree.Directory) -> [Song] { directory.songs }

        /// The song (not missing) a client's path names, found in its directory of the tree by
        /// a binary search on the paths: no index of every path to build (the first `lsinfo`
        /// built one for the whole library).
        public func song(at uri: String) -> Song? {
            guard let path = tree.path(for: uri) else { return nil }
            let parent = uri.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(uri[..<$0]) } ?? ""
            guard let dir = tree.directory(parent), let at = MusicTree.position(of: path, in: dir.songs) else { return nil }
            return dir.songs[at]
        }
    }

    /// When each stored playlist or taglist last changed while the server ran (`listStamp`).
    private let listChanges = Mutex<[ListID: Date]>([:])

    /// The `Last-Modified` of a stored playlist or taglist: when its name or songs last changed
    /// while the server ran (`LibraryIdle.lists`: a taglist's songs change with the songs'
    /// fields), else `started`. Clients (Cantata, M.A.L.P., myMPD) keep a list's songs until
    /// this moves.
    public func listStamp(_ id: ListID, started: Date) -> Date {
        max(started, listChanges.withLock { $0[id] } ?? started)
    }

    /// Never backwards: a step told late carries an earlier time than a later step's own commit.
    private func stampLists(_ ids: Set<ListID>, at time: Date) {
        listChanges.withLock { for id in ids { $0[id] = max($0[id] ?? time, time) } }
    }

    /// The library's art store (`albumart`, `readpicture`); nil when its folder cannot be made.
    public let art: ArtStore?
    /// Folders' cover files, for `albumart`.
    let covers: FolderCovers?

    private let current: Mutex<Snapshot>
    /// The snapshot's head, readable without the lock.
    private let currentHead: Atomic<Int>

    /// The first snapshot's tree is built on a thread of its own: clients are served
    /// meanwhile, and a command that needs a directory waits for it.
    public init(session: LibrarySession, folders: [String]) {
        self.session = session
        self.folders = folders
        art = try? session.artStore(musicFolders: folders)
        covers = art.map { FolderCovers(store: $0) }
        let basis = session.basis
        current = Mutex(Snapshot(basis: basis, tree: MusicTree(folders: folders, buildingFrom: basis, then: {
            // What opening the library and building the tree left free goes back to the system
            // (13 MB of a 112 MB server on the bench's 50k library); glibc keeps it otherwise.
            _ = releaseFreeMemory(0)
        }), head: session.head))
        currentHead = Atomic(session.head)
        warmUp()
    }

    /// Builds, off the event loops, what clients ask for first of a new snapshot (the columns
    /// of a browser's grouped lists, `stats`), so that the first `list album group
    /// albumartist` after a start or a change does not wait for them (building them is twice MPD's time).
    /// After a change it warms at once, on one queue, only a snapshot no newer change replaced
    /// by then, so a script committing many edits in a row costs a build or two, not one per
    /// commit. A client asking meanwhile builds its own.
    private func warmUp() {
        let head = self.head
        warming.async { [self] in
            let newest = snapshot
            if newest.head == head { newest.indexes.warm() }
        }
    }

    private let warming = DispatchQueue(label: "boomic.serve.warm", qos: .utility)

    public var snapshot: Snapshot { current.withLock { $0 } }

    /// The log position of the snapshot: what a client keeps an answer made from it by.
    public var head: Int { currentHead.load(ordering: .acquiring) }

    /// After this server's own commit: the snapshot takes it in at once, so the client's next
    /// command sees it (the change feed tells the idle clients as usual).
    public func refreshNow() { advance(told: nil) }

    /// The fields no index of a snapshot holds: plays, ratings and stickers.
    static let unindexedFields: Set<SongField> = [.rating, .playcount, .favorite, .stickers, .skipcount, .lastplayed, .bookmark, .bookmarkSpeed]

    /// One move of the snapshot at a time (own commits on event loops, the change feed's task):
    /// each starts from the snapshot it read, so two at once could drop one's songs.
    private let advancing = Mutex(())

    /// One move of the snapshot: the bases on both sides, the change between them (nil when
    /// the log could not be read for it) and when the snapshot took it in, which is the time
    /// the changed lists' `Last-Modified` moves to.
    private struct Step: Sendable {
        var before: DataBasis
        var after: DataBasis
        var change: LibraryChange?
        var at: Date
    }

    /// The moves not yet told, in the order they were made, while `follow` tells them (nil
    /// before: nobody would take them). Whichever move comes first, an own commit's
    /// `refreshNow` or the change feed, the step is the one exact pair of bases the change
    /// went between, and the feed's task, which the commit wakes too, tells it.
    private let untold = Mutex<[Step]?>(nil)

    /// Moves the snapshot to the session's newest state. Its tree is the last one patched with
    /// the new values of every song the transactions since then touched (`told` when it covers
    /// exactly those, else read from the log), or built anew when one of them can have added,
    /// removed or moved a song: the tree's songs are always the snapshot basis's.
    private func advance(told: LibraryChange?) {
        advancing.withLock { _ in
            let before = current.withLock { $0 }
            let (head, basis) = session.transactor.state
            guard head > before.head else { return }
            var change = told
            if change?.from != before.head || change?.to != head {
                let ts = try? session.transactor.entries(from: before.head + 1, through: head).map(\.transaction)
                change = ts.flatMap { $0.count == head - before.head ? LibraryChange(from: before.head, transactions: $0) : nil }
            }
            let tree: MusicTree
            if let change, change.songs.isEmpty {
                tree = before.tree
            } else if let change, change.kinds.isSubset(of: [.play, .edit, .tag, .rating, .star, .playlist, .taglist]),
                      let patched = before.tree.updating(change.songs.lazy.compactMap { id in
                          // A song gone from the basis leaves the tree: as a missing one, which
                          // makes the patch give up and the tree be built anew.
                          basis[id] ?? before.basis[id].map { var gone = $0; gone.missing = true; return gone }
                      }) {
                tree = patched
            } else {
                tree = MusicTree(folders: folders, songs: basis.songs.values, playlists: playlistFiles.withLock { $0 })
            }
            let now = Date()
            untold.withLock { $0?.append(Step(before: before.basis, after: basis, change: change, at: now)) }
            // A client's `listplaylists` right after its own `save` reads the new snapshot, so
            // the stamps of the playlists it changed move before it is published; taglists,
            // whose songs take a pass over the library to compare, move when the step is told.
            if let change {
                let edited = change.playlists.filter { before.basis.playlists[$0] != basis.playlists[$0] }
                if !edited.isEmpty { stampLists(edited, at: now) }
            }
            // Plays and ratings alone change nothing the indexes hold.
            let carried = change.map { !$0.songsAddedOrRemoved && $0.songFields.isSubset(of: Self.unindexedFields) } == true
            let next = Snapshot(basis: basis, tree: tree, head: head, carrying: carried ? before.indexes : nil)
            if !carried { next.indexes.inheritWants(from: before.indexes) }
            current.withLock {
                $0 = next
                currentHead.store(head, ordering: .releasing)
            }
            if !carried { warmUp() }
        }
    }

    /// The playlist files (`PlaylistFileFormat`) the last walk of the music folders found:
    /// the library does not keep them, so the server looks for them itself, once it listens
    /// (in the background: on a NAS the walk can take seconds, which no client should wait
    /// for), after each `update` and after an import by another process.
    private let playlistFiles = Mutex<[ListedFile]>([])
    /// The library head when the last walk began: a change up to it was walked after.
    private let walkedThrough = Atomic<Int>(-1)
    /// One walk at a time, off the event loops.
    private let playlistWalks = DispatchQueue(label: "boomic.serve.playlists", qos: .utility)
    static let playlistExtensions = Set(PlaylistFileFormat.allCases.map(\.rawValue))

    /// The playlist files in `folders`, by path. Only directories are read, and only the
    /// playlists' entries stat'ed. Confined: a playlist file is sent to clients whole, so one
    /// whose real path lies outside the music folders (a link to `/etc/shadow`, or in a folder
    /// linked in from elsewhere) is not listed.
    private static func walkForPlaylists(_ folders: [String]) -> [ListedFile] {
        MediaScanner.walk(folders, options: .init(extensions: playlistExtensions, confined: true)).files
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// Walks the music folders for playlist files, in the background, unless a walk began
    /// after the library reached `head` (an `update` walks when its import is done); idle
    /// clients hear `database` when they changed.
    public func findPlaylists(after head: Int = .max, telling hub: IdleHub) {
        playlistWalks.async { [self] in
            guard head > walkedThrough.load(ordering: .acquiring) else { return }
            if walkForPlaylistsNow() { hub.post([.database]) }
        }
    }

    /// Walks the music folders for playlist files; when they differ from the last walk's
    /// (added, removed, changed), the snapshot's tree takes them in. Returns whether they did.
    /// In turn with the background walks, so an older walk's result is never stored last.
    @discardableResult
    public func findPlaylistsNow() -> Bool { playlistWalks.sync { walkForPlaylistsNow() } }

    /// `findPlaylistsNow`, on `playlistWalks`.
    private func walkForPlaylistsNow() -> Bool {
        walkedThrough.store(self.head, ordering: .releasing)
        let found = Self.walkForPlaylists(folders)
        guard playlistFiles.withLock({ old in
            guard old != found else { return false }
            old = found
            return true
        }) else { return false }
        advancing.withLock { _ in
            let before = current.withLock { $0 }
            let tree = MusicTree(folders: folders, songs: before.basis.songs.values, playlists: found)
            current.withLock { $0 = Snapshot(basis: before.basis, tree: tree, head: before.head, carrying: before.indexes) }
        }
        return true
    }

    /// Follows the session's changes until it closes: a new snapshot for each, and what idle
    /// clients are told of it (`LibraryIdle`: `database` only for what a client sees of the
    /// songs, `stored_playlist` for the lists' names and songs, `sticker` for ratings and a
    /// client's stickers).
    ///
    /// `gone` hears of the songs a change took out of the library or marked missing (their
    /// files deleted), for the queues to drop them; `shown` of the songs still there whose
    /// lines changed, for the queues holding them to refresh their entries (`playlist`).
    public func follow(telling hub: IdleHub, gone: @escaping @Sendable (Set<SongID>) -> Void = { _ in },
                       shown: @escaping @Sendable (Set<SongID>) -> Void = { _ in }) -> Task<Void, Never> {
        let changes = session.changes()
        untold.withLock { if $0 == nil { $0 = [] } }
        return Task.detached { [self] in
            for await change in changes {
                advance(told: change)
                for step in untold.withLock({ s in defer { s = [] }; return s ?? [] }) {
                    tell(step, hub: hub, gone: gone, shown: shown)
                }
            }
        }
    }

    /// Tells idle clients, the queues and the lists' stamps of one move of the snapshot.
    private func tell(_ step: Step, hub: IdleHub, gone: (Set<SongID>) -> Void, shown: (Set<SongID>) -> Void) {
        guard let change = step.change else {
            // The log could not be read for it: anything may have changed.
            return hub.post([.database, .storedPlaylist, .sticker])
        }
        let idle = LibraryIdle(from: step.before, to: step.after, change: change)
        // An import (another process's `boomic import`) may have come with playlists.
        if change.songsAddedOrRemoved { findPlaylists(after: change.to, telling: hub) }
        stampLists(idle.lists, at: step.at)
        gone(idle.gone)
        hub.post(idle.subsystems)
        shown(idle.shown)
    }
}

/// glibc's `int malloc_trim(size_t pad)` from <malloc.h>, which Swift's Glibc module does not
/// include: returns the free memory of every arena to the system.
@_silgen_name("malloc_trim")
private func releaseFreeMemory(_ pad: Int) -> Int32
