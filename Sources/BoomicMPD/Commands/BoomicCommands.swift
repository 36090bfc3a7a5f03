import BoomicCore
import BoomicPlayback
import Foundation

/// What only Boomic answers, for its own command line (`boomic status`, `boomic queue add`):
/// `boomic version` tells a Boomic server from an MPD on the same port (MPD answers `unknown
/// command`; Boomic, before a password it wants, `permission`), and `boomic add QUERY…` queues the songs a library query selects, in `ls` order,
/// with the same parser as `boomic ls`.
enum BoomicCommands {
    static let all: [CommandSpec] = [
        CommandSpec("boomic", 1...Int.max) { inv throws(MPDError) in
            switch inv.args[0] {
            case "version":
                inv.response.add("boomic", inv.server.version)
            case "add":
                let words = Array(inv.args.dropFirst())
                let basis = inv.snapshot.basis
                let songs: [Song]
                do {
                    let parsed = try QueryParser.parse(words, timeZone: .current, userFields: basis.userFieldNames)
                    songs = try basis.songs(matching: parsed).filter { !$0.missing }
                } catch {
                    throw inv.error(.argument, "\(error.localizedDescription)")
                }
                let count = songs.count
                try inv.perform([.queue(.add(songs.map(\.id), at: .end))]) { after, response in
                    response.add("added", count)
                    response.add("playlistlength", after.queue.entries.count)
                }
            default:
                throw inv.error(.argument, "boomic takes version or add QUERY…")
            }
        },
    ]
}
