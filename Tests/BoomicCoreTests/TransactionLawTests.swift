import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// The laws of the transaction function, diff and rollback (DESIGN §1), each checked on every
/// random history. A failure names the seed; `BOOMIC_SEED=<seed> swift test --filter …` replays it.
@Suite("Transaction function laws on random histories")
struct TransactionLawTests {
    @Test("replaying a log is deterministic and every basis is consistent")
    func replayIsDeterministic() {
        for h in Histories.all {
            // `h.bases` were folded once while the history was generated; fold again and compare.
            let replayed = History.fold(h.transactions)
            for (seq, b) in replayed.enumerated() {
                guard expectSame(b, h.bases[seq], "seed \(h.seed) seq \(seq), replayed"),
                      expectConsistent(b, "seed \(h.seed) seq \(seq)") else { break }
            }
        }
    }

    @Test("generating a history from a seed is deterministic (generation functions are pure)")
    func generationIsDeterministic() {
        for h in Histories.all {
            let again = HistoryGenerator.history(seed: h.seed)
            #expect(again.transactions == h.transactions, "seed \(h.seed)")
        }
    }

    @Test("a.applying(a.diff(to: b)) == b, within a history and across histories")
    func diffTurnsOneBasisIntoTheOther() {
        let all = Histories.all
        for (n, h) in all.enumerated() {
            var rng = SplitMix64(seed: h.seed ^ 0xD1FF)
            let other = all[(n + 1) % all.count]
            var pairs: [(DataBasis, DataBasis, String)] = [(h.head, .empty, "HEAD → empty"), (.empty, h.head, "empty → HEAD")]
            for _ in 0..<2 {
                let i = Int.random(in: 0...h.seq, using: &rng), j = Int.random(in: 0...h.seq, using: &rng)
                pairs.append((h.bases[i], h.bases[j], "\(i) → \(j)"))
                let k = Int.random(in: 0...other.seq, using: &rng)
                pairs.append((h.bases[i], other.bases[k], "\(i) → \(k) of seed \(other.seed)"))
                pairs.append((other.bases[k], h.bases[i], "\(k) of seed \(other.seed) → \(i)"))
            }
            for (a, b, what) in pairs {
                let d = a.diff(to: b)
                expectSame(a.applying(d), b, "seed \(h.seed), diff \(what)")
                #expect(d.isEmpty == (a == b), "seed \(h.seed), diff \(what): empty iff equal")
                #expect(Set(d.map(\.entity)).count == d.count, "seed \(h.seed), diff \(what): one assertion per entity")
            }
        }
    }

    @Test("rolling back to k gives basis k, and the rollback commits and keeps the indexes right")
    func rollbackReturnsToEveryEarlierState() {
        for h in Histories.all {
            var rng = SplitMix64(seed: h.seed ^ 0x5011)
            let ks = Set([0, h.seq] + (0..<4).map { _ in Int.random(in: 0...h.seq, using: &rng) }).sorted()
            for k in ks {
                var branch = h
                branch.rollback(to: k)
                guard expectSame(branch.head, h.bases[k], "seed \(h.seed), rollback to \(k)"),
                      expectConsistent(branch.head, "seed \(h.seed), rollback to \(k)") else { break }
                #expect(branch.seq == h.seq + (h.head == h.bases[k] ? 0 : 1),
                        "seed \(h.seed): a rollback commits a transaction exactly when it changes something")
            }
        }
    }

    @Test("an assertion followed by its inverse changes nothing, on the basis it was generated on")
    func inverseUndoesEachAssertion() {
        for h in Histories.all {
            var rng = SplitMix64(seed: h.seed ^ 0x1A5E)
            for (i, t) in h.transactions.enumerated() where !t.assertions.isEmpty {
                let before = h.bases[i], a = rng.pick(t.assertions)
                #expect(a.inverse.inverse == a, "seed \(h.seed)")
                guard expectSame(before.applying([a]).applying([a.inverse]), before, "seed \(h.seed) seq \(i + 1): \(t.label)"),
                      // The whole transaction, inverted in reverse order, undoes it too.
                      expectSame(h.bases[i + 1].applying(t.assertions.reversed().map(\.inverse)), before,
                                 "seed \(h.seed) seq \(i + 1): inverse of \(t.label)") else { break }
            }
        }
    }

    @Test("a transaction survives a JSON round trip: equal, same effect, same bytes")
    func jsonRoundTrip() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for h in Histories.all {
            for (i, t) in h.transactions.enumerated() {
                let data = try encoder.encode(t)
                let back = try JSONDecoder().decode(Transaction.self, from: data)
                // Numbers lose their type in JSON (a whole double is written `3`), but patches are
                // normalised by field when decoded and songs decode typed, so the round trip is exact.
                // Should that ever change, the effect on the basis is what must survive.
                #expect(back == t, "seed \(h.seed) seq \(i + 1): \(String(decoding: data, as: UTF8.self).prefix(600))")
                if back != t {
                    expectSame(h.bases[i].applying(back), h.bases[i + 1], "seed \(h.seed) seq \(i + 1): decoded transaction")
                }
                #expect(try encoder.encode(back) == data, "seed \(h.seed) seq \(i + 1): encoding is stable")
            }
        }
    }

    @Test("the songs read from a transaction's body alone are the songs its assertions name")
    func touchedSongsAreTheAssertionsSongs() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var lists = 0
        for h in Histories.all {
            for (i, t) in h.transactions.enumerated() {
                let touched = try JSONDecoder().decode(TouchedSongs.self, from: try encoder.encode(t))
                #expect(touched.songs == t.assertions.compactMap(\.songID?.description), "seed \(h.seed) seq \(i + 1)")
                lists += t.assertions.filter { $0.songID == nil }.count
            }
        }
        #expect(lists > 0, "no taglist or playlist assertion among the songs' to skip")
    }

    /// A law on histories that never do anything proves nothing: check that the generator
    /// produces every kind of step the laws are meant to cover.
    @Test("the random histories cover imports, moves, renames onto other songs' paths, missing files, edits, tags, removals, plays, rollbacks, undo and redo",
          .enabled(if: Seeds.replayed == nil, "counts are over all seeds"))
    func historiesCoverEveryKindOfStep() {
        var kinds: [Transaction.Kind: Int] = [:]
        var userFieldEdits = 0, userFieldsRolledBack = 0
        var moved = 0, renamedOnto = 0, wentMissing = 0, cameBack = 0, rescanned = 0, deleted = 0, readded = 0, largest = 0
        for h in Histories.all {
            largest = max(largest, h.bases.map(\.songs.count).max()!)
            for (i, t) in h.transactions.enumerated() {
                kinds[t.kind, default: 0] += 1
                for a in t.assertions.prefix(3) {
                    switch a {
                    case .updateSong(_, let p):
                        if p[.userFields] != nil {
                            if t.kind == .edit { userFieldEdits += 1 }
                            if [.undo, .redo, .rollback].contains(t.kind) { userFieldsRolledBack += 1 }
                        }
                        if t.kind == .import, let path = p[.path]?.new.string {
                            moved += 1
                            if h.bases[i].paths[PathKey(path)] != nil { renamedOnto += 1 }
                        }
                        if p[.missing]?.new == .bool(true) { wentMissing += 1 }
                        if t.kind == .import && p[.missing]?.new == .bool(false) { cameBack += 1 }
                        if t.kind == .import && p[.path] == nil && p[.missing] == nil { rescanned += 1 }
                    case .deleteSong: deleted += 1
                    case .addSong(let s): if h.bases[i].song(atPath: s.path) == nil && i > 0 { readded += 1 }
                    case .taglist, .playlist, .eqProfile, .annotation: break
                    }
                }
            }
        }
        #expect(Histories.all.count == Seeds.count)
        for kind in [Transaction.Kind.import, .edit, .tag, .remove, .rollback, .undo, .redo, .taglist, .playlist, .play] {
            #expect(kinds[kind, default: 0] >= 100, "only \(kinds[kind, default: 0]) transactions of kind \(kind)")
        }
        // EQ profiles have two operations and a smaller share of the steps.
        #expect(kinds[.eq, default: 0] >= 50, "only \(kinds[.eq, default: 0]) transactions of kind eq")
        #expect(kinds[.star, default: 0] >= 50, "only \(kinds[.star, default: 0]) stars and ratings")
        #expect(moved >= 20, "moved files: \(moved)")
        #expect(userFieldEdits >= 50, "edits of user fields: \(userFieldEdits)")
        #expect(userFieldsRolledBack >= 20, "user fields undone or rolled back: \(userFieldsRolledBack)")
        #expect(renamedOnto >= 10, "files renamed onto another song's path: \(renamedOnto)")
        #expect(wentMissing >= 20, "missing files: \(wentMissing)")
        #expect(cameBack >= 10, "files coming back: \(cameBack)")
        #expect(rescanned >= 20, "changed files: \(rescanned)")
        #expect(deleted >= 20, "deletions: \(deleted)")
        #expect(readded >= 20, "songs added after the first step: \(readded)")
        #expect((20...60).contains(largest), "largest library: \(largest) songs")
    }
}
