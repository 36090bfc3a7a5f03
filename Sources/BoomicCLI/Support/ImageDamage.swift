import BoomicStore
import Foundation

/// What a command does when a segment of `library.image` it reads is damaged (`ImageChecks`):
/// the image is a cache of its checkpoint row, so it is removed for the next command to rebuild,
/// and this command stops with one line. Reads come before a command's commit, so it has
/// changed nothing; if it had (the damage met while printing), the line says so and the exit
/// status is the one for a committed change whose report is incomplete.
enum ImageDamage {
    /// Makes this process check the image as it reads it, unless it is one that must never stop
    /// halfway (`serve`) or that reports damage as its finding (`verify`): those check every
    /// block at the open.
    static func checkOnTouch(unlessRunning command: [String]) {
        guard !["serve", "verify"].contains(command.first ?? "") else { return }
        ImageChecks.checkOnFirstTouch { reason, file in
            let rebuilt = file.map(removal) ?? ""
            if let own = Library.committedHere() {
                Terminal.warn("Error: \(reason)\(rebuilt); the change is committed as transaction \(own.last)")
                exit(Out.committedButUnreported)
            }
            Terminal.warn("Error: \(reason)\(rebuilt); nothing was changed")
            exit(1)
        }
    }

    /// Removes the damaged image and says so; where this user may not (another user's library,
    /// a read-only mount), says that instead: the file stays until a user who may write the
    /// library runs a command.
    static func removal(of file: String) -> String {
        if unlink(file) == 0 || errno == ENOENT { return "; it is removed, and the next command rebuilds it from the log" }
        return "; you may not remove \(file) (\(String(cString: strerror(errno)))): the next command of a user who may write the library rebuilds it"
    }
}
