import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// The annotation calls of the HTTP API over a real library on disk: each one transaction with
/// the caller in its provenance, `undo` taking it back, plays counted once, and the per-user
/// state file.
@Suite struct AnnotationFlowTests {
    static let client = LibrarySession.Client(command: "boomic serve", version: "0")
    static let anna = Caller(user: "anna", client: "Symfonium")

    /// A library of `n` songs on two albums, in a temporary folder.
    func withLibrary(_ n: Int = 6, _ body: (LibrarySession, [Song]) throws -> Void) throws {
        try withTemporaryDirectory("boomic-annotate") { root in
            let lib = try LibrarySession.open(at: root + "/library", create: true, client: Self.client)
            defer { lib.close() }
            let songs = (0..<n).map { i in
                var s = Song(id: SongID(UUID()), path: "/music/\(i).flac")
                s.title = "Song \(i)"
                s.artists = ["Artist \(i % 2)"]
                s.album = "Album \(i % 2)"
                s.duration = 180
                return s
            }
            try lib.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "import") }
            try body(lib, songs)
        }
    }

    /// What `boomic undo` does: plan from the log, then a rollback flow.
    func undo(_ lib: LibrarySession) throws {
        let plan = try #require(try lib.undoStack().undoPlan(count: 1))
        _ = try RollbackFlow(lib: lib, targetSeq: plan.targetSeq, kind: .undo, label: "undo", undoes: plan.steps.map(\.id),
                             replan: { s in try s.undoStack().undoPlan(count: 1).map { ($0.steps.map(\.id), $0.targetSeq) } })
            .commit(message: nil)
    }

    @Test func aStarIsOneTransactionNamingTheCallerAndUndoTakesItBack() throws {
        try withLibrary { lib, songs in
            let before = lib.basis
            let album = try #require(AnnotationKey.album(of: songs[0]))
            let artist = AnnotationKey.artist(musicBrainzID: nil, name: "Artist 1")
            let r = try #require(try AnnotationFlow.star(lib, songs: [songs[0].id], others: [album, artist], by: Self.anna, at: 1_800_000_000))
            #expect(r.transaction.kind == .star)
            #expect(r.transaction.label == "star Artist 0 - Song 0, album album 0, artist artist 1 by anna via Symfonium")
            let logged = try lib.entry(seq: r.seq).transaction
            #expect(logged.provenance.user == "anna" && logged.provenance.client == "Symfonium")
            #expect(try lib.summaries(newestFirst: true, limit: 1, includePlays: false).first?.label.hasSuffix("by anna via Symfonium") == true,
                    "history's line says who")
            #expect(lib.basis[songs[0].id]?.favorite == true)
            #expect(lib.basis.annotations[album]?.starred == 1_800_000_000)
            #expect(try AnnotationFlow.star(lib, songs: [songs[0].id], others: [album], by: Self.anna, at: 1) == nil, "already so: nothing")
            let dates = try AnnotationFlow.starredDates(lib, songs: songs.map(\.id))
            #expect(dates == [songs[0].id: r.transaction.timestamp], "a song was starred when its star was committed")
            try undo(lib)
            #expect(lib.basis == before, "undo∘star is the identity")
        }
    }

    /// On random songs and keys: undo after star, and unstar after star, give the basis back.
    @Test func undoAndUnstarTakeBackAnyStar() throws {
        try withLibrary(8) { lib, songs in
            for seed in Seeds.list(6, from: 3700) {
                var rng = SplitMix64(seed: seed)
                let chosen = songs.filter { _ in rng.chance(0.5) }
                let keys = chosen.compactMap(AnnotationKey.album(of:)) + (rng.chance(0.5) ? [.artist(musicBrainzID: "mb\(seed)", name: "x")] : [])
                let before = lib.basis
                guard try AnnotationFlow.star(lib, songs: chosen.map(\.id), others: keys, by: Self.anna, at: Double(seed)) != nil else { continue }
                try undo(lib)
                #expect(lib.basis == before, "seed \(seed): undo")
                try AnnotationFlow.star(lib, songs: chosen.map(\.id), others: keys, by: Self.anna, at: Double(seed))
                try AnnotationFlow.unstar(lib, songs: chosen.map(\.id), others: keys, by: Self.anna)
                #expect(lib.basis == before, "seed \(seed): unstar")
            }
        }
    }

    @Test func ratingsAreZeroToFiveAndUnknownSongsAreRefused() throws {
        try withLibrary { lib, songs in
            let head = lib.head
            #expect(throws: AnnotationError.badRating(6)) { try AnnotationFlow.setRating(lib, song: songs[0].id, rating: 6, by: Self.anna) }
            let ghost = SongID(UUID())
            #expect(throws: AnnotationError.songNotFound(ghost)) { try AnnotationFlow.star(lib, songs: [songs[0].id, ghost], by: Self.anna, at: 1) }
            #expect(throws: AnnotationError.songNotFound(ghost)) { try Listening(session: lib).scrobble(ghost, by: Self.anna, at: 1) }
            #expect(lib.head == head, "nothing half-applied")
            let r = try #require(try AnnotationFlow.setRating(lib, song: songs[1].id, rating: 4, by: Self.anna))
            #expect(r.transaction.kind == .rating && r.transaction.label == "rate 4 Artist 1 - Song 1 by anna via Symfonium")
            #expect(lib.basis[songs[1].id]?.rating == 4)
            try AnnotationFlow.setRating(lib, song: songs[1].id, rating: 0, by: Self.anna)
            #expect(lib.basis[songs[1].id]?.rating == nil)
            let album = try #require(AnnotationKey.album(of: songs[1]))
            try AnnotationFlow.setRating(lib, album, rating: 2, by: Self.anna)
            #expect(lib.basis.annotations[album] == Annotation(rating: 2))
        }
    }

    @Test func aModifyThatRenamesTheAlbumCarriesItsStarAndUndoBringsItBack() throws {
        try withLibrary { lib, songs in
            let album = try #require(AnnotationKey.album(of: songs[0]))
            try AnnotationFlow.star(lib, others: [album], by: Self.anna, at: 42)
            let starred = lib.basis
            let flow = try EditFlow.modify(lib, query: QueryReading.parse(["album:=Album 0"], in: lib.basis),
                                           set: [FieldAssignment.parse("album=Renamed")])
            let r = try #require(try flow.commit(message: nil))
            #expect(r.transaction.label == "modify album=Renamed (3 songs)", "the moved annotation is no song")
            let song0 = try #require(lib.basis[songs[0].id])
            let renamed = try #require(AnnotationKey.album(of: song0))
            #expect(lib.basis.annotations[renamed] == Annotation(starred: 42) && lib.basis.annotations[album] == nil)
            try undo(lib)
            #expect(lib.basis == starred)
        }
    }

    @Test func aScrobbleOfAStreamedSongCountsOnceAndItsRepeatNothing() throws {
        try withLibrary { lib, songs in
            let listening = Listening(session: lib)
            let song = songs[0].id
            #expect(try listening.streamed(song, by: Self.anna, at: 1000) == [])
            let first = try listening.scrobble(song, by: Self.anna, at: 1100)
            guard case .committed(let seq) = first else { Issue.record("not committed: \(first)"); return }
            let t = try lib.entry(seq: seq).transaction
            #expect(t.kind == .play && t.provenance.user == "anna" && t.label == "play Artist 0 - Song 0 by anna via Symfonium")
            #expect(lib.basis[song]?.playcount == 1 && lib.basis[song]?.lastplayed == 1100)
            #expect(try listening.settle(at: 10_000) == [], "the stream was claimed")
            // The client sends the same scrobble again (its offline queue retried).
            #expect(try listening.scrobble(song, by: Self.anna, at: 1100) == .alreadyRecorded(seq: seq))
            #expect(lib.basis[song]?.playcount == 1)
            // Heard again later: a play of its own.
            _ = try listening.scrobble(song, by: Self.anna, at: 2000)
            #expect(lib.basis[song]?.playcount == 2)
        }
    }

    @Test func aStreamToAClientThatNeverScrobblesCountsAndALateScrobbleDoesNotAgain() throws {
        try withLibrary { lib, songs in
            let listening = Listening(session: lib)
            let web = Caller(user: "anna", client: "web")
            try listening.streamed(songs[1].id, by: web, at: 1000)
            #expect(try listening.settle(at: 1179) == [])
            let counted = try listening.settle(at: 1180)
            #expect(counted.count == 1 && lib.basis[songs[1].id]?.playcount == 1)
            guard case .committed(let seq) = counted.first else { Issue.record("not committed"); return }
            #expect(try listening.scrobble(songs[1].id, by: Self.anna, at: 1005) == .alreadyRecorded(seq: seq))
            #expect(lib.basis[songs[1].id]?.playcount == 1, "counted once against anna's stream")
            // Plays are facts: undo skips them and takes back the edit before.
            try AnnotationFlow.star(lib, songs: [songs[2].id], by: Self.anna, at: 1)
            try listening.scrobble(songs[3].id, by: Self.anna, at: 5000)
            try undo(lib)
            #expect(lib.basis[songs[2].id]?.favorite == false && lib.basis[songs[3].id]?.playcount == 1)
        }
    }

    @Test func nowPlayingIsPerCallerAndExpires() throws {
        try withLibrary { lib, songs in
            let listening = Listening(session: lib)
            let bob = Caller(user: "bob", client: "DSub")
            try listening.nowPlaying(songs[0].id, by: Self.anna, at: 100)
            try listening.nowPlaying(songs[1].id, by: Self.anna, at: 150)
            try listening.nowPlaying(songs[2].id, by: bob, at: 120)
            #expect(listening.nowPlaying(at: 200).map(\.song) == [songs[1].id, songs[2].id], "anna's latest replaces hers, newest first")
            #expect(listening.nowPlaying(at: 120 + 180 + 301).map(\.caller) == [Self.anna], "bob's song ended long ago")
            #expect(lib.head == 1, "now playing commits nothing")
        }
    }

    @Test func bookmarksAndPlayQueuesLiveInAFileBesideTheLibraryPerUser() throws {
        try withTemporaryDirectory("boomic-listeners") { dir in
            let a = SongID(UUID()), b = SongID(UUID())
            let store = try ListenerStateStore(libraryLocation: dir)
            #expect(store.bookmarks(of: "anna") == [] && store.playQueue(of: "anna") == nil)
            try store.setBookmark(a, position: 90_000, comment: "chapter 3", for: "anna", at: 10)
            try store.setBookmark(b, position: 5, comment: nil, for: "anna", at: 11)
            try store.setBookmark(a, position: 120_000, comment: "chapter 4", for: "anna", at: 12)
            try store.setBookmark(a, position: 1, comment: nil, for: "bob", at: 13)
            let queue = ListenerState.PlayQueue(songs: [a, b, a], current: b, position: 3_000, changed: 14, changedBy: "Symfonium")
            try store.savePlayQueue(queue, for: "anna")
            #expect(FileManager.default.fileExists(atPath: dir + "/listeners.json"))

            let reopened = try ListenerStateStore(libraryLocation: dir)
            let marks = reopened.bookmarks(of: "anna")
            #expect(marks.map(\.song) == [a, b], "most recently changed first")
            #expect(marks[0] == .init(song: a, position: 120_000, comment: "chapter 4", created: 10, changed: 12))
            #expect(reopened.bookmarks(of: "bob").count == 1)
            #expect(reopened.playQueue(of: "anna") == queue && reopened.playQueue(of: "bob") == nil)
            #expect(try reopened.deleteBookmark(a, for: "anna") && !(try reopened.deleteBookmark(a, for: "anna")))
            try reopened.savePlayQueue(.init(songs: [], current: nil, position: 0, changed: 15, changedBy: "x"), for: "anna")
            let last = try ListenerStateStore(libraryLocation: dir)
            #expect(last.bookmarks(of: "anna").map(\.song) == [b] && last.playQueue(of: "anna") == nil)

            try Data("{not json".utf8).write(to: URL(fileURLWithPath: dir + "/listeners.json"))
            #expect(throws: LibraryError.self) { try ListenerStateStore(libraryLocation: dir) }
        }
    }

    @Test func annotationsSurviveACheckpoint() throws {
        try withLibrary { lib, songs in
            let album = try #require(AnnotationKey.album(of: songs[0]))
            try AnnotationFlow.star(lib, others: [album, .artist(musicBrainzID: "ab-cd", name: "")], by: Self.anna, at: 3)
            try AnnotationFlow.setRating(lib, album, rating: 5, by: Self.anna)
            let bytes = try BasisCodec.codec.encode(lib.basis)
            let back = try bytes.withUnsafeBytes { try BasisCodec.codec.decode($0) }
            #expect(back == lib.basis && back.annotations.count == 2)
        }
    }
}
