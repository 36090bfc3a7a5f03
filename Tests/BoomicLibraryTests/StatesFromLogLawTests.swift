import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// Earlier states and rollbacks read from the log equal those read the old way, on real
/// libraries with random histories (edits, tags, plays, removals, additions, rollbacks and undos,
/// checkpoints here and there): `basis(at:)` taking back the transactions after a state equals
/// the state replayed from the empty library, and so does taking them back from the checkpoint
/// after the state; a rollback's or undo's change taken back from the
/// log equals the diff of the head and the target state read from its checkpoint, with and
/// without the play fields; and a rollback prepared before another commit commits the change
/// the old way computes on the newer head. A failure names the seed; `BOOMIC_SEED=<seed>`
/// replays it.
@Suite struct StatesFromLogLawTests {
    static let client = LibrarySession.Client(command: "test", version: "0")
    static let seeds = Seeds.list(6, from: 0x57A7E)

    @Test(arguments: seeds)
    func statesAndRollbacksFromTheLogEqualTheOldWay(seed: UInt64) throws {
        try withTemporaryDirectory("boomic-states") { root in
            let lib = try LibrarySession.open(at: root + "/library", create: true, client: Self.client)
            defer { lib.close() }
            var rng = SplitMix64(seed: seed)
            var made = 0
            let songs = (0..<8).map { _ in Self.song(&rng, &made) }
            try lib.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "import") }
            var rollbacks = 0
            for step in 0..<30 {
                let r = Int.random(in: 0..<100, using: &rng)
                if r < 12, lib.head > 1 {
                    // A rollback to a random earlier state, read one way or the other at random.
                    let target = Int.random(in: 0..<lib.head, using: &rng)
                    try checkRollback(lib, to: target, seed: seed, step: step)
                    let reading: LibrarySession.StateReading = Bool.random(using: &rng) ? .fromLog : .fromCheckpoint
                    _ = try RollbackFlow(lib: lib, targetSeq: target, kind: .rollback, label: "rollback to \(target)",
                                         plays: Bool.random(using: &rng), reading: reading).commit(message: nil)
                    rollbacks += 1
                } else if r < 22 {
                    // Undo of the last one or two steps, as `boomic undo` plans it.
                    guard let plan = try lib.undoStack().undoPlan(count: Int.random(in: 1...2, using: &rng)) else { continue }
                    try checkRollback(lib, to: plan.targetSeq, seed: seed, step: step)
                    let reading: LibrarySession.StateReading = Bool.random(using: &rng) ? .fromLog : .fromCheckpoint
                    _ = try RollbackFlow(lib: lib, targetSeq: plan.targetSeq, kind: .undo, label: "undo",
                                         undoes: plan.steps.map(\.id), plays: true, reading: reading).commit(message: nil)
                } else if r < 28, lib.head > 1 {
                    // A rollback prepared from the log, then another commit, then the rollback:
                    // it commits the change the old way computes on the newer head.
                    let target = Int.random(in: 0..<lib.head, using: &rng)
                    let flow = try RollbackFlow(lib: lib, targetSeq: target, kind: .rollback, label: "rollback to \(target)",
                                                reading: .fromLog)
                    try edit(lib, &rng, &made)
                    let expected = EditGeneration.keepingPlays(
                        EditGeneration.rollback(from: lib.basis, to: try lib.transactor.basis(at: target, usingCheckpoints: false)))
                    let committed = try flow.commit(message: nil)
                    #expect((committed?.transaction.assertions ?? []) == expected,
                            "\(Seeds.replay(seed)): step \(step), rollback to \(target) prepared before a commit")
                } else {
                    try edit(lib, &rng, &made)
                }
                if Int.random(in: 0..<8, using: &rng) == 0 { try lib.transactor.checkpoint() }
            }
            #expect(lib.head >= 25 || rollbacks > 0, "\(Seeds.replay(seed)): a history of \(lib.head) transactions")
            // Every state, read from the log, is the state replayed from nothing.
            for seq in 0...lib.head {
                let replayed = try lib.transactor.basis(at: seq, usingCheckpoints: false)
                #expect(try lib.basis(at: seq, reading: .fromLog) == replayed, "\(Seeds.replay(seed)): state \(seq) from the log")
                #expect(try lib.basis(at: seq, reading: .fromNextCheckpoint) == replayed,
                        "\(Seeds.replay(seed)): state \(seq) from the checkpoint after it")
                #expect(try lib.basis(at: seq) == replayed, "\(Seeds.replay(seed)): state \(seq) read the cheaper way")
            }
        }
    }

    /// The change to `target` read from the log, and read from the checkpoint (a diff over the
    /// songs the index names), equal the old way's: the diff of the two whole states, with and
    /// without plays.
    func checkRollback(_ lib: LibrarySession, to target: Int, seed: UInt64, step: Int) throws {
        let whole = EditGeneration.rollback(from: lib.basis, to: try lib.transactor.basis(at: target, usingCheckpoints: false))
        for plays in [false, true] {
            let expected = plays ? whole : EditGeneration.keepingPlays(whole)
            let fromLog = try RollbackFlow(lib: lib, targetSeq: target, kind: .rollback, label: "r", plays: plays, reading: .fromLog)
            let fromCheckpoint = try RollbackFlow(lib: lib, targetSeq: target, kind: .rollback, label: "r", plays: plays,
                                                  reading: .fromCheckpoint)
            let what = "\(Seeds.replay(seed)): step \(step), \(lib.head) → \(target)\(plays ? " with plays" : "")"
            #expect(fromLog.preview == expected, "\(what), from the log")
            #expect(fromCheckpoint.preview == expected, "\(what), from the checkpoint")
        }
    }

    /// One random change: a modify, a tag, a play, a removal or a new song.
    func edit(_ lib: LibrarySession, _ rng: inout SplitMix64, _ made: inout Int) throws {
        let ids = lib.basis.songs.map(\.key).sorted { $0.description < $1.description }
        let some = Array(ids.shuffled(using: &rng).prefix(Int.random(in: 1...3, using: &rng)))
        switch Int.random(in: 0..<6, using: &rng) {
        case 0, 1:
            let text = ["genre=Jazz", "genre=Rock", "year=1969", "year=2001", "rating=4", "title=Other", "mood=calm", "mood=loud"]
                .randomElement(using: &rng)!
            let assignment = try FieldAssignment.parse(text, newField: true)
            try lib.commit(kind: .edit, message: nil) { b in (EditGeneration.modify(b, songs: some, set: [assignment]), "modify \(text)") }
        case 2:
            let tag = ["fav", "mood:calm", "party"].randomElement(using: &rng)!
            let add = Bool.random(using: &rng)
            try lib.commit(kind: .tag, message: nil) { b in
                (EditGeneration.tag(b, songs: some, add: add ? [tag] : [], remove: add ? [] : [tag]), "tag")
            }
        case 3:
            try lib.commit(kind: .play, message: nil) { b in
                (some.compactMap { id in
                    guard let old = b[id] else { return nil }
                    var new = old
                    new.playcount &+= 1
                    new.lastplayed = Double(1_800_000_000 + made)
                    return .updateSong(id, old.patch(to: new))
                }, "play")
            }
        case 4 where ids.count > 3:
            try lib.commit(kind: .remove, message: nil) { b in (EditGeneration.remove(b, songs: [some[0]]), "remove") }
        default:
            let song = Self.song(&rng, &made)
            try lib.commit(kind: .import, message: nil) { _ in ([.addSong(song)], "add") }
        }
    }

    /// A song whose values survive the log's JSON exactly, so the live basis is the replayed one.
    static func song(_ rng: inout SplitMix64, _ made: inout Int) -> Song {
        made += 1
        var s = Song(id: SongID(rng.uuid()), path: "/music/\(made).flac")
        s.title = "Song \(made)"
        s.artists = [["Miles", "Ella", "東京"].randomElement(using: &rng)!]
        s.album = ["Blue", "Kind", nil].randomElement(using: &rng)!
        s.genre = ["Jazz", "Rock", nil].randomElement(using: &rng)!
        s.year = [1959, 1969, nil].randomElement(using: &rng)!
        s.track = Int.random(in: 1...12, using: &rng)
        s.rating = [nil, 3, 5].randomElement(using: &rng)!
        s.playcount = Int.random(in: 0...3, using: &rng)
        s.tags = Bool.random(using: &rng) ? ["fav"] : []
        return s
    }
}
