import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// `revert` (git-revert style: take back one transaction, keep every later change) and `blame`
/// (which transaction set each value) checked on every random history: revert against undo and
/// against a field-by-field model of "keep every later change", blame against a brute-force walk
/// over the bases. A failure names the seed; `BOOMIC_SEED=<seed>` replays it.
@Suite("Revert and blame laws on random histories")
struct RevertBlameLawTests {
    /// A revert committed as a transaction of its own, so that it can be reverted in turn.
    static func committed(_ assertions: [Assertion], n: Int) -> Transaction {
        Transaction(id: uuid(0xE000 + n), parent: nil, timestamp: 0, kind: .revert, label: "revert", assertions: assertions)
    }

    /// What the transaction did to each song, from the state before it: the song then (nil when
    /// absent) and the fields it set. Several assertions on one song in one transaction are folded.
    static func effects(of t: Transaction, before: DataBasis) -> [SongID: (old: Song?, fields: Set<SongField>, added: Bool, deleted: Bool)] {
        var out: [SongID: (old: Song?, fields: Set<SongField>, added: Bool, deleted: Bool)] = [:]
        for a in t.assertions {
            guard let id = a.songID else { continue }
            var e = out[id] ?? (before[id], [], false, false)
            switch a {
            case .updateSong(_, let p): e.fields.formUnion(p.keys)
            case .addSong: e.added = true
            case .deleteSong: e.deleted = true
            case .taglist, .playlist, .eqProfile, .annotation: break
            }
            out[id] = e
        }
        return out
    }

    /// The fields whose `file_values` entry a revert of `t` may change: those it set, and those
    /// whose entry it changed. The entries of every other field belong to other transactions.
    static func fileValueKeys(before: Song, after t: Song?, fields: Set<SongField>) -> Set<SongField> {
        let old = before.fileValueMap, new = t?.fileValueMap ?? old
        return Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }.union(fields)
    }

    /// The entries a revert must keep, and a description of the first that it did not.
    static func lostFileValues(now: Song, back: Song, keys: Set<SongField>) -> String? {
        let n = now.fileValueMap, b = back.fileValueMap
        guard let f = Set(n.keys).union(b.keys).subtracting(keys).sorted().first(where: { n[$0] != b[$0] }) else { return nil }
        return "file value of \(f.name) was \(n[f].map(String.init(describing:)) ?? "none"), is \(b[f].map(String.init(describing:)) ?? "none")"
    }

    // MARK: Revert

    @Test("reverting the last transaction has no conflicts and gives the basis before it, as undo does")
    func revertOfTheLastTransactionIsItsUndo() {
        var checked = 0
        for h in Histories.all {
            for s in 1..<(h.seq + 1) {
                let t = h.transactions[s - 1]
                let context = "seed \(h.seed) seq \(s) (\(t.label))"
                for force in [false, true] {
                    let r = RevertGeneration.revert(t, on: h.bases[s], force: force)
                    #expect(r.conflicts.isEmpty, "\(context), force \(force): \(r.conflicts.prefix(3))")
                    guard expectSame(h.bases[s].applying(r.assertions), h.bases[s - 1], "\(context), force \(force)") else { break }
                }
                checked += 1
            }
        }
        #expect(checked >= Seeds.atLeast(2_000), "only \(checked) transactions reverted")
    }

    /// The model: every field the transaction set goes back to what it was before the
    /// transaction, every other field keeps its latest value, and songs the transaction did not
    /// touch do not change at all. It holds whenever the revert reports no conflict.
    @Test("a revert without conflicts takes back exactly that transaction's fields and keeps every later change")
    func revertWithoutConflictsKeepsLaterChanges() {
        var clean = 0, withLaterChanges = 0
        for h in Histories.all {
            for (i, t) in h.transactions.enumerated() {
                let context = "seed \(h.seed): revert \(i + 1) (\(t.label)) at HEAD \(h.seq)"
                let r = RevertGeneration.revert(t, on: h.head, force: false)
                let after = h.head.applying(r.assertions)
                let effects = Self.effects(of: t, before: h.bases[i])
                let changed = Set(h.head.diff(to: after).compactMap(\.songID))
                #expect(changed.isSubset(of: Set(effects.keys)), "\(context): changed songs it never touched")
                guard expectConsistent(after, context) else { break }
                guard r.conflicts.isEmpty else { continue }
                clean += 1
                var ok = true
                for (id, e) in effects {
                    let now = h.head[id], back = after[id]
                    if e.added && e.deleted { continue }
                    if e.added || e.deleted {
                        // Added: gone again (it is still as added, or there is a conflict). Deleted: back as it was.
                        let expected = e.added ? nil : (now ?? e.old)
                        ok = ok && back == expected
                        #expect(back == expected, "\(context): song \(id) added \(e.added) deleted \(e.deleted)")
                        continue
                    }
                    guard let now, let old = e.old else {
                        #expect(back == now, "\(context): song \(id), gone since, must stay gone")
                        continue
                    }
                    guard let back else { Issue.record("\(context): song \(id) disappeared"); ok = false; continue }
                    for f in SongField.allCases where f != .fileValues && f != .userFields {
                        let expected = e.fields.contains(f) ? f.value(in: old) : f.value(in: now)
                        if f.value(in: back) != expected {
                            ok = false
                            Issue.record("\(context): song \(id) \(f.name) is \(f.value(in: back)), expected \(expected)")
                        }
                    }
                    let fields = Self.userFieldsBack(before: old, after: h.bases[i + 1][id], now: now)
                    if back.userFieldMap != fields {
                        ok = false
                        Issue.record("\(context): song \(id) user fields are \(back.userFieldMap), expected \(fields)")
                    }
                    let keys = Self.fileValueKeys(before: old, after: h.bases[i + 1][id], fields: e.fields)
                    if let lost = Self.lostFileValues(now: now, back: back, keys: keys) {
                        ok = false
                        Issue.record("\(context): song \(id): \(lost)")
                    }
                    if now != h.bases[i + 1][id] { withLaterChanges += 1 }
                }
                if !ok { break }
            }
        }
        #expect(clean >= Seeds.atLeast(1_000), "only \(clean) clean reverts")
        #expect(withLaterChanges >= Seeds.atLeast(100), "only \(withLaterChanges) clean reverts of songs changed again later")
    }

    @Test("reverting a revert gives back the state before it, forced or not")
    func revertOfTheRevertRestores() {
        var checked = 0
        for h in Histories.all {
            var rng = SplitMix64(seed: h.seed ^ 0x2E7E)
            for i in h.transactions.indices.shuffled(using: &rng).prefix(6) {
                let t = h.transactions[i]
                for force in [false, true] {
                    let context = "seed \(h.seed): revert \(i + 1) (\(t.label)), force \(force), then its revert"
                    let r = RevertGeneration.revert(t, on: h.head, force: force)
                    guard !r.assertions.isEmpty else { continue }
                    let reverted = h.head.applying(r.assertions)
                    let back = RevertGeneration.revert(Self.committed(r.assertions, n: i), on: reverted, force: false)
                    #expect(back.conflicts.isEmpty, "\(context): \(back.conflicts.prefix(3))")
                    guard expectSame(reverted.applying(back.assertions), h.head, context) else { break }
                    checked += 1
                }
            }
        }
        #expect(checked >= Seeds.atLeast(500), "only \(checked) reverts reverted")
    }

    /// User fields revert one by one: each one the transaction changed goes back to its value
    /// before it, the others keep their value now.
    static func userFieldsBack(before: Song, after: Song?, now: Song) -> [String: String] {
        let was = before.userFieldMap, became = after?.userFieldMap ?? [:]
        var out = now.userFieldMap
        for name in Set(was.keys).union(became.keys) where was[name] != became[name] { out[name] = was[name] }
        return out
    }

    @Test("with force, every field the reverted transaction set is back to its old value")
    func forceRestoresEveryField() {
        var forced = 0
        for h in Histories.all {
            for (i, t) in h.transactions.enumerated() {
                let context = "seed \(h.seed): revert --force \(i + 1) (\(t.label)) at HEAD \(h.seq)"
                let r = RevertGeneration.revert(t, on: h.head, force: true)
                let after = h.head.applying(r.assertions)
                if !r.conflicts.isEmpty { forced += 1 }
                var ok = expectConsistent(after, context)
                let effects = Self.effects(of: t, before: h.bases[i])
                for (id, e) in effects where !e.added && !e.deleted {
                    guard let old = e.old, let back = after[id] else { continue }  // removed since: nothing to set
                    for f in e.fields where f != .fileValues && f != .userFields && f.value(in: back) != f.value(in: old) {
                        ok = false
                        Issue.record("\(context): song \(id) \(f.name) is \(f.value(in: back)), was \(f.value(in: old))")
                    }
                    if let now = h.head[id], back.userFieldMap != Self.userFieldsBack(before: old, after: h.bases[i + 1][id], now: now) {
                        ok = false
                        Issue.record("\(context): song \(id) user fields are \(back.userFieldMap)")
                    }
                }
                for a in t.assertions {
                    if case .addSong(let s) = a, effects[s.id]?.deleted == false {
                        #expect(after[s.id] == nil, "\(context): song \(s.id) it added is still there")
                    }
                }
                if !ok { break }
            }
        }
        #expect(forced >= Seeds.atLeast(200), "only \(forced) reverts had conflicts to force")
    }

    /// `file_values` remembers the file's value of each field the library edited, so that a
    /// rescan keeps the edit (`Song.merge`). A forced revert of one edit must not throw away what
    /// later edits of other fields recorded: a rescan would then silently undo those edits.
    @Test("revert --force keeps the file values of the fields it did not set")
    func forceKeepsOtherFieldsFileValuesInEveryHistory() {
        var checked = 0
        var lost: [String] = []
        for h in Histories.all {
            for (i, t) in h.transactions.enumerated() {
                let after = h.head.applying(RevertGeneration.revert(t, on: h.head, force: true).assertions)
                for (id, e) in Self.effects(of: t, before: h.bases[i]) where !e.added && !e.deleted {
                    guard let old = e.old, let now = h.head[id], let back = after[id] else { continue }
                    checked += 1
                    let keys = Self.fileValueKeys(before: old, after: h.bases[i + 1][id], fields: e.fields)
                    if let l = Self.lostFileValues(now: now, back: back, keys: keys) {
                        lost.append("seed \(h.seed): revert --force \(i + 1) (\(t.label)) at HEAD \(h.seq), song \(id): \(l)")
                    }
                }
            }
        }
        #expect(checked >= Seeds.atLeast(2_000), "only \(checked) songs reverted")
        #expect(lost.count == 0, "\(lost.count) of \(checked) songs, e.g.\n\(lost.prefix(3).joined(separator: "\n"))")
    }

    /// `file_values` is bookkeeping (the file's value of each field the library edited), not
    /// something a user sets; a later edit of *another* field of the song changes it too. So it
    /// must never be what a revert calls a conflict: the user would be told "file_values is now
    /// …" about a change they never made.
    @Test("a revert never reports a conflict on file_values")
    func noConflictOnFileValues() {
        var reverts = 0
        var offending: [String] = []
        for h in Histories.all {
            for (i, t) in h.transactions.enumerated() {
                let r = RevertGeneration.revert(t, on: h.head, force: false)
                reverts += 1
                if r.conflicts.contains(where: { $0.field == .fileValues }) {
                    offending.append("seed \(h.seed) revert \(i + 1) (\(t.label))")
                }
            }
        }
        #expect(offending.count == 0, "\(offending.count) of \(reverts) reverts, e.g. \(offending.prefix(3))")
    }

    // MARK: Revert examples (file_values)

    /// A library with one song whose file says genre Jazz, year 1969 and no comment.
    static func oneSong() -> (DataBasis, SongID) {
        var f = facts("/m/a.flac", title: "So Modal", year: 1969)
        f.genre = "Jazz"
        return (library([f]), songID(1))
    }

    static func edit(_ b: DataBasis, _ id: SongID, _ field: SongField, _ value: FieldValue, n: Int) -> (Transaction, DataBasis) {
        let t = transaction(n, EditGeneration.modify(b, songs: [id], set: [FieldAssignment(field: field, value: value)]))
        return (t, b.applying(t))
    }

    @Test("reverting an edit after an edit of another field: no conflict, the later edit and its file value kept")
    func revertKeepsALaterEditOfAnotherField() throws {
        let (b0, id) = Self.oneSong()
        let (t1, b1) = Self.edit(b0, id, .year, .int(1999), n: 1)
        let (_, b2) = Self.edit(b1, id, .comment, .string("later"), n: 2)
        #expect(b2[id]?.fileValueMap == [.year: .int(1969), .comment: .null], "the setup: both edits remembered")

        let r = RevertGeneration.revert(t1, on: b2, force: false)
        #expect(r.conflicts == [], "the comment edit does not conflict with reverting the year")
        let after = try #require(b2.applying(r.assertions)[id])
        #expect(after.year == 1969)
        #expect(after.comment == "later")
        #expect(after.fileValueMap == [.comment: .null], "year is the file's again; the comment is still an edit")
    }

    @Test("user fields revert one by one: a later edit of another user field is no conflict, of the same one is")
    func userFieldsRevertOneByOne() throws {
        let (b0, id) = Self.oneSong()
        func set(_ b: DataBasis, _ name: String, _ value: String?, n: Int) -> (Transaction, DataBasis) {
            let t = transaction(n, EditGeneration.modify(b, songs: [id], set: [FieldAssignment(userField: name, value: value)]))
            return (t, b.applying(t))
        }
        let (t1, b1) = set(b0, "mood", "happy", n: 1)
        let (_, b2) = set(b1, "bpm", "120", n: 2)
        let r = RevertGeneration.revert(t1, on: b2, force: false)
        #expect(r.conflicts == [], "the bpm edit does not conflict with reverting mood")
        let after = try #require(b2.applying(r.assertions)[id])
        #expect(after.userFieldMap == ["bpm": "120"])

        let (_, b3) = set(b2, "mood", "sad", n: 3)
        let left = RevertGeneration.revert(t1, on: b3, force: false)
        #expect(left.conflicts.map(\.field) == [.userFields] && left.assertions.isEmpty, "mood changed since: left alone")
        let forced = RevertGeneration.revert(t1, on: b3, force: true)
        #expect(try #require(b3.applying(forced.assertions)[id]).userFieldMap == ["bpm": "120"])
    }

    @Test("a conflicting field left alone keeps the record of the file's value")
    func conflictLeftAloneKeepsItsFileValue() throws {
        let (b0, id) = Self.oneSong()
        let (t1, b1) = Self.edit(b0, id, .genre, .string("Bebop"), n: 1)
        let (_, b2) = Self.edit(b1, id, .genre, .string("Hardbop"), n: 2)
        let r = RevertGeneration.revert(t1, on: b2, force: false)
        #expect(r.conflicts.map(\.field) == [.genre])
        let after = try #require(b2.applying(r.assertions)[id])
        #expect(after.genre == "Hardbop")
        // Without it a rescan of the file (any tag changed elsewhere) takes the file's genre
        // and silently drops the edit (Song.merge keeps only fields it has a file value for).
        #expect(after.fileValueMap == [.genre: .string("Jazz")], "the library's genre is still an edit of the file's Jazz")
        #expect(r.assertions.isEmpty, "nothing to revert: the only field conflicts")
    }

    @Test("revert --force of an edit keeps the file value of a later edit of another field")
    func forceKeepsOtherFieldsFileValues() throws {
        let (b0, id) = Self.oneSong()
        let (t1, b1) = Self.edit(b0, id, .genre, .string("Bebop"), n: 1)
        let (_, b2) = Self.edit(b1, id, .genre, .string("Hardbop"), n: 2)
        let (_, b3) = Self.edit(b2, id, .comment, .string("later"), n: 3)
        let after = try #require(b3.applying(RevertGeneration.revert(t1, on: b3, force: true).assertions)[id])
        #expect(after.genre == "Jazz")
        #expect(after.comment == "later")
        #expect(after.fileValueMap == [.comment: .null], "the comment is still an edit of the file's (empty) comment")
    }

    // MARK: Blame

    /// For each song and field: the newest seq whose transaction changed the value, or the seq
    /// that added the song (the first state, walking back, without it).
    static func bruteForceBlame(_ h: History, _ id: SongID, _ f: SongField) -> Int {
        var k = h.seq
        while k > 0 {
            guard let before = h.bases[k - 1][id] else { return k }
            if f.value(in: before) != f.value(in: h.bases[k][id]!) { return k }
            k -= 1
        }
        return 0
    }

    @Test("blame names, for every song and field, the transaction a walk over the bases finds")
    func blameAgreesWithBruteForce() {
        var checked = 0, notTheAdd = 0
        for h in Histories.all {
            let log = h.transactions.enumerated().reversed().map { (seq: $0.offset + 1, transaction: $0.element) }
            let ids = Set(h.head.songs.keys)
            let origins = Blame.origins(of: ids, fields: [], newestFirst: log)
            var rng = SplitMix64(seed: h.seed ^ 0xB1A3)
            let some = rng.subset(of: SongField.allCases, max: 4)
            let someOrigins = Blame.origins(of: ids, fields: some, newestFirst: log)
            var ok = true
            for id in ids.sorted() {
                #expect(Set(someOrigins[id].map { Array($0.keys) } ?? []) == Set(some), "seed \(h.seed) song \(id): only the fields asked")
                for f in SongField.allCases {
                    let expected = Self.bruteForceBlame(h, id, f)
                    guard expected > 0 else { Issue.record("seed \(h.seed) song \(id): in the empty library"); return }
                    let got = origins[id]?[f]
                    checked += 1
                    if got?.seq != expected || got?.transaction != h.transactions[expected - 1].id {
                        ok = false
                        Issue.record("seed \(h.seed) song \(id) \(f.name): blame says \(got.map { String($0.seq) } ?? "nothing"), the bases say \(expected) (\(h.transactions[expected - 1].label))")
                    }
                    if some.contains(f) { #expect(someOrigins[id]?[f] == got, "seed \(h.seed) song \(id) \(f.name), asked with \(some)") }
                    if case .addSong = h.transactions[expected - 1].assertions.first(where: { $0.songID == id }) {} else { notTheAdd += 1 }
                }
                if !ok { break }
            }
        }
        #expect(checked >= Seeds.atLeast(50_000), "only \(checked) song fields blamed")
        #expect(notTheAdd >= Seeds.atLeast(2_000), "only \(notTheAdd) fields set after their song was added")
    }

    @Test("blame names, for every song and user field, the transaction that set that field's value")
    func userFieldBlameAgreesWithBruteForce() {
        var checked = 0, notTheAdd = 0, notTheLastUserFieldChange = 0
        let names = Samples.userFieldNames
        for h in Histories.all {
            let log = h.transactions.enumerated().reversed().map { (seq: $0.offset + 1, transaction: $0.element) }
            let ids = Set(h.head.songs.keys)
            let origins = Blame.origins(of: ids, userFields: names, newestFirst: log)
            let anyUserField = Blame.origins(of: ids, fields: [.userFields], newestFirst: log)
            var ok = true
            for id in ids.sorted() {
                #expect(Set(origins[id].map { Array($0.keys) } ?? []) == Set(names), "seed \(h.seed) song \(id): every name asked")
                for name in names {
                    // The newest state whose value differs from the one before, or the song's add.
                    var k = h.seq
                    while k > 0, let before = h.bases[k - 1][id], before.userField(name) == h.bases[k][id]!.userField(name) { k -= 1 }
                    guard k > 0 else { Issue.record("seed \(h.seed) song \(id): in the empty library"); return }
                    let got = origins[id]?[name]
                    checked += 1
                    if got?.seq != k || got?.transaction != h.transactions[k - 1].id {
                        ok = false
                        Issue.record("seed \(h.seed) song \(id) \(name): blame says \(got.map { String($0.seq) } ?? "nothing"), the bases say \(k) (\(h.transactions[k - 1].label))")
                    }
                    if h.bases[k - 1][id] != nil { notTheAdd += 1 }
                    if anyUserField[id]?[.userFields]?.seq != k { notTheLastUserFieldChange += 1 }
                }
                if !ok { break }
            }
        }
        #expect(checked >= Seeds.atLeast(5_000), "only \(checked) user fields blamed")
        #expect(notTheAdd >= Seeds.atLeast(200), "only \(notTheAdd) user fields set after their song was added")
        #expect(notTheLastUserFieldChange >= Seeds.atLeast(200), "only \(notTheLastUserFieldChange) user fields set before the last change to another")
    }
}
