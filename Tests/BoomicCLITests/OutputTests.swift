import BoomicTestSupport
import Foundation
import Testing

/// What scripts and pipes get (STYLE "CLI conventions"): no escape codes off a terminal or with
/// `NO_COLOR`, `--json` as one array with `/` unescaped, and `boomic ls | head -1` ends quietly.
@Suite struct OutputTests {
    static let escape = "\u{1B}"

    /// A library with a little of everything, so every printer has something to print.
    static func varied() throws -> Sandbox {
        let box = try Sandbox(brokenFiles: true)
        try box.importSamples()
        try box.succeed("modify", "artist:Miles", "genre=Cool", "-m", "a message", "-y")
        try box.succeed("tag", "artist:Miles", "+#jazz", "-y")
        try FileManager.default.removeItem(atPath: box.file(RescanTests.eightBit))
        _ = try box.boomic("import")
        return box
    }

    static let printing: [[String]] = [
        ["ls"], ["ls", "-a"], ["ls", "--artists"], ["ls", "-f", "$artist: $title $tags"], ["ls", "--as-of", "1"],
        ["info", "artist:Miles"], ["history"], ["show", "HEAD"], ["show", "2"],
        ["modify", "artist:Miles", "genre=Bop", "--dry-run"], ["tag", "artist:Miles", "+#x", "--dry-run"],
        ["rollback", "1", "--dry-run"], ["undo", "--dry-run"], ["ls", "yeer:1"], ["import"],
    ]

    @Test func noEscapeCodesOffATerminal() throws {
        let box = try Self.varied()
        for arguments in Self.printing {
            let run = try box.boomic(arguments)
            #expect(!run.stdout.isEmpty || !run.stderr.isEmpty, "\(run)")
            #expect(!run.stdout.contains(Self.escape) && !run.stderr.contains(Self.escape), "\(run)")
        }
    }

    /// On a terminal (`script` gives boomic a pseudo-terminal) there is colour, unless `NO_COLOR`.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func colourOnlyOnATerminalWithoutNoColor() throws {
        let box = try Self.varied()
        for arguments in [["history"], ["show", "HEAD"], ["ls"]] {
            let command = ([box.executable, "--library", box.library] + arguments).map(Self.shellQuoted).joined(separator: " ")
            let tty = try ChildProcess.run("/usr/bin/script", ["-qec", command, "/dev/null"])
            #expect(tty.succeeded, "\(tty)")
            #expect(tty.stdout.contains(Self.escape), "colour expected on a terminal: \(tty)")
            for value in ["1", "yes"] {
                let plain = try ChildProcess.run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["NO_COLOR": value])
                #expect(plain.succeeded, "\(plain)")
                #expect(!plain.stdout.contains(Self.escape), "NO_COLOR=\(value): \(plain)")
                #expect(plain.stdout.replacingOccurrences(of: "\r\n", with: "\n")
                        == tty.stdout.replacingOccurrences(of: "\r\n", with: "\n").removingEscapeCodes(),
                        "NO_COLOR changes nothing but the colour")
            }
        }
    }

    static func shellQuoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @Test(arguments: [["ls", "--json"], ["ls", "-a", "--json"], ["ls", "--artists", "--json"], ["info", "artist:Miles", "--json"],
                      ["history", "--json"], ["show", "--json", "HEAD"], ["ls", "--json", "nothing-matches-this"],
                      ["ls", "--json", "--as-of", "0"]])
    func jsonIsOneArrayWithSlashesUnescaped(_ arguments: [String]) throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("tag", "artist:Miles", "+#instruments:trumpet", "-y")
        let run = try box.succeed(arguments)

        let parsed = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8), options: [.fragmentsAllowed])
        #expect(parsed is [Any], "not one JSON array: \(run)")
        #expect(!run.stdout.contains("\\/"), "'/' must not be escaped: \(run)")
        #expect(!run.stdout.contains(Self.escape))
    }

    @Test func lsJSONPathsAreAbsoluteAndReadable() throws {
        let box = try Sandbox()
        try box.importSamples()
        let run = try box.succeed("ls", "--json", "title:Live/Dead")
        #expect(run.stdout.contains("\"path\":\"\(box.music)/Edge Case Orchestra/Strange Titles/01 Live_Dead.flac\""), "\(run)")
        #expect(run.stdout.contains("\"title\":\"Live/Dead\""), "\(run)")
        let songs = try SongRecord.decode(run.stdout)
        #expect(songs.map(\.title) == ["Live/Dead"])
        #expect(songs.allSatisfy { $0.path.hasPrefix("/") })
        // Numbers are numbers.
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(objects.first?["year"] is NSNumber && objects.first?["duration"] is NSNumber && objects.first?["track"] is NSNumber)
    }

    /// `boomic import 2>&1 | head -1`: warnings about unreadable files go to a pipe that closes
    /// early. boomic must neither crash on the closed stderr nor lose the import.
    @Test func importWarningsIntoAClosedPipeEndQuietly() throws {
        let box = try Sandbox(samples: false)
        let tree = box.root + "/music"
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        for i in 0..<1500 {
            _ = FileManager.default.createFile(atPath: tree + "/not audio \(i).mp3", contents: Data("text \(i)\n".utf8))
        }
        try FileManager.default.copyItem(atPath: Repo.samples + "/" + RescanTests.modal, toPath: tree + "/good.flac")
        let command = [box.executable, "--library", box.library, "import", tree].map(Self.shellQuoted).joined(separator: " ")
        let run = try ChildProcess.run("/bin/bash", ["-c", "\(command) 2>&1 | head -1; echo \"status ${PIPESTATUS[0]}\""])
        #expect(run.lines.first?.hasPrefix("skipped ") == true, "\(run)")
        #expect(["status 0", "status 141"].contains(run.lines.last ?? ""), "boomic import 2>&1 | head -1: \(run)")
        #expect(try box.songs().map(\.title) == ["So Modal"], "the import was lost")
    }

    /// `boomic ls | head -1`: the reader goes away early; boomic ends with status 0 (or is killed
    /// by SIGPIPE) and says nothing. The listing must be far larger than a pipe's 64 KiB buffer,
    /// or boomic would finish writing before `head` closes the pipe.
    @Test func lsIntoHeadEndsQuietly() throws {
        let box = try Sandbox(samples: false)
        let tree = box.root + "/music"
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        // Copies of a private copy (hard links would be one song).
        let sample = box.root + "/so modal.flac"
        try FileManager.default.copyItem(atPath: Repo.samples + "/" + RescanTests.modal, toPath: sample)
        for i in 0..<50 {
            let dir = tree + "/album \(i)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for j in 0..<10 { try FileManager.default.copyItem(atPath: sample, toPath: dir + "/\(j) " + String(repeating: "long name ", count: 20) + ".flac") }
        }
        let imported = try box.boomic("import", tree)
        #expect(imported.succeeded, "\(imported)")

        for arguments in [["ls", "-f", "$path"], ["ls", "--json"], ["history", "--json"], ["ls"]] {
            let command = ([box.executable, "--library", box.library] + arguments).map(Self.shellQuoted).joined(separator: " ")
            let full = try box.succeed(arguments)
            let script = "\(command) 2>\"$0\" | head -1; echo \"status ${PIPESTATUS[0]}\""
            let errors = box.root + "/stderr-\(arguments.count)"
            let run = try ChildProcess.run("/bin/bash", ["-c", script, errors])
            let status = run.lines.last ?? ""
            #expect(run.succeeded, "\(run)")
            #expect(run.lines.first == full.lines.first, "\(arguments)")
            #expect(["status 0", "status 141"].contains(status), "boomic \(arguments) ended with \(status)")
            let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "(no stderr file)"
            #expect(stderr.isEmpty, "boomic \(arguments) | head -1 printed on stderr: \(stderr)")
            if arguments == ["ls", "-f", "$path"] { #expect(full.stdout.utf8.count > 100_000, "the listing must overflow the pipe") }
        }
    }
}

extension String {
    /// The text without ANSI SGR sequences (`ESC [ … m`).
    func removingEscapeCodes() -> String {
        replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }
}
