import BoomicMedia
import BoomicSystem
import Glibc
import Synchronization

/// Folders' cover files for `albumart`, looked for at each request as MPD looks for them, so a
/// cover added or replaced shows at once, without an import. Each is read into the library's
/// art store the first time, and again only when the file changed (its size, time or inode).
final class FolderCovers: Sendable {
    private struct Mark: Equatable {
        let size: Int, seconds: Int, nanoseconds: Int, inode: UInt
        init(_ st: stat) {
            size = Int(st.st_size)
            seconds = st.st_mtim.tv_sec
            nanoseconds = st.st_mtim.tv_nsec
            inode = UInt(st.st_ino)
        }
    }

    private let store: ArtStore
    /// Cover file → what it looked like when stored, and its hash.
    private let known = Mutex<[String: (mark: Mark, hash: String)]>([:])
    /// The music folders as the file system resolves them (a folder may be a link to a NAS).
    private let roots: [String]

    init(store: ArtStore, folders: [String]) {
        self.store = store
        roots = folders.compactMap(SystemCall.realPath)
    }

    /// Whether `path` resolves inside a music folder: a `cover.jpg` that links elsewhere
    /// (`/etc/shadow`, to a server running as root) is no cover to send a network client.
    private func isInside(_ path: String) -> Bool {
        guard let real = SystemCall.realPath(path) else { return false }
        return roots.contains { real.hasPrefix($0 == "/" ? "/" : $0 + "/") }
    }

    /// The art store's hash of the cover file in `folder` (a folder of the library's, never a
    /// path as a client wrote it), or nil when it has none that can be read.
    func hash(in folder: String) -> String? {
        for path in ArtStore.coverFiles(in: folder) {
            guard let st = try? SystemCall.status(of: path), (st.st_mode & S_IFMT) == S_IFREG else { continue }
            let mark = Mark(st)
            // A link moved to another file changes the mark: what is known passed `isInside`.
            if let known = known.withLock({ $0[path] }), known.mark == mark { return known.hash }
            guard isInside(path), let hash = store.storeCoverFile(path) else { continue }
            known.withLock { $0[path] = (mark, hash) }
            return hash
        }
        return nil
    }
}
