import Foundation

/// What the terminal allows: colour only on a TTY without `NO_COLOR`, progress only on a TTY,
/// prompts only when stdin is a TTY. Nothing below BoomicCLI prints, so this is the only place
/// that knows about terminals.
enum Terminal {
    static let stdoutIsTTY = isatty(STDOUT_FILENO) == 1
    static let stderrIsTTY = isatty(STDERR_FILENO) == 1
    static let stdinIsTTY = isatty(STDIN_FILENO) == 1
    static let useColor = stdoutIsTTY && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true

    static func bold(_ s: String) -> String { useColor ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    static func dim(_ s: String) -> String { useColor ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
    static func red(_ s: String) -> String { useColor ? "\u{1B}[31m\(s)\u{1B}[0m" : s }
    static func green(_ s: String) -> String { useColor ? "\u{1B}[32m\(s)\u{1B}[0m" : s }
    static func yellow(_ s: String) -> String { useColor ? "\u{1B}[33m\(s)\u{1B}[0m" : s }

    /// Writes to stderr (warnings, progress, prompts): stdout stays clean for pipes and `--json`.
    static func warn(_ s: String) {
        // Not FileHandle.write, which traps on a closed pipe (`boomic import 2>&1 | head`).
        _ = (s + "\n").withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }

    /// Asks a yes/no question on a TTY. Without a TTY the caller decides (see `confirm`).
    static func ask(_ question: String) -> Bool {
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
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

/// Writes lines to stdout, quietly stopping when the reader goes away (`boomic ls | head`).
enum Out {
    static func line(_ s: String = "") {
        var s = s
        s.append("\n")
        s.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                let n = write(STDOUT_FILENO, buf.baseAddress! + off, buf.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    exit(0) // EPIPE: the reader is gone, which is not an error for us.
                }
                off += n
            }
        }
    }
}
