import BoomicTestSupport
import Testing
@testable import BoomicCore

/// `ListeningLedger`: a song streamed to a user and scrobbled by their client counts once.
@Suite struct ListeningLedgerTests {
    let anna = Caller(user: "anna", client: "Symfonium")
    let annaWeb = Caller(user: "anna", client: "web")
    let bob = Caller(user: "bob", client: "DSub")

    /// A client's time far outside any clock (Int64.max milliseconds, a NaN) is a key, never a
    /// trap: the key of a time is pinned to what a key holds.
    @Test func aTimeNoClockShowsIsStillAKey() {
        var l = ListeningLedger()
        for time in [Double(Int64.max) / 1000, -Double(Int64.max), .infinity, .nan] {
            _ = l.scrobbled(songID(1), by: anna, at: time)
        }
        #expect(PlayKey(entry: .init(1), at: .infinity).started == PlayKey(entry: .init(1), at: 1e30).started)
        #expect(PlayKey(entry: .init(1), at: 1.5).started == 1_500_000)
    }

    @Test func aScrobbleClaimsTheUsersStreamOfThatSong() {
        var l = ListeningLedger()
        l.streamed(songID(1), duration: 200, by: annaWeb, at: 1000)
        let key = l.scrobbled(songID(1), by: anna, at: 1190)
        #expect(key == ListeningLedger.key(user: "anna", song: songID(1), at: 1190), "its own key, so a retry is the same play")
        #expect(l.streams.isEmpty, "the pending play is dropped: by any of anna's clients")
        #expect(l.due(at: 99_999).isEmpty, "claimed: never counted again")
        // A second play of the song, heard from the client's cache: a play of its own.
        #expect(l.scrobbled(songID(1), by: anna, at: 1400) == ListeningLedger.key(user: "anna", song: songID(1), at: 1400))
    }

    @Test func anotherUsersStreamOrAnotherSongIsNotClaimed() {
        var l = ListeningLedger()
        l.streamed(songID(1), duration: 200, by: bob, at: 1000)
        l.streamed(songID(2), duration: 200, by: annaWeb, at: 1000)
        #expect(l.scrobbled(songID(1), by: anna, at: 1100) == ListeningLedger.key(user: "anna", song: songID(1), at: 1100))
        #expect(l.streams.count == 2)
        // Too late after the stream (past the window) or well before it: not that stream.
        _ = l.scrobbled(songID(2), by: anna, at: 1000 + 3601)
        _ = l.scrobbled(songID(2), by: anna, at: 1000 - 121)
        #expect(l.streams.count == 2, "a scrobble long after the stream or well before it is another play")
    }

    @Test func aStreamNoScrobbleClaimsCountsOnceItCouldHaveBeenHeard() {
        var l = ListeningLedger()
        l.streamed(songID(1), duration: 200, by: annaWeb, at: 1000)
        l.streamed(songID(2), duration: nil, by: annaWeb, at: 1000)
        #expect(l.due(at: 1199).isEmpty)
        let due = l.due(at: 1200)
        #expect(due.map(\.stream.song) == [songID(1)] && due.map(\.time) == [1200])
        #expect(l.due(at: 1300).isEmpty, "handed over once")
        // A late scrobble of it claims the counted stream: the same key, so the log counts it once.
        #expect(l.scrobbled(songID(1), by: anna, at: 1010) == ListeningLedger.key(user: "anna", song: songID(1), at: 1000))
        #expect(l.scrobbled(songID(1), by: anna, at: 1010) == ListeningLedger.key(user: "anna", song: songID(1), at: 1000), "its retry too")
        #expect(l.due(at: 1000 + 3600).map(\.stream.song) == [songID(2)], "unknown length: the window")
        _ = l.due(at: 1000 + 3601)
        #expect(l.streams.isEmpty, "forgotten past the window")
    }

    @Test func aClientThatScrobblesOpensNoPendingPlays() {
        var l = ListeningLedger()
        _ = l.scrobbled(songID(9), by: anna, at: 1)
        l.streamed(songID(1), duration: 10, by: anna, at: 100)
        #expect(l.streams.isEmpty && l.due(at: 10_000).isEmpty, "its scrobbles say what it played")
        l.streamed(songID(1), duration: 10, by: annaWeb, at: 100)
        #expect(l.streams.count == 1)
    }

    @Test func keysAreApartFromQueueEntriesAndStable() {
        let k = ListeningLedger.key(user: "anna", song: songID(1), at: 5)
        #expect(k.entry.rawValue >= 1 << 61 && k.entry.rawValue < 1 << 62)
        #expect(k == ListeningLedger.key(user: "anna", song: songID(1), at: 5))
        #expect(k != ListeningLedger.key(user: "bob", song: songID(1), at: 5))
        #expect(k.transactionID != ListeningLedger.key(user: "anna", song: songID(1), at: 6).transactionID)
    }
}
