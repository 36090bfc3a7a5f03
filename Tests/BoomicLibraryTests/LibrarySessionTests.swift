import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// A long-lived session (the player, the server): it sees what other sessions commit, publishes
/// what changed, and serves reads from any thread. A second `LibrarySession` on the same folder
/// has its own SQLite connections, exactly as another `boomic` process would.
@Suite struct LibrarySessionTests {
    static let client = LibrarySession.Client(command: "test", version: "0")

    @Test func seesCommitsOfAnotherSessionOnlyAfterRefresh() throws {
        try withLibrary { dir in
            let player = try LibrarySession.open(at: dir, create: true, client: Self.client)
            let shell = try LibrarySession.open(at: dir, create: false, client: Self.client)
            defer { player.close(); shell.close() }
            #expect(try player.refresh() == nil, "nothing committed yet")
            let added = try shell.commit(kind: .import, message: nil) { _ in (Self.songs(3).map(Assertion.addSong), "add 3") }
            #expect(added?.seq == 1)
            #expect(player.basis.songs.count == 0, "a session's basis only moves on refresh or its own commits")
            let change = try #require(try player.refresh())
            #expect(change.from == 0 && change.to == 1)
            #expect(player.basis.songs.count == 3)
            #expect(try player.refresh() == nil, "a second refresh finds nothing new")
        }
    }

    @Test func changeFeedCoversEveryTransactionInOrderWithWhatChanged() async throws {
        try await withLibraryAsync { dir in
            let player = try LibrarySession.open(at: dir, create: true, client: Self.client)
            let shell = try LibrarySession.open(at: dir, create: false, client: Self.client)
            defer { shell.close() }
            let feed = player.changes()
            let songs = Self.songs(4)
            // Own commit, then two by another session seen in one refresh.
            try player.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
            let playlist = ListID(UUID())
            try shell.commit(kind: .playlist, message: nil) { b in
                (try PlaylistGeneration.create("mix", songs: [songs[0].id], id: playlist, on: b), "new playlist")
            }
            try shell.commit(kind: .edit, message: nil) { b in
                (EditGeneration.modify(b, songs: [songs[1].id], set: [try FieldAssignment.parse("year=1969")]), "modify")
            }
            try player.refresh()
            player.close() // ends the feed
            var got: [LibraryChange] = []
            for await c in feed { got.append(c) }
            #expect(got.map(\.from) == [0, 1])
            #expect(got.map(\.to) == [1, 3])
            #expect(got[0].songs == Set(songs.map(\.id)) && got[0].kinds == [.import])
            #expect(got[1].playlists == [playlist] && got[1].songs == [songs[1].id])
            #expect(got[1].kinds == [.playlist, .edit])
        }
    }

    @Test func watchPicksUpAnotherSessionsCommitWithoutBeingAsked() async throws {
        try await withLibraryAsync { dir in
            let player = try LibrarySession.open(at: dir, create: true, client: Self.client)
            let shell = try LibrarySession.open(at: dir, create: false, client: Self.client)
            defer { player.close(); shell.close() }
            let feed = player.changes()
            let watching = player.watch(poll: .milliseconds(20))
            defer { watching.cancel() }
            try shell.commit(kind: .import, message: nil) { _ in (Self.songs(2).map(Assertion.addSong), "add") }
            var iterator = feed.makeAsyncIterator()
            let change = await iterator.next()
            #expect(change?.to == 1 && change?.songs.count == 2)
            #expect(player.basis.songs.count == 2)
        }
    }

    /// With inotify the watch sleeps until the log's files change: a commit from another
    /// session is seen although the poll that would otherwise catch it is an hour away (the
    /// wait below gives up long before that, so a watch that only polled fails here).
    @Test func watchWakesOnTheLogsFilesNotOnAPoll() async throws {
        try await withLibraryAsync { dir in
            let player = try LibrarySession.open(at: dir, create: true, client: Self.client)
            let shell = try LibrarySession.open(at: dir, create: false, client: Self.client)
            defer { player.close(); shell.close() }
            let feed = player.changes()
            let watching = player.watch(poll: .seconds(3600), net: .seconds(3600))
            defer { watching.cancel() }
            #expect(watching.isEventDriven, "inotify watches a temporary folder here")
            var slept = 0
            for round in 1...3 {
                // The watch asleep again: it went back to sleep after the refresh that saw the
                // last commit (or its first), so this one is seen only by a wake.
                try await waitUntil("the watch asleep") { watching.sleeps > slept }
                slept = watching.sleeps
                try shell.commit(kind: .import, message: nil) { _ in (Self.songs(1, seed: round).map(Assertion.addSong), "add") }
                let seen = await withTaskGroup(of: LibraryChange?.self) { group in
                    group.addTask { var it = feed.makeAsyncIterator(); return await it.next() }
                    group.addTask { try? await Task.sleep(for: .seconds(30)); return nil }
                    defer { group.cancelAll() }
                    return await group.next() ?? nil
                }
                #expect(seen?.to == round, "commit \(round) seen through inotify")
            }
        }
    }

    /// Readers on many threads never see a torn or older basis while commits go on.
    @Test func readsFromManyThreadsWhileCommitting() throws {
        try withLibrary { dir in
            let session = try LibrarySession.open(at: dir, create: true, client: Self.client)
            defer { session.close() }
            let commits = 30
            let problems = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 5) { worker in
                if worker == 0 {
                    for i in 0..<commits {
                        do {
                            try session.commit(kind: .import, message: nil) { _ in (Self.songs(1, seed: i).map(Assertion.addSong), "add") }
                        } catch { problems.withLock { $0.append("commit \(i): \(error)") } }
                    }
                } else {
                    var last = 0
                    while last < commits {
                        let (head, count) = (session.head, session.basis.songs.count)
                        // The basis read after the head is at least as new as it.
                        if count < head { problems.withLock { $0.append("basis of \(count) songs behind head \(head)") } }
                        if head < last { problems.withLock { $0.append("head went back from \(last) to \(head)") } }
                        last = head
                    }
                }
            }
            #expect(problems.withLock { $0 } == [])
            #expect(session.basis.songs.count == commits)
        }
    }

    /// Undo's plan is made on what the session read; if another session committed meanwhile,
    /// the commit refuses instead of taking back something the user was not shown.
    @Test func undoRefusesWhenTheStackMovedUnderIt() throws {
        try withLibrary { dir in
            let a = try LibrarySession.open(at: dir, create: true, client: Self.client)
            let b = try LibrarySession.open(at: dir, create: false, client: Self.client)
            defer { a.close(); b.close() }
            try a.commit(kind: .import, message: nil) { _ in (Self.songs(2).map(Assertion.addSong), "add") }
            let plan = try #require(try a.undoStack().undoPlan(count: 1))
            let flow = try RollbackFlow(lib: a, targetSeq: plan.targetSeq, kind: .undo, label: "undo 1",
                                        undoes: plan.steps.map(\.id),
                                        replan: { s in try s.undoStack().undoPlan(count: 1).map { ($0.steps.map(\.id), $0.targetSeq) } })
            #expect(flow.preview.count == 2)
            try b.refresh()
            try b.commit(kind: .edit, message: nil) { basis in
                (EditGeneration.modify(basis, songs: Array(basis.songs.keys), set: [try FieldAssignment.parse("year=2001")]), "modify")
            }
            #expect(throws: LibraryError.self) { try flow.commit(message: nil) }
            #expect(a.head == 2, "nothing was committed by the refused undo")
        }
    }

    @Test func dateRefsReadTheCalendarOnce() throws {
        try withLibrary { dir in
            let s = try LibrarySession.open(at: dir, create: true, client: Self.client)
            defer { s.close() }
            try s.commit(kind: .import, message: nil) { _ in (Self.songs(1).map(Assertion.addSong), "add") }
            #expect(try s.resolve("2000-01-01", timeZone: .gmt) == 0, "before the first transaction")
            #expect(try s.resolve("2999-12-31T23:59:59", timeZone: .gmt) == 1)
            // A lenient calendar would read 30 February as 2 March.
            #expect(throws: LibraryError.self) { try s.resolve("2026-02-30") }
        }
    }

    // MARK: Support

    static func songs(_ n: Int, seed: Int = 0) -> [Song] {
        (0..<n).map { i in
            var s = Song(id: SongID(UUID()), path: "/music/\(seed)/\(i).flac")
            s.title = "Song \(seed).\(i)"
            s.artists = ["Artist \(i % 2)"]
            s.album = "Album"
            return s
        }
    }

    func withLibrary(_ body: (String) throws -> Void) throws {
        try withTemporaryDirectory("boomic-session") { try body($0 + "/library") }
    }

    /// An async body: the folder is kept alive in a stored `TempDir` until the body ends.
    func withLibraryAsync(_ body: (String) async throws -> Void) async throws {
        let dir = TempDir("boomic-session")
        try await body(dir.path + "/library")
        withExtendedLifetime(dir) {}
    }
}
