import BoomicTestSupport
import Foundation
import Testing

/// `boomic play` on a real terminal, driven through tmux as a user's keys would: the status line
/// follows pause and next, and q quits with exit 0 and the state saved.
@Suite(.serialized) struct PlayTerminalTests {
    static let tmuxAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")

    @Test(.enabled(if: tmuxAvailable, "tmux is installed by scripts/setup"))
    func keysDriveThePlayer() throws {
        let box = try Sandbox(samples: false)
        _ = try PlayCommandTests.toneAlbum(box, seconds: 9)
        let session = "boomic-\(getpid())-\(UUID().uuidString.prefix(6))"
        let exitFile = box.root + "/exit"
        let command = "XDG_DATA_HOME='\(box.root)/xdg' '\(box.executable)' --library '\(box.library)' play --output null --realtime; echo $? > '\(exitFile)'; sleep 60"
        try startSession(session, command)
        defer { _ = try? tmux(["kill-session", "-t", session]) }

        let playing = try waitForScreen(session) { $0.contains("▶ Tone Band - One Tone - Part 1") && $0.contains("vol 100") }
        #expect(playing != nil, "no status line: \((try? screen(session)) ?? "")")
        try tmux(["send-keys", "-t", session, " "])
        #expect(try waitForScreen(session) { $0.contains("⏸") } != nil, "space did not pause: \((try? screen(session)) ?? "")")
        try tmux(["send-keys", "-t", session, "n"])
        #expect(try waitForScreen(session) { $0.contains("Part 2") && $0.contains("⏸") } != nil,
                "n did not move on while paused: \((try? screen(session)) ?? "")")
        try tmux(["send-keys", "-t", session, " ", "r"])
        #expect(try waitForScreen(session) { $0.contains("repeat all") && $0.contains("▶ 0:") } != nil,
                "space did not resume or r did not set repeat: \((try? screen(session)) ?? "")")
        try tmux(["send-keys", "-t", session, "-", "e"])
        #expect(try waitForScreen(session) { $0.contains("vol 95") && $0.contains("EQ flat") } != nil,
                "- did not lower the volume or e did not choose the first preset: \((try? screen(session)) ?? "")")
        try tmux(["send-keys", "-t", session, "q"])
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: exitFile), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let code = (try? String(contentsOfFile: exitFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(code == "0", "q: exit \(code ?? "none")")
        #expect(FileManager.default.fileExists(atPath: box.library + "/player/state.json"))
    }

    /// The tmux server that `new-session` may start inherits the descriptors it was given, and
    /// Foundation's `Process` waits for the one it watches its child through to close: started
    /// with every descriptor above stderr closed, so that the client's exit is the end.
    private func startSession(_ session: String, _ command: String) throws {
        let quoted = command.replacingOccurrences(of: "'", with: "'\\''")
        let script = "for fd in /proc/$$/fd/*; do n=${fd##*/}; [ \"$n\" -gt 2 ] && eval \"exec $n>&-\"; done; " +
            "exec tmux new-session -d -s \(session) -x 120 -y 10 '\(quoted)'"
        let run = try ChildProcess.run("/bin/bash", ["-c", script])
        guard run.succeeded else { throw ChildProcess.LaunchError(description: "\(run)") }
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let run = try ChildProcess.run("/usr/bin/tmux", arguments)
        guard run.succeeded else { throw ChildProcess.LaunchError(description: "\(run)") }
        return run.stdout
    }

    private func screen(_ session: String) throws -> String {
        try tmux(["capture-pane", "-p", "-t", session])
    }

    private func waitForScreen(_ session: String, timeout: TimeInterval = 5, _ condition: (String) -> Bool) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let s = try screen(session)
            if condition(s) { return s }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }
}
