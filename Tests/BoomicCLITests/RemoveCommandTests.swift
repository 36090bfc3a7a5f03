import Foundation
import Testing

/// `boomic remove`: the library forgets songs, the files stay, and undo brings the songs back.
@Suite struct RemoveCommandTests {
    @Test func removeForgetsSongsKeepsFilesAndUndoes() throws {
        let box = try Sandbox()
        try box.importSamples()
        let before = try box.songs()
        let victims = try box.songs("album:Blue Sketches")
        #expect(victims.count == 3)
        let bytes = try victims.map { try Data(contentsOf: URL(fileURLWithPath: $0.path)) }

        try box.succeed("remove", "album:Blue Sketches", "-y", "-m", "not mine")
        #expect(try box.songs("album:Blue Sketches").isEmpty)
        #expect(try box.songs().count == before.count - 3)
        #expect(try victims.map { try Data(contentsOf: URL(fileURLWithPath: $0.path)) } == bytes, "remove touched a file")
        #expect(try box.history().first?.kind == "remove")

        try box.succeed("undo", "-y")
        #expect(try box.songs() == before, "undo must bring back the very songs, ids and all")
    }

    @Test func removeNeedsAQueryAndADryRunChangesNothing() throws {
        let box = try Sandbox()
        try box.importSamples()
        let count = try box.historyCount()
        let bare = try box.boomic("remove", "-y")
        #expect(bare.status == 64 && bare.stderr.contains("give a query"), "\(bare)")
        let dry = try box.succeed("remove", "album:Blue Sketches", "--dry-run")
        #expect(dry.stdout.contains("Dry run: 3 songs"))
        #expect(try box.historyCount() == count)
    }
}
