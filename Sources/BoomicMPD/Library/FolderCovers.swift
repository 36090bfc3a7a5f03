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

    init(store: ArtStore) {
        self.store = store
    }

    /// The art store's hash of the cover file in `folder` (a folder of the library's, never a
    /// path as a client wrote it), or nil when it has none that can be read.
    ///
    /// Each file is opened anew at each request as the store opens cover files
    /// (`ArtStore.openCoverFile`: a regular file inside the music folders, opened without
    /// waiting), so a `cover.jpg` that links elsewhere (`/etc/shadow`, to a server running as
    /// root) is never sent, whenever the link was made or moved; the descriptor opened is the
    /// one read and marked.
    func hash(in folder: String) -> String? {
        for path in ArtStore.coverFiles(in: folder) {
            guard let file = try? store.openCoverFile(path), let st = try? file.status() else { continue }
            defer { try? file.close() }
            let mark = Mark(st)
            if let known = known.withLock({ $0[path] }), known.mark == mark { return known.hash }
            guard let hash = store.storeCover(from: file) else { continue }
            known.withLock { $0[path] = (mark, hash) }
            return hash
        }
        return nil
    }
}
