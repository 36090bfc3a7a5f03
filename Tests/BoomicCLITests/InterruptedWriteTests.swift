import Foundation
import Testing

/// A `write` killed between renaming files and recording them (issue 9, item 2.3): the files it
/// renamed are Boomic's own write, not a change on disk, so neither the next `write` nor the
/// `import` the skip message recommends may put the older tags over an edit made since.
///
/// The kill is deterministic: debug builds end the process (`_exit(86)`, no cleanup) the Nth
/// time it reaches a point named in `BOOMIC_TEST_EXIT_AT` (`WriteJournal.swift`).
@Suite struct InterruptedWriteTests {
    static let album = "album:Blue Sketches"
    static let names = ["01 So Modal", "02 Blue in Grey", "03 Flamenco Dusk"]

    static func files(_ box: Sandbox) -> [String] {
        names.map { box.file(WriteCommandTests.miles + $0 + ".flac") }
    }

    /// The comment each of the three files holds, as mutagen reads it (nil: none).
    static func fileComments(_ box: Sandbox) throws -> [String?] {
        let dump = try WriteCommandTests.mutagenDump(files(box))
        return files(box).map { dump[$0]?["comment"]?.first }
    }

    static func libraryComments(_ box: Sandbox) throws -> [String?] {
        try box.songs(album).sorted { $0.path < $1.path }.map(\.comment)
    }

    /// modify AAA, `write` killed at `point`, modify BBB: returns the sandbox in that state.
    static func killedWrite(at point: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Sandbox {
        let box = try Sandbox()
        try box.importSamples(sourceLocation: sourceLocation)
        try box.succeed(["modify", album, "comment=AAA", "-y"], sourceLocation: sourceLocation)
        let killed = try box.boomic(["write", "-y"], environment: ["BOOMIC_TEST_EXIT_AT": point])
        #expect(killed.status == 86 && !killed.signaled, "the test hook did not end the write: \(killed)", sourceLocation: sourceLocation)
        try box.succeed(["modify", album, "comment=BBB", "-y"], sourceLocation: sourceLocation)
        return box
    }

    /// What each kill point leaves in the files before the next command.
    static let points: [(point: String, renamed: Int)] = [("journaled:2", 1), ("renamed:2", 2), ("recorded:1", 3)]

    @Test(arguments: points.map(\.point))
    func importAfterAKilledWriteKeepsTheNewerEdit(point: String) throws {
        let box = try Self.killedWrite(at: point)
        let renamed = Self.points.first { $0.point == point }!.renamed
        let expectedFiles: [String?] = (0..<3).map { $0 < renamed ? "AAA" : nil }
        #expect(try Self.fileComments(box) == expectedFiles, "the kill came at \(point)")

        try box.succeed("import")
        #expect(try Self.libraryComments(box) == ["BBB", "BBB", "BBB"], "import put the interrupted write's tags back")
        let written = try box.succeed("write", "-y")
        #expect(written.lines.last?.hasPrefix("Wrote tags into 3 files") == true, "\(written)")
        #expect(try Self.fileComments(box) == ["BBB", "BBB", "BBB"])
        #expect(try box.succeed("import").stdout.hasPrefix("Nothing changed:"))
        #expect(!FileManager.default.fileExists(atPath: box.library + "/write-journal"))
    }

    @Test(arguments: points.map(\.point))
    func writeAfterAKilledWriteWritesTheNewerEdit(point: String) throws {
        let box = try Self.killedWrite(at: point)
        let dry = try box.succeed("write", "--dry-run")
        #expect(dry.lines.last == "Dry run: 3 files would be written.", "\(dry)")

        let written = try box.succeed("write", "-y")
        #expect(written.lines.last?.hasPrefix("Wrote tags into 3 files") == true, "\(written)")
        #expect(try Self.fileComments(box) == ["BBB", "BBB", "BBB"])
        #expect(try Self.libraryComments(box) == ["BBB", "BBB", "BBB"])
        #expect(try box.succeed("import").stdout.hasPrefix("Nothing changed:"))
        #expect(try box.succeed("write").stdout == "Every file already holds the library's tags.\n")
    }

    /// The journal vouches only for the very file Boomic renamed: one retagged by another
    /// program after the kill is a change on disk like any other.
    @Test func aFileRetaggedAfterTheKillIsAForeignChange() throws {
        let box = try Self.killedWrite(at: "renamed:2")
        try box.retag(WriteCommandTests.miles + "01 So Modal.flac", ["comment": "Foreign"])
        let write = try box.boomic("write", "-y")
        #expect(write.status == 1 && write.errorLines.first?.contains("changed on disk") == true, "\(write)")
        #expect(try Self.fileComments(box) == ["Foreign", "BBB", "BBB"])
        try box.succeed("import")
        #expect(try Self.libraryComments(box) == ["Foreign", "BBB", "BBB"])
    }
}
