import BoomicCore
import BoomicLibrary
import Foundation

/// `update` and `rescan` run Boomic's import over the music folders, in the background, as one
/// transaction (so an update can be undone); clients follow it through `updating_db` in
/// `status` and the `update` and `database` idle events. A path narrows nothing: the import
/// looks at every folder, which costs a stat per unchanged file.
enum UpdateCommands {
    static let all: [CommandSpec] = [
        CommandSpec("update", 0...1) { inv throws(MPDError) in try start(&inv, reread: false) },
        CommandSpec("rescan", 0...1) { inv throws(MPDError) in try start(&inv, reread: true) },
    ]

    private static func start(_ inv: inout Invocation, reread: Bool) throws(MPDError) {
        if let uri = inv.args.first, !uri.isEmpty, inv.snapshot.tree.path(for: uri) == nil {
            throw inv.error(.argument, "Malformed path")
        }
        let server = inv.server
        let job: Int? = server.updates.withLock { u in
            guard u.running == nil else { return nil }
            u.last += 1
            u.running = u.last
            server.updating.store(u.last, ordering: .releasing)
            return u.last
        }
        guard let job else { throw inv.error(.updateAlready, "already updating") }
        inv.response.add("updating_db", job)
        server.hub.post([.update])
        Thread.detachNewThread {
            _ = try? ImportFlow.run(server.library.session, given: [], reread: reread, message: "mpd update",
                                    events: SilentEvents())
            server.library.refreshNow()
            server.updates.withLock {
                $0.running = nil
                server.updating.store(0, ordering: .releasing)
            }
            server.hub.post([.update])
        }
    }
}
