import BoomicTestSupport
import Foundation

/// A detached tmux session running one command on a terminal of a given size: how the tests
/// drive full-screen programs (`boomic play`'s status line, ncmpcpp) as a user's keys would.
struct TmuxSession {
    let name: String

    static let available = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")

    /// The tmux server that `new-session` may start inherits the descriptors it was given, and
    /// Foundation's `Process` waits for the one it watches its child through to close: started
    /// with every descriptor above stderr closed, so that the client's exit is the end.
    init(_ command: String, width: Int = 120, height: Int = 10) throws {
        name = "boomic-\(getpid())-\(UUID().uuidString.prefix(6))"
        let quoted = command.replacingOccurrences(of: "'", with: "'\\''")
        let script = "for fd in /proc/$$/fd/*; do n=${fd##*/}; [ \"$n\" -gt 2 ] && eval \"exec $n>&-\"; done; " +
            "exec tmux new-session -d -s \(name) -x \(width) -y \(height) '\(quoted)'"
        let run = try ChildProcess.run("/bin/bash", ["-c", script])
        guard run.succeeded else { throw ChildProcess.LaunchError(description: "\(run)") }
    }

    func kill() { _ = try? tmux(["kill-session", "-t", name]) }

    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

    func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", name]) }

    /// The screen once `condition` holds, or nil after `timeout`.
    func waitForScreen(timeout: TimeInterval = 5, _ condition: (String) -> Bool) throws -> String? {
        var shown = ""
        do {
            try waitUntil("the screen to show what is awaited", timeout: .seconds(timeout), every: .milliseconds(50)) {
                shown = try screen()
                return condition(shown)
            }
        } catch is WaitTimedOut {
            return nil
        }
        return shown
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let run = try ChildProcess.run("/usr/bin/tmux", arguments)
        guard run.succeeded else { throw ChildProcess.LaunchError(description: "\(run)") }
        return run.stdout
    }
}
