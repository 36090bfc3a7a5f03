import BoomicTestSupport
import Testing
@testable import BoomicCore

/// Rescans (DESIGN §1, "Identity, rescans and play events"): unchanged files are not read,
/// changed files keep what the library owns, moved files keep their id, missing files are
/// marked, not forgotten.
@Suite("Import generation")
struct ImportGenerationTests {
    /// One scan of the files on disk, the way `boomic import` runs it.
    struct Scan {
        var basis: DataBasis
        var toRead: [String]
        var assertions: [Assertion]
        var summary: ImportGeneration.Summary
        var after: DataBasis
    }

    static func scan(_ basis: DataBasis, disk: [FileFacts], roots: [String] = ["/music"], unreadable: Set<String> = [],
                     now: Double = 2_000, ids: inout CountingIDSource) -> Scan {
        let listed = disk.map { ListedFile(path: $0.path, size: $0.size, mtime: $0.mtime) }
        let toRead = ImportGeneration.filesToRead(in: basis, listed: listed)
        let byPath = Dictionary(uniqueKeysWithValues: disk.map { ($0.path, $0) })
        let read = toRead.filter { !unreadable.contains($0.path) }.map { byPath[$0.path]! }
        let plan = ImportGeneration.plan(basis: basis, roots: roots, listed: listed, read: read, now: now, ids: &ids)
        let after = basis.applying(plan.assertions)
        expectConsistent(after, "after scan")
        return Scan(basis: basis, toRead: toRead.map(\.path), assertions: plan.assertions, summary: plan.summary, after: after)
    }

    static func summary(added: Int = 0, changed: Int = 0, moved: Int = 0, missing: Int = 0, unchanged: Int = 0) -> ImportGeneration.Summary {
        var s = ImportGeneration.Summary()
        s.added = added; s.changed = changed; s.moved = moved; s.missing = missing; s.unchanged = unchanged
        return s
    }

    static let a = facts("/music/a.flac", size: 100, mtime: 10, fingerprint: "fa", title: "So What", artists: ["Miles Davis"], album: "Kind of Blue")
    static let b = facts("/music/b.flac", size: 200, mtime: 20, fingerprint: "fb", title: "Jóga", artists: ["Björk"], album: "Homogenic")

    /// A library after a first import of `a` and `b`, then a user's rating, tag and a play.
    static func imported() -> (DataBasis, CountingIDSource) {
        var ids = CountingIDSource(seed: 7)
        let first = scan(.empty, disk: [a, b], now: 1_000, ids: &ids)
        #expect(first.summary == summary(added: 2))
        #expect(first.toRead == [a.path, b.path])
        var db = first.after
        let id = db.song(atPath: a.path)!.id
        db = db.applying(EditGeneration.modify(db, songs: [id], set: [FieldAssignment(field: .rating, value: .int(5)),
                                                                      FieldAssignment(field: .playcount, value: .int(3))]))
        db = db.applying(EditGeneration.tag(db, songs: [id], add: ["jazz"], remove: []))
        return (db, ids)
    }

    @Test("a first import adds every file with the import time and the file's tags")
    func firstImport() {
        let (db, _) = Self.imported()
        let song = db.song(atPath: Self.a.path)!
        #expect(song.added == 1_000 && song.title == "So What" && song.artists == ["Miles Davis"] && !song.missing)
        #expect(db.songs.count == 2)
    }

    @Test("a rescan with nothing changed reads no file and commits nothing")
    func unchangedIsNotRead() {
        var (db, ids) = Self.imported()
        let again = Self.scan(db, disk: [Self.a, Self.b], ids: &ids)
        #expect(again.toRead.isEmpty)
        #expect(again.assertions.isEmpty)
        #expect(again.summary == Self.summary(unchanged: 2))
        db = again.after
        #expect(db == again.basis)
    }

    @Test("a touched file is read again but, its tags unchanged, commits only the new mtime")
    func touched() {
        var (db, ids) = Self.imported()
        var touched = Self.a
        touched.mtime = 11
        let scan = Self.scan(db, disk: [touched, Self.b], ids: &ids)
        #expect(scan.toRead == [touched.path])
        let id = db.song(atPath: touched.path)!.id
        #expect(scan.assertions == [.updateSong(id, [.mtime: FieldChange(old: .int(10), new: .int(11))])])
        #expect(scan.summary == Self.summary(changed: 1, unchanged: 1))
        db = scan.after
        #expect(db[id]?.mtime == 11)
    }

    @Test("a changed file updates its tags but keeps rating, tags, play count and the date it was added")
    func changedKeepsLibraryFields() {
        let (db, start) = Self.imported()
        var ids = start
        var retagged = Self.a
        retagged.size = 101; retagged.mtime = 12; retagged.title = "So What (Take 2)"; retagged.year = 1959
        let scan = Self.scan(db, disk: [retagged, Self.b], ids: &ids)
        #expect(scan.summary == Self.summary(changed: 1, unchanged: 1))
        let before = db.song(atPath: Self.a.path)!, after = scan.after[before.id]!
        #expect(after.title == "So What (Take 2)" && after.year == 1959 && after.size == 101)
        #expect(after.rating == 5 && after.tags == ["jazz"] && after.playcount == 3 && after.added == 1_000)
        #expect(scan.after.songs.count == 2)
    }

    @Test("a moved file keeps its id, its rating and tags; nothing goes missing")
    func moved() {
        let (db, start) = Self.imported()
        var ids = start
        var moved = Self.a
        moved.path = "/music/Miles Davis/So What.flac"
        let scan = Self.scan(db, disk: [moved, Self.b], ids: &ids)
        #expect(scan.toRead == [moved.path])
        #expect(scan.summary == Self.summary(moved: 1, unchanged: 1))
        let id = db.song(atPath: Self.a.path)!.id
        #expect(scan.after.song(atPath: moved.path)?.id == id)
        #expect(scan.after.song(atPath: Self.a.path) == nil)
        #expect(scan.after[id]?.rating == 5 && scan.after[id]?.tags == ["jazz"] && scan.after[id]?.missing == false)
        #expect(scan.after.songs.count == 2)
    }

    @Test("a copy of a file (same audio, the original still there) is a new song")
    func copied() {
        let (db, start) = Self.imported()
        var ids = start
        var copy = Self.a
        copy.path = "/music/copy of a.flac"
        let scan = Self.scan(db, disk: [Self.a, copy, Self.b], ids: &ids)
        #expect(scan.summary == Self.summary(added: 1, unchanged: 2))
        #expect(scan.after.songs.count == 3)
        #expect(scan.after.song(atPath: copy.path)?.rating == nil)
    }

    @Test("a missing file is marked missing, not deleted; coming back un-marks it and keeps its id")
    func missingAndBack() {
        let (db, start) = Self.imported()
        var ids = start
        let id = db.song(atPath: Self.a.path)!.id
        let gone = Self.scan(db, disk: [Self.b], ids: &ids)
        #expect(gone.summary == Self.summary(missing: 1, unchanged: 1))
        #expect(gone.assertions == [.updateSong(id, [.missing: FieldChange(old: .bool(false), new: .bool(true))])])
        #expect(gone.after[id]?.missing == true && gone.after[id]?.rating == 5)

        let still = Self.scan(gone.after, disk: [Self.b], ids: &ids)
        #expect(still.assertions.isEmpty, "a song already missing is not marked again")

        let back = Self.scan(gone.after, disk: [Self.a, Self.b], ids: &ids)
        #expect(back.toRead == [Self.a.path], "a missing song's file is read even if size and mtime match")
        #expect(back.assertions == [.updateSong(id, [.missing: FieldChange(old: .bool(true), new: .bool(false))])])
        #expect(back.after == db)
    }

    @Test("a missing file that comes back somewhere else is recognised by its fingerprint")
    func missingThenMoved() {
        let (db, start) = Self.imported()
        var ids = start
        let id = db.song(atPath: Self.a.path)!.id
        let gone = Self.scan(db, disk: [Self.b], ids: &ids).after
        var elsewhere = Self.a
        elsewhere.path = "/music/elsewhere/a.flac"
        let back = Self.scan(gone, disk: [elsewhere, Self.b], ids: &ids)
        #expect(back.summary == Self.summary(moved: 1, unchanged: 1))
        #expect(back.after.song(atPath: elsewhere.path)?.id == id)
        #expect(back.after[id]?.missing == false)
    }

    @Test("files renamed onto each other's paths keep their ids: a chain (b→c, a→b) and a swap")
    func renameChainAndSwap() {
        let (db, start) = Self.imported()
        var ids = start
        let idA = db.song(atPath: Self.a.path)!.id, idB = db.song(atPath: Self.b.path)!.id
        var a2 = Self.a, b2 = Self.b
        a2.path = Self.b.path
        b2.path = "/music/c.flac"
        let chain = Self.scan(db, disk: [a2, b2], ids: &ids)
        #expect(chain.summary == Self.summary(moved: 2))
        #expect(chain.after.song(atPath: Self.b.path)?.id == idA)
        #expect(chain.after.song(atPath: "/music/c.flac")?.id == idB)
        #expect(chain.after[idA]?.rating == 5 && chain.after[idA]?.tags == ["jazz"] && chain.after[idB]?.rating == nil)
        #expect(chain.after.songs.count == 2 && chain.after.songs.values.allSatisfy { !$0.missing })

        var a3 = Self.a, b3 = Self.b
        a3.path = Self.b.path
        b3.path = Self.a.path
        let swap = Self.scan(db, disk: [a3, b3], ids: &ids)
        #expect(swap.summary == Self.summary(moved: 2))
        #expect(swap.after.song(atPath: Self.b.path)?.id == idA && swap.after.song(atPath: Self.a.path)?.id == idB)
        #expect(swap.after[idA]?.title == "So What" && swap.after[idA]?.rating == 5)
    }

    @Test("different audio at a song's path, with no other song owning it, is that song re-encoded")
    func reencoded() {
        let (db, start) = Self.imported()
        var ids = start
        var better = Self.a
        better.fingerprint = "fa-reencoded"
        better.size = 150
        let scan = Self.scan(db, disk: [better, Self.b], ids: &ids)
        #expect(scan.summary == Self.summary(changed: 1, unchanged: 1))
        let id = db.song(atPath: Self.a.path)!.id
        #expect(scan.after.song(atPath: Self.a.path)?.id == id)
        #expect(scan.after[id]?.fingerprint == "fa-reencoded" && scan.after[id]?.rating == 5)
    }

    @Test("a song whose path another file took, and whose audio is gone, is missing; its path lists the present song")
    func displacedAndGone() {
        let (db, start) = Self.imported()
        var ids = start
        let idA = db.song(atPath: Self.a.path)!.id, idB = db.song(atPath: Self.b.path)!.id
        var a2 = Self.a
        a2.path = Self.b.path
        let scan = Self.scan(db, disk: [a2], ids: &ids)
        #expect(scan.summary == Self.summary(moved: 1, missing: 1))
        #expect(scan.after.song(atPath: Self.b.path)?.id == idA)
        #expect(scan.after[idB]?.missing == true && scan.after[idB]?.title == "Jóga")

        let again = Self.scan(scan.after, disk: [a2], ids: &ids)
        #expect(again.toRead.isEmpty && again.assertions.isEmpty, "a rescan with nothing changed reads nothing")

        var b2 = Self.b
        b2.path = "/music/b again.flac"
        let back = Self.scan(scan.after, disk: [a2, b2], ids: &ids)
        #expect(back.summary == Self.summary(moved: 1, unchanged: 1))
        #expect(back.after.song(atPath: b2.path)?.id == idB && back.after[idB]?.missing == false)
    }

    /// Identity across rescans on the random histories (which move, swap, chain-rename, copy,
    /// delete and restore files): audio that one song owned before a scan is owned by that
    /// same song after it, whenever exactly one present song has that fingerprint afterwards.
    @Test("on random histories, a rescan keeps each file's audio under the song id it had")
    func rescansKeepIdentity() {
        func owners(_ b: DataBasis, presentOnly: Bool) -> [String: [SongID]] {
            var out: [String: [SongID]] = [:]
            for s in b.songs.values where !(presentOnly && s.missing) {
                if let f = s.fingerprint { out[f, default: []].append(s.id) }
            }
            return out
        }
        var checked = 0
        for h in Histories.all {
            for (i, t) in h.transactions.enumerated() where t.kind == .import {
                let before = owners(h.bases[i], presentOnly: false)
                for (fp, now) in owners(h.bases[i + 1], presentOnly: true) where now.count == 1 {
                    guard let was = before[fp], was.count == 1 else { continue }
                    #expect(now == was, "seed \(h.seed) seq \(i + 1): audio \(fp) went from song \(was[0]) to \(now[0])")
                    checked += 1
                }
            }
        }
        #expect(checked >= Seeds.atLeast(1_000), "only \(checked) files followed")
    }

    @Test("only songs under the scanned folders can go missing")
    func outsideRoots() {
        var ids = CountingIDSource(seed: 1)
        let other = facts("/other/c.flac", size: 1, mtime: 1, fingerprint: "fc")
        let both = Self.scan(.empty, disk: [Self.a, other], roots: ["/music", "/other"], ids: &ids).after
        let musicOnly = Self.scan(both, disk: [Self.a], roots: ["/music"], ids: &ids)
        #expect(musicOnly.assertions.isEmpty, "/other was not walked, so its songs are not missing")
        let similarName = Self.scan(both, disk: [Self.a], roots: ["/music", "/oth"], ids: &ids)
        #expect(similarName.assertions.isEmpty, "/oth is not a parent of /other/c.flac")
    }

    @Test("an unreadable file is neither added nor marked missing")
    func unreadable() {
        var (db, ids) = Self.imported()
        var changed = Self.b
        changed.mtime = 99
        let scan = Self.scan(db, disk: [Self.a, changed], unreadable: [changed.path], ids: &ids)
        #expect(scan.assertions.isEmpty)
        db = scan.after
        #expect(db.song(atPath: changed.path)?.missing == false)
    }
}
