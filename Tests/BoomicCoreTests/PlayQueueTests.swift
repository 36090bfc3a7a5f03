import Foundation
import Testing
@testable import BoomicCore

/// The queue's tricky cases, one example each, as the user meets them; the laws on random
/// command sequences are in `PlayQueueLawTests`.
@Suite("Play queue examples")
struct PlayQueueTests {
    static let songs: [SongID] = {
        var ids = CountingIDSource(seed: 7)
        return (0..<8).map { _ in SongID(ids.next()) }
    }()

    /// A queue of `n` songs (entries 1...n), optionally playing its first.
    static func queue(_ n: Int, playing: Bool = true, seed: UInt64 = 1) -> PlayQueue {
        let q = PlayQueue(seed: seed).applying(.add(Array(songs.prefix(n)), at: .end))
        return playing ? q.applying(.play(nil)) : q
    }

    static func id(_ n: Int) -> PlayQueue.EntryID { PlayQueue.EntryID(n) }

    /// The entries in queue order, as their ids.
    static func order(_ q: PlayQueue) -> [Int] { q.entries.map(\.id.rawValue) }

    /// The entries that play, one after the other, as the songs end.
    static func plays(_ q: PlayQueue, count: Int) -> [Int] {
        var q = q, out: [Int] = []
        for _ in 0..<count {
            guard let c = q.current, q.state == .playing else { break }
            out.append(c.rawValue)
            q = q.applying(.finished)
        }
        return out
    }

    @Test("removing the current entry plays on with what would have been next; history keeps it")
    func removeCurrent() {
        var q = Self.queue(4).applying(.next)                  // playing 2
        q = q.applying(.remove([Self.id(2)]))
        #expect(q.current == Self.id(3) && q.state == .playing)
        #expect(q.history.map(\.entry) == [Self.id(1), Self.id(2), Self.id(3)])
        #expect(Self.plays(q, count: 9) == [3, 4])

        // The last one removed, with repeat off: nothing left to play after it.
        let last = Self.queue(2).applying(.next).applying(.remove([Self.id(2)]))
        #expect(last.current == nil && last.state == .stopped && Self.order(last) == [1])
        // With repeat all: round to the start.
        let round = Self.queue(2).applying(.setRepeat(.all)).applying(.next).applying(.remove([Self.id(2)]))
        #expect(round.current == Self.id(1) && round.state == .playing)
    }

    @Test("moving the current entry: playback goes on from its new place (MPD's rule); random's order does not move")
    func moveCurrent() {
        let q = Self.queue(4).applying(.move(positions: 0..<1, to: 2)) // 2 3 1 4, playing 1
        #expect(Self.order(q) == [2, 3, 1, 4] && q.current == Self.id(1))
        #expect(Self.plays(q, count: 9) == [1, 4])

        // Moving others around it never makes an unplayed entry count as played: 4 goes before
        // the current one and is passed this time, played on the next round.
        let around = Self.queue(4).applying(.setRepeat(.all)).applying(.next) // playing 2
            .applying(.move(positions: 3..<4, to: 0))                         // 4 1 2 3
        #expect(Self.plays(around, count: 5) == [2, 3, 4, 1, 2])

        // With random on, moving changes the queue the user sees, not what plays next.
        let random = Self.queue(6, playing: false).applying(.setRandom(true)).applying(.play(nil))
        let moved = random.applying(.move(positions: 0..<3, to: 3))
        #expect(moved.playOrder == random.playOrder && moved.current == random.current)
        #expect(Self.order(moved) == [4, 5, 6, 1, 2, 3])
    }

    @Test("add next during random plays next, and the rest of the round still plays once")
    func addNextDuringRandom() {
        let q = Self.queue(5, playing: false, seed: 42).applying(.setRandom(true)).applying(.play(nil)).applying(.next)
        let added = q.applying(.add([Self.songs[7]], at: .next))
        #expect(added.upNext == Self.id(6))
        let rest = Self.plays(added, count: 20)
        #expect(rest.count == 5 && rest[1] == 6)
        #expect(Set(q.history.map(\.entry.rawValue) + rest).count == 6, "each entry once in the round")
        // In the queue it sits right after the current entry too.
        #expect(added.position(of: Self.id(6)) == added.position(of: added.current!)! + 1)
    }

    @Test("consume removes each played entry; with repeat all the queue plays once and empties, and consume beats repeat one")
    func consumeAndRepeat() {
        let q = Self.queue(3).applying(.setConsume(true)).applying(.setRepeat(.all))
        #expect(Self.plays(q, count: 10) == [1, 2, 3])
        var end = q
        for _ in 0..<3 { end = end.applying(.finished) }
        #expect(end.entries.isEmpty && end.current == nil && end.state == .stopped)
        #expect(end.history.map(\.entry.rawValue) == [1, 2, 3], "played and consumed, but not forgotten")

        // Consume turned on midway, repeat all: round the end to what is left (the entry
        // before the current one was played before consume was on, so it stays).
        let midway = Self.queue(3).applying(.next).applying(.setConsume(true)).applying(.setRepeat(.all))
        #expect(Self.plays(midway, count: 10) == [2, 3, 1])

        let one = Self.queue(3).applying(.setConsume(true)).applying(.setRepeat(.one))
        #expect(Self.plays(one, count: 10) == [1, 2, 3])
        // Without consume, repeat one plays the same entry again, from its start.
        let again = Self.queue(3).applying(.setRepeat(.one))
        #expect(Self.plays(again, count: 3) == [1, 1, 1])
        #expect(again.applying(.finished).starts == again.starts + 1)
        // A skip is not held back by repeat one.
        #expect(again.applying(.next).current == Self.id(2))
    }

    @Test("single waits paused at the next song (oneshot turns itself off), stops after the last; with repeat it repeats, oneshot too, unless consume moves on")
    func singleOneshot() {
        let q = Self.queue(3).applying(.setSingle(.oneshot)).applying(.finished)
        #expect(q.state == .paused && q.single == .off, "MPD 0.23 waits paused at the next song's start")
        #expect(q.current == Self.id(2), "play goes on with the next song")
        #expect(Self.plays(q.applying(.play(nil)), count: 9) == [2, 3])

        let on = Self.queue(3).applying(.setSingle(.on)).applying(.finished)
        #expect(on.state == .paused && on.single == .on && on.current == Self.id(2))
        #expect(Self.plays(on.applying(.play(nil)), count: 9) == [2])
        let last = Self.queue(3).applying(.setSingle(.on)).applying(.play(Self.id(3))).applying(.finished)
        #expect(last.state == .stopped, "after the last song it stops")

        let repeating = Self.queue(3).applying(.setSingle(.on)).applying(.setRepeat(.all))
        #expect(Self.plays(repeating, count: 3) == [1, 1, 1])
        let oneshot = Self.queue(3).applying(.setSingle(.oneshot)).applying(.setRepeat(.all))
        #expect(Self.plays(oneshot, count: 3) == [1, 1, 1] && oneshot.applying(.finished).single == .oneshot,
                "with repeat, MPD 0.23 never uses a oneshot up")
        let consuming = Self.queue(3).applying(.setSingle(.on)).applying(.setRepeat(.all)).applying(.setConsume(true))
        #expect(Self.plays(consuming, count: 9) == [1, 2, 3], "consume takes each away and playback moves on")
        // A skip is the user's: single does not stop it.
        #expect(Self.queue(3).applying(.setSingle(.on)).applying(.next).state == .playing)
    }

    @Test("previous goes back within 3 s and restarts the song after")
    func previous() {
        let q = Self.queue(3).applying(.next).applying(.next)   // playing 3
        #expect(q.applying(.previous(elapsed: 2.9)).current == Self.id(2))
        #expect(q.applying(.previous(elapsed: 3)).current == Self.id(2))
        let restarted = q.applying(.previous(elapsed: 3.5))
        #expect(restarted.current == Self.id(3) && restarted.starts == q.starts + 1)
        #expect(restarted.history == q.history, "a restart is not a new play")
        // At the first entry there is nothing before it: restart.
        let first = Self.queue(3)
        #expect(first.applying(.previous(elapsed: 0)).current == Self.id(1))

        // With random on, previous walks back through what this round played.
        var r = Self.queue(6, playing: false, seed: 9).applying(.setRandom(true)).applying(.play(nil))
        for _ in 0..<4 { r = r.applying(.next) }
        let played = r.history.map(\.entry)
        var back: [PlayQueue.EntryID] = [r.current!]
        for _ in 0..<4 {
            r = r.applying(.previous(elapsed: 0))
            back.append(r.current!)
        }
        #expect(back == Array(played.reversed()))
        #expect(r.history.map(\.entry) == played + back.dropFirst(), "going back is playing too: history lists it")
    }

    @Test("random changes the play order only; shuffle changes the queue, and playback follows it")
    func randomAndShuffle() {
        let q = Self.queue(8)
        let random = q.applying(.setRandom(true))
        #expect(Self.order(random) == Self.order(q))
        #expect(random.playOrder.first == q.current && Set(random.playOrder) == Set(q.entries.map(\.id)))

        let shuffled = q.applying(.shuffle(nil))
        #expect(shuffled.entries.first?.id == q.current, "the playing entry leads the shuffled queue")
        #expect(Self.order(shuffled) != Self.order(q) && Set(Self.order(shuffled)) == Set(Self.order(q)))
        #expect(shuffled.playOrder == shuffled.entries.map(\.id))
        #expect(!shuffled.isRandom)
        #expect(Self.plays(shuffled, count: 9) == Self.order(shuffled))
    }

    @Test("with random on, higher priority entries play first")
    func priority() {
        let q = Self.queue(6, playing: false).applying(.setRandom(true))
            .applying(.setPriority(10, [Self.id(5)])).applying(.setPriority(20, [Self.id(2)]))
            .applying(.play(nil))
        #expect(Array(Self.plays(q, count: 2)) == [2, 5])
    }

    @Test("random turned on while stopped: play starts the round's first, drawn at random (MPD 0.23), not the last current entry")
    func randomOnWhileStoppedPlaysAtRandom() {
        var first: Set<Int> = []
        for seed in UInt64(0)..<24 {
            // Entry 1 played, then stopped: it stays current, and plain `play` would replay it.
            let stopped = Self.queue(6, seed: seed).applying(.stop)
            #expect(stopped.current == Self.id(1))
            let random = stopped.applying(.setRandom(true))
            #expect(random.current == nil, "seed \(seed): nothing is current in the new round")
            let played = random.applying(.play(nil))
            #expect(played.current == random.playOrder.first && played.state == .playing, "seed \(seed)")
            first.insert(played.current!.rawValue)
            // Paused, the current entry leads the round and goes on.
            let paused = Self.queue(6, seed: seed).applying(.pause).applying(.setRandom(true))
            #expect(paused.current == Self.id(1) && paused.playOrder.first == Self.id(1), "seed \(seed)")
        }
        #expect(first.count > 3, "the first entry played is drawn: \(first.sorted())")
    }

    @Test("upNext is what plays when the song ends, even across a new random round, so the engine can open it early")
    func upNext() {
        var q = Self.queue(4, playing: false, seed: 3).applying(.setRandom(true)).applying(.setRepeat(.all)).applying(.play(nil))
        for _ in 0..<3 { q = q.applying(.next) }
        #expect(q.playOrder.last == q.current, "the last of the round")
        #expect(q.upNext != nil && q.upNext == q.applying(.finished).current)
        #expect(Self.queue(2).applying(.next).upNext == nil, "the end of the queue, repeat off")
        #expect(Self.queue(2).applying(.setSingle(.oneshot)).upNext == nil, "single stops after this one")
        #expect(Self.queue(2).applying(.pause).upNext == Self.id(2), "paused, it still knows")
    }

    @Test("nextInOrder is MPD's nextsong: the next entry even when single stops after this one; with single and repeat, this one")
    func nextInOrder() {
        #expect(Self.queue(3).applying(.setSingle(.oneshot)).nextInOrder == Self.id(2))
        #expect(Self.queue(3).applying(.setSingle(.on)).nextInOrder == Self.id(2))
        #expect(Self.queue(3).applying(.setSingle(.on)).applying(.setRepeat(.all)).nextInOrder == Self.id(1))
        #expect(Self.queue(3).applying(.setSingle(.on)).applying(.setRepeat(.all)).applying(.setConsume(true)).nextInOrder == Self.id(1))
        #expect(Self.queue(2).applying(.next).nextInOrder == nil, "the end of the queue, repeat off")
        #expect(Self.queue(3).nextInOrder == Self.queue(3).upNext, "without single, what plays next")
        #expect(Self.queue(3).applying(.stop).nextInOrder == Self.id(2), "stopped on the first, as MPD says")
    }

    @Test("ids are never reused; the same song queued twice is two entries")
    func ids() {
        let q = Self.queue(2).applying(.clear).applying(.add([Self.songs[0], Self.songs[0]], at: .end))
        #expect(Self.order(q) == [3, 4] && q.entries[0].song == q.entries[1].song)
    }

    @Test("plchanges: the entries added, moved or re-prioritised since a version")
    func changesSince() {
        let q = Self.queue(4, playing: false)
        let v = q.version
        let moved = q.applying(.swap(0, 3)).applying(.setPriority(3, [Self.id(2)])).applying(.setRepeat(.all))
        #expect(moved.version == v + 2, "the modes leave the version")
        #expect(moved.changes(since: v).map(\.id.rawValue) == [4, 2, 1])
        #expect(moved.changes(since: moved.version).isEmpty)
        #expect(moved.applying(.setRepeat(.all)) == moved, "a no-op leaves the version alone")
    }

    @Test("the saved form: documented keys, read back equal; a broken file is refused")
    func savedForm() throws {
        let q = Self.queue(2).applying(.next)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(q)) as! [String: Any]
        #expect(Set(json.keys) == ["format", "version", "next_id", "entries", "current", "state", "starts",
                                   "history", "repeat", "single", "consume", "random"])
        #expect(json["format"] as? Int == 1 && json["current"] as? Int == 2 && json["state"] as? String == "playing")
        let entry = (json["entries"] as! [[String: Any]])[0]
        #expect(Set(entry.keys) == ["id", "song", "priority", "version"])
        #expect(entry["song"] as? String == Self.songs[0].description)
        let random = try JSONSerialization.jsonObject(with: JSONEncoder().encode(q.applying(.setRandom(true)))) as! [String: Any]
        #expect(random["random_order"] is [Int])

        var broken = json
        broken["current"] = 99
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(PlayQueue.self, from: JSONSerialization.data(withJSONObject: broken))
        }
        var future = json
        future["format"] = 2
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(PlayQueue.self, from: JSONSerialization.data(withJSONObject: future))
        }
    }

    @Test("rangeid: the entry alone takes the new version (plchanges lists it), the order stays, and the saved form keeps the range")
    func aRangeStampsItsEntryAndIsSaved() throws {
        let q = Self.queue(3, playing: false)
        let ranged = q.applying(.setRange(PlayRange(start: 0.5, end: 1.5), Self.id(2)))
        #expect(ranged.version == q.version + 1)
        #expect(ranged.changes(since: q.version).map(\.id) == [Self.id(2)])
        #expect(Self.order(ranged) == Self.order(q))
        #expect(ranged.entry(Self.id(2))?.range == PlayRange(start: 0.5, end: 1.5))
        #expect(ranged.applying(.setRange(PlayRange(start: 0.5, end: 1.5), Self.id(2))) == ranged, "the same range changes nothing")
        #expect(ranged.applying(.setRange(nil, Self.id(9))) == ranged, "an unknown entry changes nothing")
        let back = try JSONDecoder().decode(PlayQueue.self, from: JSONEncoder().encode(ranged))
        #expect(back == ranged)
        let cleared = ranged.applying(.setRange(nil, Self.id(2)))
        #expect(cleared.entry(Self.id(2))?.range == nil && cleared.version == ranged.version + 1)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(q)) as! [String: Any]
        #expect((json["entries"] as! [[String: Any]]).allSatisfy { $0["range"] == nil }, "no range: nothing saved")
    }

    @Test("refresh: the entries of songs the library changed take the new version (plchanges lists them), nothing else moves")
    func aRefreshStampsTheSongsEntries() {
        var q = Self.queue(3, playing: true)
        q.apply(.add([Self.songs[1]], at: .end))  // entry 4: the song of entry 2 again
        let refreshed = q.applying(.refresh([Self.songs[1], Self.songs[7]]))
        #expect(refreshed.version == q.version + 1)
        #expect(refreshed.changes(since: q.version).map(\.id) == [Self.id(2), Self.id(4)])
        #expect(Self.order(refreshed) == Self.order(q) && refreshed.current == q.current && refreshed.state == q.state)
        #expect(q.applying(.refresh([Self.songs[7]])) == q, "a song not queued changes nothing")
        #expect(q.applying(.refresh([])) == q)
    }
}
