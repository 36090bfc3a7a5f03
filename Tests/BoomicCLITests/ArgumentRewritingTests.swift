import Foundation
import Testing

/// `main`'s argument rewriting through the real binary (issue 9 items 2.10 and 2.16): query terms
/// never go through swift-argument-parser (whose bookkeeping is quadratic in them), errors quote
/// them as typed, and which options take a value comes from the parser's own definitions.
@Suite struct ArgumentRewritingTests {
    /// 20,000 terms: quadratic parsing took over 20 s here (performance.md has the figures); the
    /// test asserts only the result, never a time.
    @Test func twentyThousandTermsAreParsed() throws {
        let box = try Sandbox()
        try box.importSamples()
        let all = try box.songs()
        let terms = Array(repeating: "path:/", count: 19_999) + ["-genre:jazz"]
        let run = try box.boomic(["ls", "--json"] + terms)
        #expect(run.succeeded && run.stderr.isEmpty, "\(run.status) \(run.stderr.prefix(500))")
        #expect(try SongRecord.decode(run.stdout).count == all.count - 3)
    }

    /// Errors quote what the user typed: `-#`, not the `^#` the rewriting used to make of it.
    @Test(arguments: [["ls", "-#"], ["modify", "-#", "genre=x", "-y"], ["tag", "-yeer:1969", "+#x", "-y"]])
    func errorsQuoteTheTermAsTyped(_ arguments: [String]) throws {
        let box = try Sandbox()
        try box.importSamples()
        let run = try box.boomic(arguments)
        let typed = arguments[1]
        #expect(run.status == 1 && run.errorLines.count == 1, "\(run)")
        #expect(run.stderr.contains("'\(typed)'") && !run.stderr.contains("^"), "\(run)")
    }

    /// An option's value is never a query term nor rewritten, for every option the parser
    /// knows (`-o` was missing from the hand-kept list), and a value starting with `-` may follow
    /// the option after a space as after `=`.
    @Test func optionValuesStayAsTyped() throws {
        let box = try Sandbox()
        try box.importSamples()
        let exported = try box.boomic("export", "-o", "-odd:name.jsonl")
        #expect(exported.succeeded, "\(exported)")
        #expect(FileManager.default.fileExists(atPath: box.root + "/-odd:name.jsonl"))
        try box.succeed("playlist", "new", "road", "artist:Miles")
        try box.succeed("playlist", "export", "road", box.root + "/road.m3u8")
        try box.succeed("playlist", "import", box.root + "/road.m3u8", "--name", "-live: 2024")
        try box.succeed("playlist", "import", box.root + "/road.m3u8", "--name=-live: 2025")
        try box.succeed("playlist", "rename", "road", "--", "-live: 2026")
        let names = try box.succeed("playlist", "ls").lines.map { $0.components(separatedBy: "  ")[0] }
        #expect(names == ["-live: 2024", "-live: 2025", "-live: 2026"])
        // A leading positional (the playlist's name) is not a query term; the terms after it are.
        try box.succeed("playlist", "new", "mix")
        let added = try box.succeed("playlist", "add", "mix", "-artist:Miles", "--message", "-why:not")
        #expect(added.stdout.hasPrefix("Added \(try box.songs().count - 3) songs"), "\(added)")
    }
}

/// The shapes argument rewriting reads from `CommandShapes.swift` (generated, so a command runs
/// without dumping its definitions) are those of the definitions: the debug build the tests run,
/// given `BOOMIC_TEST_COMMAND_SHAPES`, checks the command it runs and stops when they differ, so
/// every command is run here with it.
@Suite struct CommandShapeTableTests {
    @Test func everyCommandsShapeIsTheOneItsDefinitionsGive() throws {
        let box = try Sandbox(samples: false)
        let dump = try box.succeed("--experimental-dump-help")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var leaves: [[String]] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            let subs = command["subcommands"] as? [[String: Any]] ?? []
            if subs.isEmpty { return leaves.append(path) }
            for sub in subs {
                let name = sub["commandName"] as? String ?? ""
                if path.isEmpty && name == "help" { continue }
                walk(sub, path + [name])
            }
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        #expect(leaves.count > 50 && leaves.contains(["playlist", "add"]), "\(leaves)")
        for path in leaves {
            let run = try box.boomic(path + ["--help"], environment: ["BOOMIC_TEST_COMMAND_SHAPES": "1"])
            #expect(run.succeeded && !run.signaled, "\(path.joined(separator: " ")): \(run)")
        }
    }
}
