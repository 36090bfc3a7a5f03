import BoomicCore
@testable import BoomicPlayback
@testable import BoomicStation
import Foundation
import Testing

/// The place a state file names follows the events the room has recorded: a status behind them
/// (several songs ended in one turn of the engine) or ahead of them (the room's events wait in
/// their stream) is not saved.
@Suite struct RoomPlaceTests {
    private let songs = (0..<3).map { _ in SongID(UUID()) }
    private var playing: PlayQueue { PlayQueue(seed: 1).applying(.add(songs, at: .end)).applying(.play(nil)) }

    private func key(_ entry: PlayQueue.EntryID, _ at: Int64) -> PlayKey { PlayKey(entry: entry, started: at) }

    /// The queue moved on `songs` times by songs' ends, and the status of the play there.
    private func status(after songs: Int, play: PlayKey?, frame: Int = 4_410) -> PlaybackStatus {
        var queue = playing
        for _ in 0..<songs { queue.apply(.finished) }
        return PlaybackStatus(queue: queue, entry: queue.current, play: play, frame: frame)
    }

    @Test func aStatusInStepIsSavedAsItIs() {
        let e = playing.playOrder
        var place = RoomPlace(queue: playing, resume: nil)
        place.started(key(e[0], 1))
        #expect(place.place(for: status(after: 0, play: key(e[0], 1))).play == key(e[0], 1))
        place.ended(e[0], play: key(e[0], 1))
        let next = place.place(for: status(after: 1, play: key(e[1], 2)))
        #expect(next.entry == e[1] && next.play == key(e[1], 2) && next.frame == 4_410)
    }

    /// Two songs ended in one turn: the status still names the first one's play.
    @Test func aStatusBehindTheRecordedEndsSavesTheLastEndedSong() {
        let e = playing.playOrder
        var place = RoomPlace(queue: playing, resume: nil)
        place.started(key(e[0], 1))
        _ = place.place(for: status(after: 0, play: key(e[0], 1)))
        place.ended(e[0], play: key(e[0], 1))
        place.started(key(e[1], 2))
        place.ended(e[1], play: key(e[1], 2))
        let saved = place.place(for: status(after: 0, play: key(e[0], 1)))
        #expect(saved.entry == e[1] && saved.play == key(e[1], 2) && saved.queue.current == e[1], "\(saved)")
    }

    /// The engine is two songs on; the room has recorded only the first one's end: the second
    /// song's play is neither committed nor pending, so the place saved is before it.
    @Test func aStatusAheadOfTheRecordedEndsSavesTheLastEndedSong() {
        let e = playing.playOrder
        var place = RoomPlace(queue: playing, resume: nil)
        place.started(key(e[0], 1))
        place.ended(e[0], play: key(e[0], 1))
        let saved = place.place(for: status(after: 2, play: key(e[2], 3)))
        #expect(saved.entry == e[0] && saved.play == key(e[0], 1) && saved.queue.current == e[0], "\(saved)")
        // The queue ended meanwhile: stopped, it names no play.
        let stopped = place.place(for: PlaybackStatus(queue: status(after: 3, play: nil).queue, entry: nil, play: nil))
        #expect(stopped.entry == e[0] && stopped.play == key(e[0], 1), "\(stopped)")
    }

    /// One entry played twice in a row (`repeat` one): the engine is on the second play while
    /// the room has recorded only the first one's start. The second play names the same entry,
    /// but it is ahead: saved, a crash would lose the first play (neither committed nor
    /// pending), so the place saved is the first play's.
    @Test func aLaterPlayOfTheSameEntryIsAhead() {
        let e = playing.playOrder
        var place = RoomPlace(queue: playing, resume: nil)
        place.started(key(e[0], 1))
        _ = place.place(for: status(after: 0, play: key(e[0], 1)))
        let saved = place.place(for: status(after: 0, play: key(e[0], 2), frame: 441))
        #expect(saved.entry == e[0] && saved.play == key(e[0], 1) && saved.frame == 4_410, "\(saved)")
    }
}
