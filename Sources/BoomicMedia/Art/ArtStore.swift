import BoomicCore
import BoomicSystem
import Glibc
import Synchronization

/// The library's picture cache: each distinct picture is stored once, named by its content hash.
///
/// Files are `<directory>/<hash>.<ext>` (pass the library's `art/` folder; it is created). A store writes a
/// temporary file and renames it into place, so a reader never sees half a picture, and skips
/// pictures already there. The cache can be rebuilt from the music files at any time, so it does
/// not fsync; instead an existing file whose size is wrong (a crash before the data reached the
/// disk) is written again.
///
/// Also finds cover files beside the music (`cover.jpg`, `folder.jpg`, …), remembering the answer
/// per folder, so make one store per scan (or call `forgetFolders()` between scans).
///
/// Thread-safe: the scanner shares one store across all its workers.
public final class ArtStore: Sendable {
    public let directory: String

    /// Cover file names in order of preference, compared case-insensitively.
    public static let coverFileNames = [
        "cover.jpg", "cover.jpeg", "cover.png", "folder.jpg", "folder.jpeg", "folder.png",
        "front.jpg", "front.jpeg", "front.png",
    ]

    /// Cover files larger than this are not art but something misnamed.
    static let maxCoverFileSize = 64 << 20

    private struct State {
        /// `<hash>.<ext>` names known to be stored completely.
        var stored: Set<String> = []
        /// Folder → hash of its cover file, or nil if it has none (or it could not be stored).
        var folders: [String: String?] = [:]
    }

    private let state = Mutex(State())

    /// A store writing into `directory`, created (with its parents) if missing.
    public init(directory: String) throws(MediaError) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        try makeDirectory()
    }

    /// Stores `bytes` (a picture of type `mime`) unless an identical one is stored already, and
    /// returns its hash: 16 hex digits of XXH64.
    @discardableResult
    public func store(_ bytes: UnsafeRawBufferPointer, mime: String) throws(MediaError) -> String {
        let hash = XXH64.hex(bytes)
        let name = "\(hash).\(Self.fileExtension(mime: mime, bytes: bytes))"
        let path = "\(directory)/\(name)"
        if state.withLock({ $0.stored.contains(name) }) { return hash }

        if let st = try? SystemCall.status(of: path), (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) == bytes.count {
            state.withLock { _ = $0.stored.insert(name) }
            return hash
        }
        try write(bytes, named: name)
        state.withLock { _ = $0.stored.insert(name) }
        return hash
    }

    /// Stores `bytes` (see `store(_:mime:)` for raw buffers) and returns its hash.
    @discardableResult
    public func store(_ bytes: [UInt8], mime: String) throws(MediaError) -> String {
        // Array.withUnsafeBytes only rethrows untyped errors, so carry the typed one out.
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(MediaError) -> String in try store(buffer, mime: mime) }
        }
        return try result.get()
    }

    /// The stored file for `hash`, if any.
    public func path(forHash hash: String) -> String? {
        for ext in ["jpg", "png", "gif", "bmp", "webp", "bin"] {
            let path = "\(directory)/\(hash).\(ext)"
            if access(path, F_OK) == 0 { return path }
        }
        return nil
    }

    /// The hash of the cover file in `folder` (stored on first use), or nil if it has none.
    /// Looked up once per folder for the life of this store.
    public func folderCover(in folder: String) -> String? {
        if let known = state.withLock({ $0.folders[folder] }) { return known }
        let hash = findFolderCover(in: folder)
        state.withLock { $0.folders[folder] = .some(hash) }
        return hash
    }

    /// Forgets which folders have cover files (after the user may have changed them).
    public func forgetFolders() {
        state.withLock { $0.folders.removeAll() }
    }

    // MARK: - Private

    /// The cover files in `folder`, best first (`coverFileNames`' order, names compared
    /// case-insensitively): what `folderCover` tries in turn.
    public static func coverFiles(in folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        var byLowerName: [String: String] = [:]
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            let lower = name.lowercased()
            if Self.coverFileNames.contains(lower), byLowerName[lower] == nil { byLowerName[lower] = name }
        }
        closedir(dir)
        return coverFileNames.compactMap { byLowerName[$0].map { "\(folder)/\($0)" } }
    }

    /// Stores the cover file at `path` and returns its hash; nil when it is empty, too big to
    /// be a picture, or cannot be read or stored.
    public func storeCoverFile(_ path: String) -> String? {
        guard let bytes = Self.readFile(path, limit: Self.maxCoverFileSize), !bytes.isEmpty else { return nil }
        return try? store(bytes, mime: path.lowercased().hasSuffix(".png") ? "image/png" : "image/jpeg")
    }

    private func findFolderCover(in folder: String) -> String? {
        Self.coverFiles(in: folder).lazy.compactMap(storeCoverFile).first
    }

    private func makeDirectory() throws(MediaError) {
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/\(component)"
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw .unwritable(path: directory, reason: "cannot create the art folder (\(systemErrorText(errno)))")
            }
        }
        var st = stat()
        guard stat(directory, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw .unwritable(path: directory, reason: "the art folder is not a folder")
        }
    }

    private func write(_ bytes: UnsafeRawBufferPointer, named name: String) throws(MediaError) {
        let path = "\(directory)/\(name)"
        // A unique hidden temporary name: two workers storing one picture must not share it.
        let temp = "\(directory)/.\(name).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp"
        let file: FileDescriptor
        do {
            file = try FileDescriptor(path: temp, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
        } catch {
            throw .unwritable(path: path, reason: "cannot create a temporary file (\(error.reason))")
        }
        do {
            try file.write(bytes)
            try file.close()
        } catch {
            try? file.close()
            try? SystemCall.unlink(temp)
            throw .unwritable(path: path, reason: "cannot write the picture (\(error.reason))")
        }
        do {
            try SystemCall.rename(temp, to: path)
        } catch {
            try? SystemCall.unlink(temp)
            throw .unwritable(path: path, reason: "cannot move the picture into place (\(error.reason))")
        }
    }

    /// The whole file, or nil if it cannot be read or is larger than `limit`.
    static func readFile(_ path: String, limit: Int) -> [UInt8]? {
        try? FileDescriptor(path: path, flags: O_RDONLY).readAll(limit: limit)
    }

    /// The file extension for a picture: from its MIME type, else from its first bytes.
    static func fileExtension(mime: String, bytes: UnsafeRawBufferPointer) -> String {
        switch mime.lowercased() {
        case "image/jpeg", "image/jpg": return "jpg"
        case "image/png": return "png"
        case "image/gif": return "gif"
        case "image/bmp": return "bmp"
        case "image/webp": return "webp"
        default: break
        }
        let b = Array(bytes.prefix(12))
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if b.starts(with: Array("GIF8".utf8)) { return "gif" }
        if b.starts(with: Array("BM".utf8)) { return "bmp" }
        if b.count >= 12, b[0..<4].elementsEqual("RIFF".utf8), b[8..<12].elementsEqual("WEBP".utf8) {
            return "webp"
        }
        return "bin"
    }
}
