import BoomicCore
import BoomicLibrary
import Foundation

/// `update` and `rescan` run Boomic's import over the music folders, in the background, as one
/// transaction (so an update can be undone); clients follow it through `updating_db` in
/// `status` and the `update` and `database` idle events. A path narrows the import to that
/// folder (or file's folder), as in MPD: after adding an album, a client need not wait for a
/// walk of the whole library.
enum UpdateCommands {
    static let all: [CommandSpec] = [
        CommandSpec("update", 0...1) { inv throws(MPDError) in try start(&inv, reread: false) },
        CommandSpec("rescan", 0...1) { inv throws(MPDError) in try start(&inv, reread: true) },
    ]

    private static func start(_ inv: inout Invocation, reread: Bool) throws(MPDError) {
        // The folder to scan: the client's path inside a music folder (no `..`, nothing
        // absolute; a new album's folder need not be in the library yet), a file's folder for a
        // file, the nearest existing folder for one removed. Only what a whole update would scan.
        var within: [String] = []
        if let uri = inv.args.first, !uri.isEmpty, uri != "/" {
            guard let path = inv.snapshot.tree.path(for: uri) else {
                // With several folders, a first part that names none of them is in no folder:
                // MPD scans such a path, finds nothing and answers with a job all the same (a
                // typo in `mpc update` is no error there).
                guard isSafe(uri) else { throw inv.error(.argument, "Malformed path") }
                return try queue(&inv, within: nil, reread: reread)
            }
            let roots = inv.server.library.folders.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            guard roots.contains(where: { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else {
                throw inv.error(.argument, "Malformed path")
            }
            // The nearest existing folder is found by the update's thread (`nearestFolder`): a
            // look at the disk has no place on the event loop.
            within = [path]
        }
        try queue(&inv, within: within, reread: reread)
    }

    /// The folder at or above `path` that exists, up to the music folder it is in (checked when
    /// the job was queued): a file's folder for a file, the nearest existing one for a path
    /// removed.
    private static func nearestFolder(_ path: String, in folders: [String]) -> String {
        let roots = folders.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        guard let root = roots.first(where: { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else { return path }
        var path = path, isFolder: ObjCBool = false
        while path != root, !(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue) {
            path = (path as NSString).deletingLastPathComponent
        }
        return path
    }

    /// A path as MPD takes one to update: relative, no empty, `.` or `..` part (`a//b` and
    /// `Album/` are malformed there too).
    private static func isSafe(_ uri: String) -> Bool {
        !uri.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    private static func queue(_ inv: inout Invocation, within: [String]?, reread: Bool) throws(MPDError) {
        let server = inv.server
        // Queued behind one running, as MPD queues it: `update A` then `update B` scans both,
        // and `mpc update --wait` while another update runs waits instead of failing.
        let (job, startsWorker): (Int?, Bool) = server.updates.withLock { u in
            guard u.waiting.count < UpdateJobs.maxWaiting else { return (nil, false) }
            u.last += 1
            u.waiting.append(UpdateJobs.Job(number: u.last, within: within, reread: reread))
            guard !u.working else { return (u.last, false) }
            // The first job: `status` shows it from this answer on, before its thread runs.
            u.working = true
            server.updating.store(u.last, ordering: .releasing)
            return (u.last, true)
        }
        guard let job else { throw inv.error(.updateAlready, "Update queue is full") }
        inv.response.add("updating_db", job)
        if startsWorker { Thread.detachNewThread { runJobs(server) } }
    }

    /// Runs the waiting jobs in order until none is left; one such loop at a time.
    private static func runJobs(_ server: ServerContext) {
        while true {
            let next: UpdateJobs.Job? = server.updates.withLock { u in
                guard !u.waiting.isEmpty else {
                    u.working = false
                    server.updating.store(0, ordering: .releasing)
                    return nil
                }
                let job = u.waiting.removeFirst()
                server.updating.store(job.number, ordering: .releasing)
                return job
            }
            server.hub.post([.update])
            guard let job = next else { return }
            guard let within = job.within?.map({ nearestFolder($0, in: server.library.folders) }) else { continue }
            _ = try? ImportFlow.run(server.library.session, given: [], within: within, reread: job.reread,
                                    message: "mpd update", events: SilentEvents())
            server.library.refreshNow()
            // MPD's update finds the playlist files too; the library does not keep them.
            if server.library.findPlaylistsNow() { server.hub.post([.database]) }
        }
    }
}
