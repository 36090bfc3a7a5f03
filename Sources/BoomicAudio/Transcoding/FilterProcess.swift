import Foundation
import Glibc
import Synchronization

/// `boomic-ffmpeg encode` or `scale` running as a child with its three standard descriptors on
/// pipes: the parent writes its input, reads its output and, once it is done, its one line on
/// standard error.
///
/// Each pipe end is owned by one side: `input` by the writer (`closeInput()`), `output` and
/// `errors` by the reader (`closeOutput()`), so that no descriptor is closed while another
/// thread uses it. Every end is created close-on-exec (`pipe2`), so no other child the
/// server starts meanwhile holds one open (which would keep the encoder from seeing its end of
/// input). The child gets its own process group, like the player's decoder (`DecoderProcess`).
///
/// The child is waited for without being reaped (`waitid` with `WNOWAIT`) and reaped under the
/// lock that `terminate()` takes, so that a signal is never sent to a process id the system has
/// given to another process since.
final class FilterProcess: Sendable {
    let program: String
    private let pid: pid_t
    let input: Int32
    let output: Int32
    private let errors: Int32
    private let state = Mutex(State())

    private struct State {
        var inputOpen = true
        var outputOpen = true
        /// The wait status, once reaped.
        var status: Int32?
    }

    init(program: String, arguments: [String]) throws(AudioError) {
        self.program = program
        var fds: [Int32] = [-1, -1, -1, -1, -1, -1]
        for i in 0..<3 {
            let made = fds.withUnsafeMutableBufferPointer { Self.pipe2($0.baseAddress! + 2 * i, O_CLOEXEC) }
            guard made == 0 else {
                let reason = String(cString: strerror(errno))
                for fd in fds where fd >= 0 { close(fd) }
                throw AudioError(path: program, reason: "cannot make a pipe (\(reason))")
            }
        }
        // fds: [stdin read, stdin write, stdout read, stdout write, stderr read, stderr write]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fds[3], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[5], 2)
        var child: pid_t = 0
        let r = ChildSpawn.spawn(program, arguments, &actions, child: &child)
        close(fds[0])
        close(fds[3])
        close(fds[5])
        guard r == 0 else {
            close(fds[1])
            close(fds[2])
            close(fds[4])
            throw AudioError(path: program, reason: "cannot run \(program) (\(String(cString: strerror(r))))")
        }
        pid = child
        input = fds[1]
        output = fds[2]
        errors = fds[4]
    }

    /// glibc's `pipe2`, which Swift's Glibc module does not declare (it is a GNU extension):
    /// a pipe made close-on-exec at once, with no moment in which another thread's spawn could
    /// inherit it (`pipe` then `fcntl` has one).
    private static let pipe2: @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32 = {
        guard let symbol = dlsym(nil, "pipe2") else { fatalError("glibc has no pipe2") }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    }()

    deinit {
        closeInput()
        closeOutput()
        terminate()
        waitForExit()
    }

    /// Closes the child's standard input: the end of what it is given.
    func closeInput() {
        state.withLock { s in
            if s.inputOpen { close(input) }
            s.inputOpen = false
        }
    }

    /// Closes the child's standard output and error: its next write fails (EPIPE), and it ends.
    func closeOutput() {
        state.withLock { s in
            if s.outputOpen {
                close(output)
                close(errors)
            }
            s.outputOpen = false
        }
    }

    /// Ends the child now, unless it has already ended and been reaped.
    func terminate() {
        state.withLock { s in
            if s.status == nil { kill(pid, SIGKILL) }
        }
    }

    /// What the child wrote on standard error, read once it has closed its output: at most a
    /// few lines, which the pipe's buffer holds without the child waiting on it.
    func errorText() -> String {
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while text.count < 1 << 16 {
            let n = chunk.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            text += chunk[0..<n]
        }
        return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits for the child to end and reaps it; how it ended ("exit 0", "signal 9").
    @discardableResult
    func waitForExit() -> String {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        let status: Int32? = state.withLock { s in
            if s.status == nil {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 {
                    guard errno == EINTR else { return nil }
                }
                s.status = status
            }
            return s.status
        }
        guard let status else { return "unknown" }
        let signal = status & 0x7F
        return signal == 0 ? "exit \((status >> 8) & 0xFF)" : "signal \(signal)"
    }
}
