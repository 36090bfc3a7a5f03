import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// `blame` over the song → transactions index (each song's own touches, as stored) gives what the
/// walk over the whole log gives, on every random history: song fields, any subset of them, and
/// the user's own fields by name. A failure names the seed; `BOOMIC_SEED=<seed>` replays it.
@Suite("Blame over the song index equals blame over the log, on random histories")
struct BlameIndexLawTests {
    /// Each song's history as the index keeps it, newest first, read back from the stored form.
    static func index(_ h: History) -> [SongID: Blame.Touches] {
        var out: [SongID: Blame.Touches] = [:]
        for (i, t) in h.transactions.enumerated() {
            for (id, touches) in t.songTouches {
                out[id, default: []].insert((i + 1, SongTouch.touches(stored: SongTouch.stored(touches))!), at: 0)
            }
        }
        return out
    }

    /// Every song any transaction named, present or not.
    static func everySong(_ h: History) -> Set<SongID> {
        Set(h.transactions.flatMap { $0.assertions.compactMap(\.songID) })
    }

    /// The stored form as `SongTouch.stored` documents it, spelled plainly: an index written by
    /// an older build must compare equal, row for row, with what `verify` recomputes.
    static func documentedForm(_ touches: [SongTouch]) -> String {
        touches.map { t in
            switch t {
            case .add: "add"
            case .delete: "delete"
            case .update(let fields): (["update"] + fields.map(\.rawValue).sorted()).joined(separator: " ")
            }
        }.joined(separator: ";")
    }

    @Test("a song's touches read back as stored, in the assertions' order")
    func storedTouchesReadBack() {
        var checked = 0, several = 0
        for h in Histories.all {
            for t in h.transactions {
                for (id, touches) in t.songTouches {
                    #expect(SongTouch.touches(stored: SongTouch.stored(touches)) == touches, "seed \(h.seed) \(t.label) song \(id)")
                    #expect(SongTouch.stored(touches) == Self.documentedForm(touches), "seed \(h.seed) \(t.label) song \(id)")
                    let kinds = t.assertions.filter { $0.songID == id }.count
                    #expect(touches.count == kinds, "seed \(h.seed) \(t.label): one touch per assertion")
                    if kinds > 1 { several += 1 }
                    checked += 1
                }
            }
        }
        #expect(checked >= Seeds.atLeast(5_000), "only \(checked) touches")
        _ = several
        #expect(SongTouch.touches(stored: "update genre no_such_field") == [.update([.genre])], "a newer build's field is left out")
        let every = SongTouch.update(Set(SongField.allCases))
        #expect(SongTouch.stored([.delete, .add, every]) == Self.documentedForm([.delete, .add, every]))
        #expect(SongTouch.stored([.update([.rating, .genre])]) == "update genre rating")
        #expect(SongTouch.touches(stored: "rename") == nil && SongTouch.touches(stored: "") == nil)
    }

    @Test("blame of every song field, and of a random subset, equals the walk over the log")
    func songFieldsEqualTheWalk() {
        var checked = 0
        for h in Histories.all {
            let log = h.transactions.enumerated().reversed().map { (seq: $0.offset + 1, transaction: $0.element) }
            let ids = Self.everySong(h)
            let index = Self.index(h)
            var rng = SplitMix64(seed: h.seed ^ 0x1DE7)
            for fields in [[], rng.subset(of: SongField.allCases, max: 4)] {
                let walked = Blame.origins(of: ids, fields: fields, newestFirst: log).mapValues { $0.mapValues(\.seq) }
                let indexed = Blame.origins(of: ids, fields: fields, history: index)
                #expect(indexed == walked, "seed \(h.seed), fields \(fields.map(\.name))")
                checked += indexed.values.reduce(0) { $0 + $1.count }
            }
        }
        #expect(checked >= Seeds.atLeast(50_000), "only \(checked) song fields blamed")
    }

    @Test("blame of user fields by name equals the walk, decoding only updates of user_fields")
    func userFieldsEqualTheWalk() throws {
        var checked = 0, decoded = 0
        for h in Histories.all {
            let log = h.transactions.enumerated().reversed().map { (seq: $0.offset + 1, transaction: $0.element) }
            let ids = Self.everySong(h)
            let names = Samples.userFieldNames
            let walked = Blame.origins(of: ids, userFields: names, newestFirst: log).mapValues { $0.mapValues(\.seq) }
            let indexed = Blame.origins(of: ids, userFields: names, history: Self.index(h)) { seq, id, n, open in
                decoded += 1
                let mine = h.transactions[seq - 1].assertions.filter { $0.songID == id }
                guard case .updateSong(_, let patch) = mine[n] else {
                    Issue.record("seed \(h.seed): asked to decode seq \(seq), which does not update song \(id) there")
                    return []
                }
                #expect(patch[.userFields] != nil, "seed \(h.seed) seq \(seq): only updates of user_fields are decoded")
                return Blame.userFieldsSet(by: patch, among: open)
            }
            #expect(indexed == walked, "seed \(h.seed)")
            checked += indexed.values.reduce(0) { $0 + $1.count }
        }
        #expect(checked >= Seeds.atLeast(5_000), "only \(checked) user fields blamed")
        #expect(decoded > 0)
    }
}
