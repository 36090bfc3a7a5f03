import BoomicSystem
import Foundation
import Glibc

/// A decoder program running as a child, its standard output a pipe we read: one owning type
/// for the process and the pipe's read end, which kills and reaps the child when dropped.
///
/// The child gets its own process group, so the Ctrl-C that a terminal sends to the player's
/// group does not kill it mid-song; if the player dies instead, the child's next write fails
/// (EPIPE) and it exits.
///
/// A file given to it (`input`) becomes its descriptor 3, the only one of the player's it
/// inherits besides the pipe: the child reads the file the player opened and checked, and
/// opens no path itself. The player keeps its own descriptor; each is closed by its owner.
///
/// Not `Sendable`: it belongs to the decode thread, like the decoder that owns it.
final class DecoderProcess {
    let program: String
    private let pid: pid_t
    private var fd: Int32
    private var exitStatus: Int32?

    /// The descriptor number `input` has in the child.
    static let inputDescriptor: Int32 = 3

    init(program: String, arguments: [String], input: FileDescriptor? = nil) throws(AudioError) {
        self.program = program
        // A copy above the standard three and 3 itself, so that no action below overwrites it
        // before it is moved to 3 (and closed in the child at exec, as the original is).
        var inherited: Int32 = -1
        if let input {
            inherited = fcntl(input.rawValue, F_DUPFD_CLOEXEC, 10)
            guard inherited >= 0 else {
                throw AudioError(path: input.path, reason: "cannot pass the file to \(program) (\(String(cString: strerror(errno))))")
            }
        }
        defer { if inherited >= 0 { close(inherited) } }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw AudioError(path: program, reason: "cannot make a pipe (\(String(cString: strerror(errno))))")
        }
        // Other children (another song's decoder) must not hold this pipe open.
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The pipe first: its write end may be 0, 2 or 3 when the player runs with standard
        // descriptors closed.
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        if inherited >= 0 { posix_spawn_file_actions_adddup2(&actions, inherited, Self.inputDescriptor) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var child: pid_t = 0
        let r = ChildSpawn.spawn(program, arguments, &actions, child: &child)
        close(ends[1])
        guard r == 0 else {
            close(ends[0])
            throw AudioError(path: program, reason: "cannot run \(program) (\(String(cString: strerror(r))))")
        }
        pid = child
        fd = ends[0]
    }

    deinit {
        if fd >= 0 { close(fd) }
        if exitStatus == nil {
            kill(pid, SIGKILL)
            reap()
        }
    }

    /// Reads what the child has written into `buffer`, waiting for it: the number of bytes,
    /// 0 once it has closed its end.
    func read(into buffer: inout [UInt8]) throws(AudioError) -> Int {
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n >= 0 { return n }
            if errno != EINTR {
                throw AudioError(path: program, reason: "cannot read its output (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// How the child ended, once its output is closed: "exit 1", "signal 11".
    func ending() -> String {
        reap()
        guard let status = exitStatus else { return "unknown" }
        let signal = status & 0x7F
        return signal == 0 ? "exit \((status >> 8) & 0xFF)" : "signal \(signal)"
    }

    private func reap() {
        guard exitStatus == nil else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return }
        }
        exitStatus = status
    }
}
