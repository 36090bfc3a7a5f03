import Foundation
import Glibc

/// How `boomic user add` and `passwd` get a password: on a terminal, asked twice without echo;
/// otherwise the first line of standard input (`printf '%s\n' "$PW" | boomic user add anna`), so
/// that it never has to be on a command line, where `ps` and the shell's history would show it.
enum UserPassword {
    static func read(for name: String) throws -> String {
        guard Terminal.stdinIsTTY else {
            guard let line = readLine(strippingNewline: true) else {
                throw CLIError("no password on standard input; give it as its first line, or run the command on a terminal to be asked")
            }
            return line
        }
        let first = try ask("Password for \(name): ")
        let second = try ask("Again: ")
        guard first == second else { throw CLIError("the two passwords differ; nothing was changed, try again") }
        return first
    }

    /// One line from the terminal with echo off, the terminal put back whatever happens (an
    /// interrupt included).
    private static func ask(_ prompt: String) throws -> String {
        var t = termios()
        guard tcgetattr(STDIN_FILENO, &t) == 0 else { throw CLIError("cannot read the terminal's settings (\(String(cString: strerror(errno)))); give the password on standard input instead") }
        saved = t
        let previous = signal(SIGINT) { _ in
            if var t = UserPassword.saved { tcsetattr(STDIN_FILENO, TCSANOW, &t) }
            _exit(128 + SIGINT)
        }
        var quiet = t
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        // Asked only once echo is off: what is typed at the prompt is never shown.
        Terminal.raw(prompt)
        let line = readLine(strippingNewline: true)
        tcsetattr(STDIN_FILENO, TCSANOW, &t)
        signal(SIGINT, previous)
        Terminal.raw("\n")
        guard let line else { throw CLIError("no password given; nothing was changed") }
        return line
    }

    /// The terminal's settings while echo is off, for the interrupt handler to put back. Safe
    /// unsynchronised: written before the handler is installed, read only by it, and one
    /// command asks on one thread.
    nonisolated(unsafe) private static var saved: termios?
}
