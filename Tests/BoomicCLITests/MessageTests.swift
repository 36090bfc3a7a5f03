import Foundation
import Testing

/// What the CLI says is what happened (issue 9 items 2.8, 2.12, 2.13): unknown kinds and empty
/// paths are errors rather than silently something else, bookkeeping is not shown as an edit,
/// and untagged songs are told apart by their file names.
@Suite struct MessageTests {
    @Test func anUnknownHistoryKindIsAnErrorListingTheKinds() throws {
        let box = try Sandbox()
        try box.importSamples()
        let run = try box.boomic("history", "--kind", "NOSUCH")
        #expect(run.status == 1 && run.stdout.isEmpty && run.errorLines.count == 1, "\(run)")
        #expect(run.stderr.contains("'NOSUCH'") && run.stderr.contains("import") && run.stderr.contains("edit"), "\(run)")
        let known = try box.succeed("history", "--kind", "import")
        #expect(known.lines.count == 1, "\(known)")
    }

    /// `modify` and `undo` list what the user changed; `file_values` (what the file held before
    /// the edit, kept for `write`) is the library's own and shows only in `show --verbose`.
    @Test func bookkeepingIsNotShownAsAChange() throws {
        let box = try Sandbox()
        try box.importSamples()
        let modified = try box.succeed("modify", "path:Loose", "genre=Jazz", "-y")
        #expect(!modified.stdout.contains("file_values"), "\(modified)")
        #expect(modified.lines.filter { $0.contains("genre: ∅ → Jazz") }.count == 3, "\(modified)")
        let undone = try box.succeed("undo", "-y")
        #expect(!undone.stdout.contains("file_values"), "\(undone)")
        #expect(try box.succeed("show", "HEAD~1").stdout.contains("file_values") == false)
        #expect(try box.succeed("show", "--verbose", "HEAD~1").stdout.contains("file_values"))
    }

    /// Three untagged files named alike (`no tags at all.flac`, `.mp3`, `.wav`) list as three
    /// different lines, by file name.
    @Test func untaggedSongsListByFileName() throws {
        let box = try Sandbox()
        try box.importSamples()
        let listed = try box.succeed("ls", "path:Loose")
        #expect(listed.lines == ["no tags at all.flac", "no tags at all.mp3", "no tags at all.wav"], "\(listed)")
        let titled = try box.succeed("ls", "path:Loose", "-f", "$title")
        #expect(Set(titled.lines).count == 3, "\(titled)")
    }

    /// `--library ''` and `import ''` (an unset variable) are errors, not the default library or
    /// the current folder, and nothing is created or remembered.
    @Test func emptyPathsAreErrors() throws {
        let box = try Sandbox()
        for arguments in [["--library", "", "ls"], ["ls", "--library", ""], ["--library=", "init"]] {
            let run = try box.bare(arguments)
            #expect(run.status == 64 && run.errorLines.first?.contains("--library") == true, "\(run)")
        }
        #expect(!FileManager.default.fileExists(atPath: box.root + "/xdg/boomic"), "the default library was made")
        let run = try box.boomic("import", "")
        #expect(run.status == 1 && run.errorLines.count == 1 && run.stderr.contains("empty"), "\(run)")
        try box.succeed("init")
        let folders = try box.succeed("init").lines.filter { $0.contains("music folder") }
        #expect(folders.isEmpty, "\(folders)")
    }
}
