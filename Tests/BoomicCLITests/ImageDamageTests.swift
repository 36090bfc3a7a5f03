import BoomicStore
import BoomicTestSupport
import Foundation
import Testing

/// `library.image` is checked as it is read (storage.md, "The image"): a command reads only the
/// segments it needs, and one that meets a damaged segment stops with one line, having changed
/// nothing, and removes the file, which the next command rebuilds from its checkpoint row.
@Suite struct ImageDamageTests {
    @Test func aDamagedSegmentStopsTheCommandThatReadsItAndTheNextRebuildsTheImage() throws {
        let (box, _) = try VerifyExportTests.checkpointed()
        let listed = try box.listing()
        let head = try box.historyCount()
        let path = box.library + "/library.image"
        let good = try #require(FileManager.default.contents(atPath: path), "the open writes library.image from the checkpoint")
        let image = try SnapshotImage(ImageBytes(copying: good))
        let ids = try #require(image.entries.first { $0.name == "songs.ids" })
        var damaged = good
        damaged[ids.offset + ids.length / 2] ^= 0x40
        try damaged.write(to: URL(fileURLWithPath: path))

        // Which segments a read touches is SnapshotImageTests' (here every block is one segment,
        // and the open reads the songs the transactions after the checkpoint change).
        let stopped = try box.boomic("modify", "comment=never", "-y")
        expectOneLineError(stopped, "library image block songs.ids does not match its checksum")
        #expect(stopped.stderr.contains("it is removed, and the next command rebuilds it") && stopped.stderr.contains("nothing was changed"), "\(stopped)")
        #expect(!FileManager.default.fileExists(atPath: path), "the damaged file is removed")
        #expect(try box.historyCount() == head, "the modify committed nothing")

        #expect(try box.listing() == listed)
        #expect(FileManager.default.contents(atPath: path) == good, "rebuilt from the checkpoint row")
        VerifyExportTests.expectHealthy(try box.boomic("verify"))
    }
}
