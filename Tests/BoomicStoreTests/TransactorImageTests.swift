import BoomicSystem
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicStore

/// A codec of snapshot images: the newest checkpoint is also `library.image` beside the log,
/// which opening maps instead of copying the blob out of SQLite (storage.md, "Where it lives").
/// The file is a cache of the row: anything wrong with it, and it is made again from the row.
@Suite struct TransactorImageTests {
    /// The newest checkpoint row's seq and bytes.
    static func newestRow(_ path: String) throws -> (seq: Int, data: [UInt8]) {
        let c = try SQLiteConnection(path: path)
        let stmt = try c.statement("SELECT seq, data FROM checkpoints ORDER BY seq DESC LIMIT 1")
        defer { stmt.reset() }
        try #require(try stmt.step())
        return (stmt.int(0), stmt.bytes(1))
    }

    static func fileBytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// A library of 23 transactions with checkpoints at 5, 10, 15, 20.
    static func library(_ dir: String) throws -> (store: HeldStore, expected: HeldCounters) {
        let store = try openHeld(dir + "/library.sqlite")
        var rng = SplitMix64(seed: 37)
        for i in 0..<23 { try store.commit(rng.op(at: Double(i))) }
        return (store, store.basis)
    }

    @Test func theNewestCheckpointIsWrittenBesideTheLogAndMappedByTheNextOpen() throws {
        try withTemporaryDirectory { dir in
            let (store, expected) = try Self.library(dir)
            let image = dir + "/library.image"
            let row = try Self.newestRow(dir + "/library.sqlite")
            #expect(row.seq == 20)
            #expect(Self.fileBytes(image) == row.data, "library.image holds the newest checkpoint's bytes")
            let header = try SnapshotImage(ImageBytes(copying: row.data))
            #expect(header.seq == 20 && header.format == 7, "the header names the checkpoint's seq and format")
            #expect(store.openedFrom == .none)

            let reopened = try openHeld(dir + "/library.sqlite")
            #expect(reopened.openedFrom == .mappedImage, "the blob was copied again")
            #expect(reopened.basis == expected)
            #expect(reopened.basis.image?.bytes.mapping?.path == image)
            #expect(try reopened.basis.reread() == (try store.basis(at: 20)).counters)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".tmp") } == [])
        }
    }

    @Test func aLibraryWithoutTheFileWritesItFromTheRow() throws {
        try withTemporaryDirectory { dir in
            let (_, expected) = try Self.library(dir)
            try FileManager.default.removeItem(atPath: dir + "/library.image")
            let reopened = try openHeld(dir + "/library.sqlite")
            #expect(reopened.openedFrom == .wroteImage)
            #expect(reopened.basis == expected)
            #expect(Self.fileBytes(dir + "/library.image") == (try Self.newestRow(dir + "/library.sqlite")).data)
            #expect(try openHeld(dir + "/library.sqlite").openedFrom == .mappedImage)
        }
    }

    /// Truncated, foreign, empty, a folder, damaged inside a block, or an older checkpoint's:
    /// each is replaced from the row, and the open gives the same basis.
    @Test(arguments: ["truncated", "foreign", "empty", "folder", "flipped", "older"])
    func aWrongFileIsReplacedFromTheRow(_ wrong: String) throws {
        try withTemporaryDirectory { dir in
            let log = dir + "/library.sqlite", image = dir + "/library.image"
            let store = try openHeld(log)
            var rng = SplitMix64(seed: 41)
            for i in 0..<5 { try store.commit(rng.op(at: Double(i))) }
            let older = try #require(Self.fileBytes(image))
            for i in 5..<23 { try store.commit(rng.op(at: Double(i))) }
            let expected = store.basis
            let good = try #require(Self.fileBytes(image))
            try FileManager.default.removeItem(atPath: image)
            switch wrong {
            case "truncated": try Data(good.prefix(good.count - 9)).write(to: URL(fileURLWithPath: image))
            case "foreign": try Data((0..<good.count).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: image))
            case "empty": try Data().write(to: URL(fileURLWithPath: image))
            case "folder": try FileManager.default.createDirectory(atPath: image, withIntermediateDirectories: false)
            case "flipped":
                var bad = good
                bad[ImageLayout.headerSize + 3] ^= 0x40 // inside the block: the header still matches
                try Data(bad).write(to: URL(fileURLWithPath: image))
            default: try Data(older).write(to: URL(fileURLWithPath: image))
            }
            let reopened = try openHeld(log)
            #expect(reopened.basis == expected, "\(wrong)")
            if wrong == "folder" {
                // A folder cannot be renamed over: the row is read into memory instead.
                #expect(reopened.openedFrom == .copiedBlob)
                #expect(reopened.basis.image?.bytes.mapping == nil)
            } else {
                #expect(reopened.openedFrom == .wroteImage, "\(wrong)")
                #expect(Self.fileBytes(image) == good, "\(wrong)")
                #expect(try openHeld(log).openedFrom == .mappedImage, "\(wrong)")
            }
        }
    }

    /// A process that mapped the file keeps reading it intact when another replaces it.
    @Test func aReplacedFileLeavesAnEarlierMappingIntact() throws {
        try withTemporaryDirectory { dir in
            let log = dir + "/library.sqlite"
            let (writer, _) = try Self.library(dir)
            let reader = try openHeld(log)
            #expect(reader.openedFrom == .mappedImage)
            let mapped = reader.basis
            let before = try #require(try mapped.reread())
            var rng = SplitMix64(seed: 43)
            for i in 23..<40 { try writer.commit(rng.op(at: Double(i))) }
            #expect(try Self.newestRow(log).seq == 40)
            #expect(Self.fileBytes(dir + "/library.image") == (try Self.newestRow(log)).data, "the file was replaced")
            // The old inode, still mapped: every block checks and reads as it did.
            #expect(mapped.image?.damagedBlocks().isEmpty == true)
            #expect(try mapped.reread() == before)
            #expect(try openHeld(log).basis == writer.basis)
        }
    }

    @Test func aLibraryThatCannotBeWrittenReadsTheRowIntoMemoryAndWritesNothing() throws {
        try withTemporaryDirectory { dir in
            let (store, expected) = try Self.library(dir)
            store.close()
            try FileManager.default.removeItem(atPath: dir + "/library.image")
            let before = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
            let readOnly = try openHeld(dir + "/library.sqlite", readOnly: true)
            #expect(readOnly.openedFrom == .copiedBlob)
            #expect(readOnly.basis == expected)
            #expect(readOnly.basis.image?.bytes.mapping == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == before, "something was written")
        }
    }

    @Test func aLibraryThatCannotBeWrittenStillMapsAMatchingFile() throws {
        try withTemporaryDirectory { dir in
            let (store, expected) = try Self.library(dir)
            store.close()
            let readOnly = try openHeld(dir + "/library.sqlite", readOnly: true)
            #expect(readOnly.openedFrom == .mappedImage)
            #expect(readOnly.basis == expected)
        }
    }

    /// A writer killed between creating its temporary file and renaming it leaves
    /// `library.image.tmp-<pid>-<n>`: opening ignores it, and the next write of the image
    /// deletes it (a live process's is left alone).
    @Test func aKilledWritersTemporaryFileIsIgnoredAndCleanedUp() throws {
        try withTemporaryDirectory { dir in
            let (_, expected) = try Self.library(dir)
            let good = try #require(Self.fileBytes(dir + "/library.image"))
            // A pid no process has (past the kernel's largest), and ours.
            let dead = dir + "/library.image.tmp-2147483646-0", live = dir + "/library.image.tmp-\(getpid())-99"
            try Data(good.prefix(100)).write(to: URL(fileURLWithPath: dead))
            try Data(good.prefix(100)).write(to: URL(fileURLWithPath: live))
            let mapped = try openHeld(dir + "/library.sqlite")
            #expect(mapped.openedFrom == .mappedImage && mapped.basis == expected)
            #expect(FileManager.default.fileExists(atPath: dead), "nothing is written when the file matches")

            try FileManager.default.removeItem(atPath: dir + "/library.image")
            let rewritten = try openHeld(dir + "/library.sqlite")
            #expect(rewritten.openedFrom == .wroteImage && rewritten.basis == expected)
            #expect(!FileManager.default.fileExists(atPath: dead), "a dead writer's leftover stays")
            #expect(FileManager.default.fileExists(atPath: live), "a live writer's file was deleted")
        }
    }

    /// A damaged row falls back as before: to the checkpoint before it, and the file follows.
    @Test func aDamagedRowFallsBackToAnOlderCheckpoint() throws {
        try withTemporaryDirectory { dir in
            let (store, expected) = try Self.library(dir)
            try FileManager.default.removeItem(atPath: dir + "/library.image")
            try tamper(dir + "/library.sqlite", "UPDATE checkpoints SET checksum = 'xxh64:0000000000000000' WHERE seq = 20")
            let reopened = try openHeld(dir + "/library.sqlite")
            #expect(reopened.basis == expected)
            #expect(reopened.openedFrom == .wroteImage)
            let image = try SnapshotImage(ImageBytes(copying: try #require(Self.fileBytes(dir + "/library.image"))))
            #expect(image.seq == 15)
            _ = store
        }
    }

    /// Time travel reads older checkpoints into memory and never touches the file.
    @Test func timeTravelLeavesTheFileAlone() throws {
        try withTemporaryDirectory { dir in
            let (store, _) = try Self.library(dir)
            let good = Self.fileBytes(dir + "/library.image")
            for k in [0, 7, 12, 20, 23] {
                #expect(try store.basis(at: k) == (try store.basis(at: k, usingCheckpoints: false)), "k \(k)")
            }
            #expect(Self.fileBytes(dir + "/library.image") == good)
        }
    }

    @Test func codecsWithoutImagesWriteNoFile() throws {
        try withTemporaryDirectory { dir in
            let store = try openToy(dir + "/library.sqlite", checkpointEvery: 2)
            var rng = SplitMix64(seed: 3)
            for i in 0..<5 { try store.commit(rng.op(at: Double(i))) }
            #expect(try !store.checkpointSeqs().isEmpty)
            #expect(!FileManager.default.fileExists(atPath: dir + "/library.image"))
            #expect(try openToy(dir + "/library.sqlite", checkpointEvery: 2).openedFrom == .decoded)
        }
    }

    /// `verify`'s check: a flipped byte in a block of a checkpoint row, or of the image file, is
    /// named in one line each; rebuilding the checkpoints (`verify --repair`) or rewriting the
    /// file clears them.
    @Test func damagedBlocksOfCheckpointsAndOfTheFileAreNamed() throws {
        try withTemporaryDirectory { dir in
            let log = dir + "/library.sqlite", image = dir + "/library.image"
            let (store, _) = try Self.library(dir)
            #expect(try store.imageDamage() == [])

            // In a row: the block's byte flipped, the row's own checksum made to match.
            let c = try SQLiteConnection(path: log)
            let stmt = try c.statement("SELECT data FROM checkpoints WHERE seq = 15")
            try #require(try stmt.step())
            var row = stmt.bytes(0)
            stmt.reset()
            row[ImageLayout.headerSize + 2] ^= 0x01
            try c.statement("UPDATE checkpoints SET data = ?, checksum = ? WHERE seq = 15")
                .run(.blob(row), .text(Checksum.string(of: row)))
            c.close()
            // In the file: a block's byte flipped, the header left as it was.
            var file = try #require(Self.fileBytes(image))
            file[ImageLayout.headerSize + 5] ^= 0x80
            try Data(file).write(to: URL(fileURLWithPath: image))

            let damage = try store.imageDamage()
            #expect(damage == ["checkpoint 15: the snapshot image block counters does not match its checksum",
                               "library.image: the snapshot image block counters does not match its checksum"])
            #expect(try store.rewriteImageFile() == 20)
            #expect(try store.imageDamage() == [damage[0]])
            try store.rebuildCheckpoints()
            #expect(try store.imageDamage() == [])
            #expect(Self.fileBytes(image) == (try Self.newestRow(log)).data)
        }
    }

    @Test func aFileThatDoesNotOpenIsNamedToo() throws {
        try withTemporaryDirectory { dir in
            let (store, _) = try Self.library(dir)
            try Data([UInt8](repeating: 7, count: 100)).write(to: URL(fileURLWithPath: dir + "/library.image"))
            #expect(try store.imageDamage() == ["library.image: the snapshot image is not one (no BOOMIMG header)"])
            try store.rebuildCheckpoints()
            #expect(try store.imageDamage() == [])
        }
    }
}
