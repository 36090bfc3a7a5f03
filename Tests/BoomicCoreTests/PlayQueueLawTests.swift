import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// The play queue against its naive reference (`QueueModel`) on random command sequences, and
/// the laws every step keeps whatever the rules say. A failure names the seed and the step;
/// `BOOMIC_SEED=<seed> swift test --skip-build --filter PlayQueueLawTests` replays it.
@Suite("Play queue laws")
struct PlayQueueLawTests {
    /// Few songs, so the same song is often queued twice as two entries.
    static let songs: [SongID] = {
        var rng = SplitMix64(seed: 0x50_4E65)
        return (0..<6).map { _ in SongID(rng.uuid()) }
    }()

    /// A command drawn for the queue as it is: mostly sensible arguments, sometimes ones that
    /// name nothing (which must change nothing).
    static func command(_ rng: inout SplitMix64, for q: PlayQueue) -> QueueCommand {
        let n = q.entries.count
        func position(_ slack: Int = 0) -> Int { Int.random(in: -1...(n + slack), using: &rng) }
        func id() -> PlayQueue.EntryID {
            if n > 0, rng.chance(0.9) { return rng.pick(q.entries).id }
            return PlayQueue.EntryID(Int.random(in: 0...q.nextID + 1, using: &rng))
        }
        func range() -> Range<Int> {
            let a = Int.random(in: 0...max(n, 0), using: &rng)
            let b = Int.random(in: a...max(a, min(n + (rng.chance(0.05) ? 1 : 0), a + 4)), using: &rng)
            return a..<b
        }
        let roll = Int.random(in: 0..<100, using: &rng)
        switch roll {
        case 0..<14:
            let count = n > 24 ? 0 : Int.random(in: 1...3, using: &rng)
            let added = (0..<count).map { _ in rng.pick(songs) }
            let place: QueueCommand.Place = rng.chance(0.4) ? .end : rng.chance(0.5) ? .next : .position(position())
            return .add(added, at: place)
        case 14..<21:
            let r = range()
            return .move(positions: r, to: Int.random(in: -1...max(0, n - r.count + 1), using: &rng))
        case 21..<25: return .swap(position(-1), position(-1))
        case 25..<31: return .remove((0..<Int.random(in: 1...2, using: &rng)).map { _ in id() })
        case 31..<35: return .removePositions(range())
        case 35: return .clear
        case 36..<39: return .shuffle(rng.chance(0.5) ? nil : range())
        case 39..<44: return .setPriority(rng.pick([0, 0, 1, 5, 255]), [id(), id()])
        case 44..<48: return .setRandom(rng.chance(0.6))
        case 48..<51: return .setRepeat(rng.pick(PlayQueue.Repeat.allCases))
        case 51..<54: return .setSingle(rng.pick(PlayQueue.Single.allCases))
        case 54..<57: return .setConsume(rng.chance(0.3))
        case 57..<63: return .play(id())
        case 63..<68: return .play(nil)
        case 68..<71: return .pause
        case 71..<73: return .stop
        case 73..<83: return .next
        case 83..<90: return .previous(elapsed: rng.pick([0, 1.5, 3, 3.01, 10]))
        default: return .finished
        }
    }

    /// The value with every version set to 0: what "changed" means.
    static func unversioned(_ q: PlayQueue) -> PlayQueue {
        var q = q
        q.version = 0
        for i in q.entries.indices { q.entries[i].version = 0 }
        return q
    }

    /// The differences between the queue and the model, in words (empty when they agree).
    static func differences(_ q: PlayQueue, _ m: QueueModel) -> [String] {
        var out: [String] = []
        let items = q.entries.map { QueueModel.Item(id: $0.id.rawValue, song: $0.song, prio: $0.priority) }
        if items != m.items { out.append("entries \(q.entries.map(\.id)) vs model \(m.ids)") }
        if q.current?.rawValue != m.current { out.append("current \(String(describing: q.current)) vs model \(String(describing: m.current))") }
        if q.state != m.state { out.append("state \(q.state) vs model \(m.state)") }
        if q.starts != m.starts { out.append("starts \(q.starts) vs model \(m.starts)") }
        if q.history.map({ $0.entry.rawValue }) != m.history.map(\.entry) || q.history.map(\.song) != m.history.map(\.song) {
            out.append("history \(q.history.map(\.entry)) vs model \(m.history.map(\.entry))")
        }
        if q.isRandom != m.random || q.playOrder.map(\.rawValue) != m.playOrder {
            out.append("play order \(q.playOrder) vs model \(m.playOrder)")
        }
        if q.repeatMode != m.repeatMode || q.single != m.single || q.consume != m.consume { out.append("modes") }
        if q.nextID != m.nextID { out.append("next id \(q.nextID) vs model \(m.nextID)") }
        return out
    }

    @Test("the queue does what the naive model does, and keeps its laws, on random command sequences")
    func againstTheModel() throws {
        var checked = (steps: 0, changes: 0, randomSteps: 0, returns: 0)
        for seed in Seeds.list(40, from: 0x9_0E0E) {
            var rng = SplitMix64(seed: seed)
            var q = PlayQueue(seed: seed)
            var model = QueueModel(seed: seed)
            var everSeen = Set<PlayQueue.EntryID>()
            for step in 0..<400 {
                let command = Self.command(&rng, for: q)
                let next = q.applying(command)
                model.apply(command)
                let at = "\(Seeds.replay(seed)), step \(step), \(command)"

                let differences = Self.differences(next, model)
                guard differences.isEmpty else {
                    Issue.record("\(at): \(differences.joined(separator: "; "))")
                    break
                }
                #expect(next.brokenInvariant == nil, "\(at): \(next.brokenInvariant ?? "")")

                // The version moves by one when the entries change and only then (MPD's
                // playlist version: not for playing or the modes); moved, added and
                // re-prioritised entries carry it (what plchanges lists).
                if Self.unversioned(next) == Self.unversioned(q) {
                    #expect(next == q, "\(at): a no-op changed the version")
                } else if Self.unversioned(next).entries == Self.unversioned(q).entries {
                    #expect(next.version == q.version && next.entries == q.entries, "\(at): the entries kept, the version moved")
                } else {
                    checked.changes += 1
                    #expect(next.version == q.version + 1, "\(at): version \(q.version) → \(next.version)")
                    let before = Dictionary(uniqueKeysWithValues: q.entries.enumerated().map { ($1.id, (position: $0, entry: $1)) })
                    let wrong = next.entries.enumerated().filter { i, e in
                        let old = before[e.id]
                        let same = old.map { $0.position == i && $0.entry.priority == e.priority } ?? false
                        return e.version != (same ? old!.entry.version : next.version)
                    }
                    #expect(wrong.isEmpty, "\(at): entries \(wrong.map(\.element.id)) carry the wrong version")
                }

                // Ids are unique, and a new entry never gets an id seen before.
                let ids = next.entries.map(\.id)
                #expect(Set(ids).count == ids.count, "\(at): an id twice")
                let old = Set(q.entries.map(\.id))
                let reused = ids.filter { !old.contains($0) && everSeen.contains($0) }
                #expect(reused.isEmpty, "\(at): ids \(reused) reused")
                everSeen.formUnion(ids)

                // History only grows.
                #expect(Array(next.history.prefix(q.history.count)) == q.history, "\(at): history lost an entry")

                // Previous (within 3 s) after next returns to the same entry, unless next
                // consumed it, ran off the end or drew a new random round.
                let skipped = q.applying(.next)
                if let c = q.current, !q.consume, let n = skipped.current, !(q.isRandom && q.playOrder.last == c) {
                    let back = skipped.applying(.previous(elapsed: rng.pick([0, 2, 3])))
                    #expect(back.current == c, "\(at): next went to \(n), previous to \(String(describing: back.current)), not \(c)")
                    checked.returns += 1
                }

                if step % 50 == 0 || step == 399 {
                    let data = try JSONEncoder().encode(next)
                    #expect(try JSONDecoder().decode(PlayQueue.self, from: data) == next, "\(at): Codable round trip")
                }
                if next.isRandom { checked.randomSteps += 1 }
                checked.steps += 1
                q = next
            }
        }
        #expect(checked.steps >= Seeds.atLeast(16_000))
        #expect(checked.changes >= Seeds.atLeast(5_000))
        #expect(checked.randomSteps >= Seeds.atLeast(2_500))
        #expect(checked.returns >= Seeds.atLeast(1_500))
    }

    @Test("random plays every entry once per round, and the seed decides the rounds")
    func randomRounds() {
        var rounds = 0
        for seed in Seeds.list(80, from: 0x0_2A4D) {
            var rng = SplitMix64(seed: seed)
            let n = 1 + Int(seed % 13)
            func run() -> [PlayQueue.EntryID] {
                var q = PlayQueue(seed: seed)
                    .applying(.add((0..<n).map { _ in Self.songs[0] }, at: .end))
                    .applying(.setRepeat(.all))
                    .applying(.setRandom(true))
                    .applying(.play(nil))
                var played = [q.current!]
                for _ in 0..<(4 * n - 1) {
                    q = q.applying(rng.chance(0.5) ? .next : .finished)
                    played.append(q.current!)
                }
                return played
            }
            let played = run()
            let all = Set(PlayQueue(seed: 0).applying(.add(Array(repeating: Self.songs[0], count: n), at: .end)).entries.map(\.id))
            for r in 0..<4 {
                let round = played[(r * n)..<((r + 1) * n)]
                #expect(Set(round) == all && round.count == n, "\(Seeds.replay(seed)): round \(r) is \(Array(round))")
                rounds += 1
            }
            rng = SplitMix64(seed: seed)
            #expect(run() == played, "\(Seeds.replay(seed)): the same seed played another order")
        }
        #expect(rounds >= Seeds.atLeast(320))
    }

    @Test("edits during a random round neither skip nor replay an entry: each one left plays exactly once")
    func editsDuringARound() {
        var rounds = 0
        for seed in Seeds.list(80, from: 0x0_2A4E) {
            var rng = SplitMix64(seed: seed)
            var q = PlayQueue(seed: seed)
                .applying(.add((0..<(3 + Int(seed % 8))).map { _ in rng.pick(Self.songs) }, at: .end))
                .applying(.setRandom(true))
                .applying(.play(nil))
            // Every entry that was current, in order: one passed by a skip while paused was not
            // heard, but the user passed it; that is not an accident.
            var round = [q.current!]
            for _ in 0..<200 where q.current != nil {
                let n = q.entries.count
                let command: QueueCommand
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<15: command = .add([rng.pick(Self.songs)], at: rng.chance(0.3) ? .next : .position(Int.random(in: 0...n, using: &rng)))
                case 15..<22: command = .remove([rng.pick(q.entries).id])
                case 22..<30: command = .setPriority(rng.pick([0, 1, 9]), [rng.pick(q.entries).id])
                case 30..<36: command = .move(positions: 0..<1, to: Int.random(in: 0..<n, using: &rng))
                case 36..<40: command = .shuffle(nil)
                case 40..<45: command = .pause
                case 45..<50: command = .play(nil)
                case 50..<70: command = .next
                default: command = .finished
                }
                let before = q.current
                q = q.applying(command)
                if let c = q.current, c != before { round.append(c) }
            }
            #expect(q.current == nil, "\(Seeds.replay(seed)): the round did not end")
            #expect(Set(round).count == round.count, "\(Seeds.replay(seed)): an entry played twice: \(round)")
            #expect(Set(q.entries.map(\.id)).isSubset(of: round), "\(Seeds.replay(seed)): skipped \(Set(q.entries.map(\.id)).subtracting(round))")
            rounds += 1
        }
        #expect(rounds >= Seeds.atLeast(80))
    }
}
