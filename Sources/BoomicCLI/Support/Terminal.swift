import BoomicSystem
import Foundation
import Synchronization

/// What the terminal allows: colour only on a TTY without `NO_COLOR`, progress only on a TTY,
/// prompts only when stdin is a TTY. Nothing below BoomicCLI prints, so this is the only place
/// that knows about terminals.
enum Terminal {
    static let stdoutIsTTY = isatty(STDOUT_FILENO) == 1
    static let stderrIsTTY = isatty(STDERR_FILENO) == 1
    static let stdinIsTTY = isatty(STDIN_FILENO) == 1
    static let useColor = stdoutIsTTY && Environment.value("NO_COLOR").map(\.isEmpty) ?? true

    static func bold(_ s: String) -> String { useColor ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    static func dim(_ s: String) -> String { useColor ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
    static func red(_ s: String) -> String { useColor ? "\u{1B}[31m\(s)\u{1B}[0m" : s }
    static func green(_ s: String) -> String { useColor ? "\u{1B}[32m\(s)\u{1B}[0m" : s }
    static func yellow(_ s: String) -> String { useColor ? "\u{1B}[33m\(s)\u{1B}[0m" : s }

    /// Text from tags, file names and the user as it may reach a terminal: on a TTY, control
    /// characters (C0, DEL and C1, ESC among them, which start the sequences that recolour,
    /// retitle or clear a terminal) are shown as visible escapes (`\e[31m`); elsewhere — a pipe,
    /// a file, `--json` — the text is left byte for byte.
    static func printable(_ s: String, tty: Bool = stdoutIsTTY) -> String {
        guard tty, s.unicodeScalars.contains(where: isControl) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            guard isControl(u) else { out.append(u); continue }
            let shown: String
            switch u {
            case "\u{1B}": shown = "\\e"
            case "\n": shown = "\\n"
            case "\r": shown = "\\r"
            case "\t": shown = "\\t"
            default: shown = u.value < 0x80 ? "\\x" + hex(u.value) : "\\u{" + hex(u.value) + "}"
            }
            out.append(contentsOf: shown.unicodeScalars)
        }
        return String(out)
    }

    private static func isControl(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || (0x7F...0x9F).contains(u.value)
    }

    private static func hex(_ v: UInt32) -> String {
        let h = String(v, radix: 16, uppercase: true)
        return h.count < 2 ? "0" + h : h
    }

    /// Writes one line to stderr (errors, warnings): stdout stays clean for pipes and `--json`.
    ///
    /// The line may quote file names, tags and damaged data (a checksum of NUL bytes), so its
    /// control characters are always escaped, on a terminal or not: a line on stderr is read by
    /// people and by line-oriented tools (a log, `grep`), and a NUL, an ESC or a line break of
    /// the data's own must neither reach a terminal nor split or cut the one line.
    static func warn(_ s: String) {
        let line = printable(s, tty: true) + "\n"
        // Not FileHandle.write, which traps on a closed pipe (`boomic import 2>&1 | head`).
        toStderr(line)
    }

    /// Writes to stderr as it is (progress bars, prompts); a failure is nothing to report.
    static func raw(_ s: String) {
        // Not FileHandle.write, which traps on a closed pipe (`boomic import 2>&1 | head`).
        toStderr(s)
    }

    /// All of `s` on stderr, interrupted or not; a failure there has nowhere to be reported.
    private static func toStderr(_ s: String) {
        var s = s
        s.withUTF8 { try? SystemCall.write(all: UnsafeRawBufferPointer($0), to: STDERR_FILENO, path: "standard error") }
    }

    /// Asks a yes/no question on a TTY. Without a TTY the caller decides (see `confirm`).
    static func ask(_ question: String) -> Bool {
        raw(printable("\(question) [y/N] ", tty: stderrIsTTY))
        guard let line = readLine() else { return false }
        return ["y", "yes"].contains(line.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// `-y` skips the question; without a TTY there is nobody to ask, so the change goes ahead
    /// (as `beet modify` does): every change is a transaction and `boomic undo` takes it back.
    static func confirm(_ question: String, yes: Bool) -> Bool {
        if yes || !stdinIsTTY { return true }
        return ask(question)
    }
}

/// Writes command output to stdout, every write checked.
///
/// When the reader goes away (`boomic ls | head`) the command stops quietly: that is not an
/// error. Any other failure (a full disk: `boomic ls > /dev/full`) is one line on stderr and
/// exit 1: output cut short must never look like a success.
enum Out {
    static func line(_ s: String = "") {
        var s = s
        s.append("\n")
        s.withUTF8 { bytes(UnsafeRawBufferPointer($0)) }
    }

    /// Lines written a batch at a time, for a command that prints a listing all at once:
    /// `ls` of 50,000 songs made a system call a line. A batch is written when it holds
    /// 64 KiB and when it ends, so a command that prints as it goes (a progress line, a player's
    /// status, a question) writes its lines with `line` instead.
    struct Batch: ~Copyable {
        private var buffer: [UInt8] = []

        init() { buffer.reserveCapacity(Self.size + 4096) }

        mutating func line(_ s: String) {
            buffer.append(contentsOf: s.utf8)
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= Self.size {
                buffer.withUnsafeBytes { Out.bytes($0) }
                buffer.removeAll(keepingCapacity: true)
            }
        }

        deinit {
            if !buffer.isEmpty { buffer.withUnsafeBytes { Out.bytes($0) } }
        }

        private static let size = 1 << 16
    }

    static func bytes(_ buffer: UnsafeRawBufferPointer) {
        do {
            try SystemCall.write(all: buffer, to: STDOUT_FILENO, path: "standard output")
        } catch {
            failed(error)
        }
    }

    static func bytes(_ data: Data) {
        data.withUnsafeBytes { bytes($0) }
    }

    /// Checks what is left at exit: swift-argument-parser prints help, versions and dumps with
    /// `print`, which stdio buffers, and a file on a full disk may report the error only when
    /// it is closed (as coreutils' `close_stdout` does). Installed with `atexit` by `main`.
    static func closeAtExit() {
        guard !reported.load(ordering: .relaxed) else { return }
        // fflush(nil): every stdio stream, stdout among them (Swift 6 cannot name C's `stdout`).
        errno = 0
        let flushFailed = fflush(nil) != 0
        var code = errno
        if !flushFailed {
            do {
                try SystemCall.close(STDOUT_FILENO, path: "standard output")
                return
            } catch {
                // EBADF: stdout was closed from the start and nothing was written to it.
                guard error.errno != EBADF else { return }
                code = error.errno
            }
        }
        guard code != EPIPE else { return }
        // Inside an atexit handler: _exit, as exit must not be called again.
        _exit(report(String(cString: strerror(code == 0 ? EIO : code))))
    }

    /// The exit status of a command whose change is committed but whose report of it could not
    /// be written (stdout on a full disk): not 1, so that a script does not run it again and
    /// make the change twice (README, "Exit codes").
    static let committedButUnreported: Int32 = 3

    /// Says that the output could not be written, and, when this process committed anything,
    /// that the change is made all the same; returns the exit status. The one place every
    /// committing command's lost report goes through, whatever it printed.
    private static func report(_ reason: String) -> Int32 {
        guard let own = Library.committedHere() else {
            Terminal.warn("Error: cannot write to standard output: \(reason); the output is incomplete")
            return 1
        }
        let which = own.count == 1 ? "transaction \(own.last)"
            : own.last - own.first + 1 == own.count ? "transactions \(own.first)–\(own.last)"
            : "\(own.count) transactions, \(own.first) to \(own.last)"
        Terminal.warn("Error: cannot write to standard output: \(reason); the output is incomplete, but the change is committed as \(which): "
            + "do not run the command again ('boomic undo' takes it back)")
        return committedButUnreported
    }

    /// Set once a failure was reported, so that the check at exit does not report it again.
    private static let reported = Atomic(false)

    private static func failed(_ error: SystemError) -> Never {
        reported.store(true, ordering: .relaxed)
        if error.isBrokenPipe { exit(0) }
        exit(report(error.reason))
    }
}
