import Foundation
import Testing

/// Bad input (DESIGN §4, STYLE "Errors"): one clear line on stderr saying what and what to do,
/// nothing on stdout, exit 1 (64 for usage errors), and nothing in the log changes.
@Suite struct ErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        /// Words the one line on stderr must contain (case-insensitive).
        var mentions: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badInput: [Case] = [
        Case(arguments: ["ls", "yeer:1969"], mentions: ["yeer", "year"]),
        Case(arguments: ["ls", "yeer:1969", "--json"], mentions: ["yeer", "year"]),
        Case(arguments: ["ls", "-f", "$titel"], mentions: ["titel", "title"]),
        Case(arguments: ["ls", "year:19x9"], mentions: ["19x9"]),
        Case(arguments: ["ls", "title::["], mentions: ["regular expression"]),
        Case(arguments: ["info", "genr:jazz"], mentions: ["genr", "genre"]),
        Case(arguments: ["modify", "title:x", "year=abc", "-y"], mentions: ["abc", "year"]),
        Case(arguments: ["modify", "yeer:1969", "genre=x", "-y"], mentions: ["yeer", "year"]),
        Case(arguments: ["modify", "artist:Miles", "yeer=1970", "-y"], mentions: ["yeer", "year"]),
        Case(arguments: ["modify", "artist:Miles", "samplerate=8000", "-y"], mentions: ["samplerate"]),
        Case(arguments: ["tag", "yeer:1969", "+#x", "-y"], mentions: ["yeer", "year"]),
        Case(arguments: ["ls", "foo+"], mentions: ["foo", "sort"]),
        Case(arguments: ["ls", "yeer-"], mentions: ["yeer", "year"]),
        Case(arguments: ["ls", "year:0x7B9"], mentions: ["0x7B9"]),
        Case(arguments: ["ls", "year:nan"], mentions: ["nan"]),
        Case(arguments: ["ls", "mood:happy"], mentions: ["mood"]),
        Case(arguments: ["ls", "lastplayed:2026-13"], mentions: ["2026-13", "date"]),
        Case(arguments: ["modify", "artist:Miles", "skip_count=many", "-y"], mentions: ["many", "skipcount"]),
        Case(arguments: ["modify", "artist:Miles", "moood!", "-y"], mentions: ["moood"]),
        Case(arguments: ["show", "zzz"], mentions: ["zzz", "REF"]),
        Case(arguments: ["show", "99"], mentions: ["99"]),
        Case(arguments: ["show", "0"], mentions: ["0"]),
        Case(arguments: ["show", "HEAD~5"], mentions: ["HEAD~5"]),
        Case(arguments: ["show", "ffffffff"], mentions: ["ffffffff"]),
        Case(arguments: ["rollback", "99", "-y"], mentions: ["99"]),
        Case(arguments: ["rollback", "not-a-ref", "-y"], mentions: ["not-a-ref"]),
        Case(arguments: ["ls", "--as-of", "HEAD~9"], mentions: ["HEAD~9"]),
        Case(arguments: ["ls", "--as-of", "2026-13-45"], mentions: ["2026-13-45"]),
        Case(arguments: ["redo", "-y"], mentions: ["redo"]),
        Case(arguments: ["import", "/nonexistent/music"], mentions: ["/nonexistent/music"]),
    ]

    /// The samples imported and one song rated: built once per test process, each case runs on
    /// its own copy.
    static let rated = Result { () throws -> Sandbox in
        let box = try Sandbox.forProcess("badInput")
        try box.importSamples()
        try box.succeed("modify", "title:So Modal", "rating=3", "-y")
        return box
    }

    @Test(arguments: badInput)
    func badInputIsOneLineAndChangesNothing(_ c: Case) throws {
        let box = try Sandbox(copying: Self.rated.get())
        let listed = try box.listing()
        let history = try box.history()

        let run = try box.boomic(c.arguments)

        #expect(run.status == 1 && !run.signaled, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.errorLines.count == 1, "one line on stderr: \(run)")
        for word in c.mentions {
            #expect(run.stderr.localizedCaseInsensitiveContains(word), "stderr should mention '\(word)': \(run)")
        }
        #expect(try box.history() == history)
        #expect(try box.listing() == listed)
    }

    /// A mistyped folder is refused, not remembered: a later plain `boomic import` (a rescan of
    /// the remembered folders) must not fail on it for ever.
    @Test func mistypedImportFolderIsNotRemembered() throws {
        let box = try Sandbox()
        try box.importSamples()
        let bad = try box.boomic("import", box.root + "/no-such-folder")
        #expect(bad.status == 1 && bad.errorLines.count == 1, "\(bad)")
        let rescan = try box.boomic("import")
        #expect(rescan.succeeded && rescan.stderr.isEmpty, "\(rescan)")
        #expect(rescan.stdout.hasPrefix("Nothing changed:"), "\(rescan)")
        #expect(try box.historyCount() == 1)
    }

    @Test func undoWithNothingToUndoSaysSo() throws {
        let box = try Sandbox(samples: false)
        try box.succeed("init")
        let run = try box.boomic("undo", "-y")
        #expect(run.status == 1 && run.stdout.isEmpty && run.errorLines == ["Error: nothing to undo"], "\(run)")
        #expect(try box.historyCount() == 0)
    }

    /// Without `--library`, `$BOOMIC_LIBRARY` or a library in `$XDG_DATA_HOME/boomic`, read
    /// commands say where they looked and what to do, and create nothing.
    @Test(arguments: [["ls"], ["ls", "--json"], ["history"], ["info", "x"], ["show", "HEAD"], ["undo", "-y"],
                      ["modify", "genre=x", "-y"], ["import"]])
    func noLibraryIsAClearError(_ arguments: [String]) throws {
        let box = try Sandbox(samples: false)
        let run = try box.bare(arguments)
        #expect(run.status == 1 && !run.signaled, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.errorLines.count == 1, "\(run)")
        if arguments == ["import"] {
            // import creates the library, but has no folder to scan.
            #expect(run.stderr.contains("boomic import DIR"), "\(run)")
        } else {
            #expect(run.stderr.contains("no library at \(box.root)/xdg/boomic"), "\(run)")
            #expect(run.stderr.contains("boomic init"), "\(run)")
            #expect(!FileManager.default.fileExists(atPath: box.root + "/xdg/boomic"), "a read must not create a library")
        }
    }

    /// Usage errors exit 64 with the usage of the command that was misused.
    @Test(arguments: [
        (["ls", "--albums", "--artists"], "boomic ls"),
        (["modify", "artist:Miles", "-y"], "boomic modify"),
        (["tag", "artist:Miles", "-y"], "boomic tag"),
        // A comma separates alternatives in a query: a tag named with one could not be found.
        (["tag", "artist:Miles", "+#rock,pop", "-y"], "boomic tag"),
        (["history", "-n", "-3"], "boomic history"),
        (["undo", "0"], "boomic undo"),
        (["ls", "--no-such-option"], "boomic ls"),
        (["frobnicate"], "boomic"),
    ])
    func usageErrorsExit64(_ arguments: [String], usage: String) throws {
        let box = try Sandbox()
        try box.importSamples()
        let history = try box.history()
        let run = try box.boomic(arguments)
        #expect(run.status == 64 && !run.signaled, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.errorLines.first?.hasPrefix("Error: ") == true, "\(run)")
        #expect(run.errorLines.contains { $0.hasPrefix("Usage: \(usage) ") || $0 == "Usage: \(usage)" }, "the usage of '\(usage)': \(run)")
        #expect(try box.history() == history)
    }
}
