import Testing
@testable import BoomicCore

/// Identity follows the song (issue 9, item 2.16): paths are bytes, a file moved in from
/// anywhere keeps its id, a copy never takes the original's, and `--reread` finds swaps.
@Suite("Import identity")
struct ImportIdentityTests {
    typealias Scan = ImportGenerationTests.Scan

    static let nfc = "/music/caf\u{E9}.flac"
    static let nfd = "/music/cafe\u{301}.flac"

    static func scan(_ basis: DataBasis, disk: [FileFacts], roots: [String] = ["/music"], unlisted: [String] = [],
                     reread: Bool = false, ids: inout CountingIDSource,
                     elsewhere: (String, String) -> ImportGeneration.Elsewhere = { _, _ in .otherFile }) -> Scan {
        let listed = disk.map { ListedFile(path: $0.path, size: $0.size, mtime: $0.mtime) }
        let toRead = ImportGeneration.filesToRead(in: basis, listed: listed, reread: reread)
        // Keyed by the bytes themselves, not by the PathKey under test.
        let byPath = Dictionary(uniqueKeysWithValues: disk.map { (Array($0.path.utf8), $0) })
        let read = toRead.map { byPath[Array($0.path.utf8)]! }
        let plan = ImportGeneration.plan(basis: basis, roots: roots, listed: listed, read: read, unlisted: unlisted,
                                         now: 2_000, ids: &ids, elsewhere: elsewhere)
        let after = basis.applying(plan.assertions)
        _ = expectConsistent(after, "after scan")
        return Scan(basis: basis, toRead: toRead.map(\.path), assertions: plan.assertions, summary: plan.summary, after: after)
    }

    @Test("two names that differ only in normalisation are two songs, and a rescan changes nothing")
    func nfcAndNfdAreTwoPaths() {
        var ids = CountingIDSource(seed: 1)
        let one = facts(Self.nfc, size: 10, mtime: 1, fingerprint: "f1")
        let two = facts(Self.nfd, size: 20, mtime: 2, fingerprint: "f2")
        let first = Self.scan(.empty, disk: [one, two], ids: &ids)
        #expect(first.summary.added == 2)
        #expect(first.after.song(atPath: Self.nfc)?.fingerprint == "f1")
        #expect(first.after.song(atPath: Self.nfd)?.fingerprint == "f2")
        let again = Self.scan(first.after, disk: [one, two], ids: &ids)
        #expect(again.toRead.isEmpty && again.assertions.isEmpty, "the two files flip: \(again.assertions)")
    }

    @Test("a file renamed from NFC to NFD is moved, and the song's path holds the new bytes")
    func renamedToNfd() {
        var ids = CountingIDSource(seed: 2)
        let before = facts(Self.nfc, size: 10, mtime: 1, fingerprint: "f1")
        var after = before
        after.path = Self.nfd
        let first = Self.scan(.empty, disk: [before], ids: &ids).after
        let id = first.song(atPath: Self.nfc)!.id
        let scan = Self.scan(first, disk: [after], ids: &ids)
        #expect(scan.summary.moved == 1 && scan.summary.missing == 0)
        #expect(scan.after[id]?.path.sameBytes(as: Self.nfd) == true, "the song still names the old bytes")
        #expect(scan.after.song(atPath: Self.nfc) == nil)
        #expect(Self.scan(scan.after, disk: [after], ids: &ids).assertions.isEmpty)
        // The log keeps the rename: diff and flatten see bytes, not canonical equivalence.
        #expect(first.diff(to: scan.after).count == 1)
        #expect(first != scan.after)
    }

    @Test("a file moved into the scanned folder from another music folder keeps its id; a copy does not")
    func movedInFromOutsideTheRoots() {
        var ids = CountingIDSource(seed: 3)
        let old = facts("/other/a.flac", size: 10, mtime: 1, fingerprint: "fa", title: "A")
        let lib = Self.scan(.empty, disk: [old], roots: ["/other"], ids: &ids).after
        let id = lib.song(atPath: old.path)!.id
        var moved = old
        moved.path = "/music/new/a.flac"

        let move = Self.scan(lib, disk: [moved], ids: &ids) { song, file in
            #expect(song == old.path && file == moved.path)
            return .gone
        }
        #expect(move.summary.moved == 1 && move.summary.added == 0)
        #expect(move.after.song(atPath: moved.path)?.id == id && move.after.songs.count == 1)

        let copy = Self.scan(lib, disk: [moved], ids: &ids) { _, _ in .otherFile }
        #expect(copy.summary.added == 1)
        #expect(copy.after[id]?.path == old.path && copy.after[id]?.missing == false)

        let link = Self.scan(lib, disk: [moved], ids: &ids) { _, _ in .sameFile }
        #expect(link.assertions.isEmpty, "one file reached by two routes became two songs")
        #expect(link.summary.unchanged == 1)
    }

    @Test("of two songs with the same audio, a renamed file keeps the present one's id, not a missing copy's")
    func renamePrefersThePresentSong() {
        var ids = CountingIDSource(seed: 4)
        // The missing copy gets the smaller id, so that sorting by id alone would pick it.
        let lost = facts("/music/lost.flac", size: 10, mtime: 5, fingerprint: "fa")
        let kept = facts("/music/kept.flac", size: 10, mtime: 5, fingerprint: "fa")
        var lib = library([lost, kept])
        let lostID = lib.song(atPath: lost.path)!.id, keptID = lib.song(atPath: kept.path)!.id
        #expect(lostID < keptID)
        lib = Self.scan(lib, disk: [kept], ids: &ids).after
        #expect(lib[lostID]?.missing == true)
        var renamed = kept
        renamed.path = "/music/renamed.flac"
        let scan = Self.scan(lib, disk: [renamed], ids: &ids)
        #expect(scan.after.song(atPath: renamed.path)?.id == keptID)
        #expect(scan.after[lostID]?.missing == true && scan.after[keptID]?.missing == false)
    }

    @Test("songs in a folder that could not be listed are not missing")
    func unlistedFolderKeepsItsSongs() {
        var ids = CountingIDSource(seed: 5)
        let a = facts("/music/ok/a.flac", size: 1, mtime: 1, fingerprint: "fa")
        let b = facts("/music/closed/b.flac", size: 2, mtime: 2, fingerprint: "fb")
        let lib = Self.scan(.empty, disk: [a, b], ids: &ids).after
        let scan = Self.scan(lib, disk: [a], unlisted: ["/music/closed"], ids: &ids)
        #expect(scan.assertions.isEmpty)
        #expect(Self.scan(lib, disk: [a], ids: &ids).summary.missing == 1)
    }

    @Test("files swapped with equal size and mtime: unnoticed by a rescan, found by --reread")
    func rereadFindsSwaps() {
        var ids = CountingIDSource(seed: 6)
        let a = facts("/music/a.flac", size: 10, mtime: 1, fingerprint: "fa", title: "A")
        let b = facts("/music/b.flac", size: 10, mtime: 1, fingerprint: "fb", title: "B")
        let lib = Self.scan(.empty, disk: [a, b], ids: &ids).after
        let idA = lib.song(atPath: a.path)!.id, idB = lib.song(atPath: b.path)!.id
        var a2 = a, b2 = b
        a2.path = b.path
        b2.path = a.path
        #expect(Self.scan(lib, disk: [b2, a2], ids: &ids).assertions.isEmpty)
        let reread = Self.scan(lib, disk: [b2, a2], reread: true, ids: &ids)
        #expect(reread.toRead.count == 2)
        #expect(reread.summary.moved == 2)
        #expect(reread.after.song(atPath: b.path)?.id == idA && reread.after.song(atPath: a.path)?.id == idB)
        #expect(reread.after[idA]?.title == "A")
        let again = Self.scan(reread.after, disk: [b2, a2], reread: true, ids: &ids)
        #expect(again.assertions.isEmpty, "a reread of unchanged files changes nothing")
    }

    @Test("PathKey: bytes, not canonical equivalence; isUnder by whole names")
    func pathKey() {
        #expect(Self.nfc == Self.nfd, "Swift's String == (the reason PathKey exists)")
        #expect(PathKey(Self.nfc) != PathKey(Self.nfd))
        #expect(Set([PathKey(Self.nfc), PathKey(Self.nfd)]).count == 2)
        #expect(PathKey("/music/a.flac").isUnder("/music") && PathKey("/music").isUnder("/music"))
        #expect(PathKey("/music/a.flac").isUnder("/music/") && PathKey("/a").isUnder("/"))
        #expect(!PathKey("/musical/a.flac").isUnder("/music"))
        #expect(!PathKey("/music/cafe\u{301}/a.flac").isUnder("/music/caf\u{E9}"))
    }
}
