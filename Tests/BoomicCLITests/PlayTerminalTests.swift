import BoomicTestSupport
import Foundation
import Testing

/// `boomic play` on a real terminal, driven through tmux as a user's keys would: the status line
/// follows pause and next, and q quits with exit 0 and the state saved.
@Suite(.serialized) struct PlayTerminalTests {
    @Test(.enabled(if: TmuxSession.available, "tmux is installed by scripts/setup"))
    func keysDriveThePlayer() throws {
        let box = try Sandbox(samples: false)
        _ = try PlayCommandTests.toneAlbum(box, seconds: 9)
        let exitFile = box.root + "/exit"
        let command = "XDG_DATA_HOME='\(box.root)/xdg' '\(box.executable)' --library '\(box.library)' play --output null --realtime; echo $? > '\(exitFile)'; sleep 60"
        let session = try TmuxSession(command)
        defer { session.kill() }

        let playing = try session.waitForScreen { $0.contains("▶ Tone Band - One Tone - Part 1") && $0.contains("vol 100") }
        #expect(playing != nil, "no status line: \((try? session.screen()) ?? "")")
        try session.send(" ")
        #expect(try session.waitForScreen { $0.contains("⏸") } != nil, "space did not pause: \((try? session.screen()) ?? "")")
        try session.send("n")
        #expect(try session.waitForScreen { $0.contains("Part 2") && $0.contains("⏸") } != nil,
                "n did not move on while paused: \((try? session.screen()) ?? "")")
        try session.send(" ", "r")
        #expect(try session.waitForScreen { $0.contains("repeat all") && $0.contains("▶ 0:") } != nil,
                "space did not resume or r did not set repeat: \((try? session.screen()) ?? "")")
        try session.send("-", "e")
        #expect(try session.waitForScreen { $0.contains("vol 95") && $0.contains("EQ flat") } != nil,
                "- did not lower the volume or e did not choose the first preset: \((try? session.screen()) ?? "")")
        try session.send("q")
        // The shell creates the file, then writes the status: wait for the status, not the file
        // (read in between, it was empty, and a loaded CI run once failed on that).
        func written() -> String? {
            (try? String(contentsOfFile: exitFile, encoding: .utf8)).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        try waitUntil("the shell to write boomic play's exit status") { !(written() ?? "").isEmpty }
        let code = written()
        #expect(code == "0", "q: exit \(code ?? "none")")
        #expect(FileManager.default.fileExists(atPath: box.library + "/player/state.json"))
    }
}
