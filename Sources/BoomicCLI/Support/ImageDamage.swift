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
            if let file { unlink(file) }
            let rebuilt = file == nil ? "" : "; it is removed, and the next command rebuilds it from the log"
            if let own = Library.committedHere() {
                Terminal.warn("Error: \(reason)\(rebuilt); the change is committed as transaction \(own.last)")
                exit(Out.committedButUnreported)
            }
            Terminal.warn("Error: \(reason)\(rebuilt); nothing was changed")
            exit(1)
        }
    }
}
