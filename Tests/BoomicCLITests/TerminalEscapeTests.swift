import Foundation
import Testing

/// Escape sequences in tags and file names reach a terminal harmless (issue 9 item 2.11): on a
/// TTY, control characters are printed as visible escapes; through a pipe and in `--json` every
/// byte stays as it is.
@Suite struct TerminalEscapeTests {
    /// Runs the command under a pseudo-terminal (python's pty module) and returns what the
    /// terminal received. `NO_COLOR`, so that any ESC in the output came from the data.
    static func onTerminal(_ box: Sandbox, _ arguments: [String]) throws -> ProcessRun {
        let script = """
            import os, pty, sys
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            out = b""
            while True:
                try:
                    d = os.read(fd, 65536)
                except OSError:
                    break
                if not d:
                    break
                out += d
            _, status = os.waitpid(pid, 0)
            sys.stdout.buffer.write(out)
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        return try ChildProcess.run(systemPython, ["-c", script, box.executable, "--library", box.library] + arguments,
                                    environment: ["NO_COLOR": "1", "XDG_DATA_HOME": box.root + "/xdg"])
    }

    static let title = "\u{1B}[31mred\u{1B}]0;owned\u{07}"
    static let fileName = "evil\u{1B}[2J.wav"

    /// A title that recolours and retitles the terminal, and a file name that clears it.
    static func library() throws -> Sandbox {
        let box = try Sandbox()
        try FileManager.default.copyItem(atPath: box.file("Loose Files/no tags at all.wav"), toPath: box.file(fileName))
        try box.importSamples()
        try box.succeed("modify", "path:" + box.file("Loose Files/no tags at all.mp3"), "title=" + title, "-y")
        return box
    }

    @Test func aTerminalSeesNoEscapeFromTheData() throws {
        let box = try Self.library()
        for arguments in [["ls"], ["ls", "-f", "$title $path"], ["info", "path:evil", ",", "title:red"],
                          ["history"], ["show", "HEAD"], ["remove", "path:evil", "--dry-run"]] {
            let run = try Self.onTerminal(box, arguments)
            #expect(run.succeeded, "\(run)")
            #expect(!run.stdout.contains("\u{1B}") && !run.stdout.contains("\u{07}"), "\(arguments): raw escape on the terminal: \(run.stdout.debugDescription)")
        }
        // Errors quote terms and names too (stderr is the same terminal here).
        let error = try Self.onTerminal(box, ["info", "title:=\u{1B}[2Jnothing"])
        #expect(error.status == 1 && error.stdout.contains(#"\e[2Jnothing"#), "\(error)")
        #expect(!error.stdout.contains("\u{1B}"), "\(error.stdout.debugDescription)")
        let listed = try Self.onTerminal(box, ["ls"]).stdout
        #expect(listed.contains(#"\e[31mred\e]0;owned\x07"#), "\(listed.debugDescription)")
        #expect(listed.contains(#"evil\e[2J.wav"#), "\(listed.debugDescription)")
    }

    /// Piped, and in `--json`, the data stays byte for byte.
    @Test func pipesAndJSONKeepEveryByte() throws {
        let box = try Self.library()
        let listed = try box.succeed("ls")
        #expect(listed.lines.contains(Self.title), "\(listed.stdout.debugDescription)")
        #expect(listed.lines.contains(Self.fileName), "\(listed.stdout.debugDescription)")
        let json = try Self.onTerminal(box, ["ls", "--json", "title:red"])
        let songs = try SongRecord.decode(json.stdout.replacingOccurrences(of: "\r\n", with: "\n"))
        #expect(songs.map(\.title) == [Self.title])
    }

    /// A line on stderr escapes the data's control characters through a pipe too (issue 33, 13:
    /// error lines printed raw NUL bytes from damaged data): stdout keeps every byte, stderr's
    /// one line stays one printable line.
    @Test func errorLinesEscapeControlCharactersEverywhere() throws {
        let box = try Self.library()
        let error = try box.boomic("info", "title:=\u{1B}[2J\u{07}nothing")
        #expect(error.status == 1 && error.errorLines.count == 1 && error.stderr.contains(#"\e[2J\x07nothing"#), "\(error)")
        #expect(!error.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(error.stderr.debugDescription)")
        // A body damaged to NUL bytes: verify quotes the stored checksum in its problem line.
        _ = try box.sqlite("db.execute(\"UPDATE log SET checksum = 'xxh64:' || char(0, 27, 0) WHERE seq = 1\"); db.commit()")
        let verify = try box.boomic("verify")
        #expect(verify.status == 1 && verify.stderr.contains(#"\x00\e\x00"#), "\(verify)")
        #expect(!verify.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(verify.stderr.debugDescription)")
    }
}
