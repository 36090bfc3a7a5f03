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
/// per folder, so make one store per scan (or call `forgetFolders()` between scans). A cover file
/// is read only when it is a regular file inside the music folders (`openCoverFile`): a
/// `cover.jpg` linking to `/etc/shadow` is no picture to copy into the library, where a network
/// client can ask for it.
///
/// Pictures are written with `fileMode` exactly (the library's own permissions, whatever the
/// umask), and a folder it creates gets the permissions of the folder it is made in.
///
/// Thread-safe: the scanner shares one store across all its workers.
public final class ArtStore: Sendable {
    public let directory: String
    /// The permission bits of every picture stored.
    public let fileMode: mode_t
    /// The music folders: cover files are read only from inside them.
    public let musicFolders: ContainingFolders
    /// The store's own folder, which stored pictures are read from.
    private let ownFolder: ContainingFolders

    /// Cover file names in order of preference, compared case-insensitively: `cover`,
    /// `folder`, `front`, `album`, `albumart`, each as `.jpg`, `.jpeg`, `.png` and `.webp`
    /// (`Folder.WEBP` is one). The one list the import's walk, `coverFiles(in:)` and the
    /// server's `albumart` go by.
    public static let coverFileNames = ["cover", "folder", "front", "album", "albumart"].flatMap { name in
        ["jpg", "jpeg", "png", "webp"].map { "\(name).\($0)" }
    }

    /// Cover files larger than this are not art but something misnamed.
    static let maxCoverFileSize = 64 << 20

    private struct State {
        /// `<hash>.<ext>` names known to be stored completely.
        var stored: Set<String> = []
        /// Folder → hash of its cover file, or nil if it has none (or it could not be stored).
        var folders: [String: String?] = [:]
    }

    private let state = Mutex(State())

    /// A store writing into `directory`, created (with its parents) if missing, reading cover
    /// files from inside `musicFolders` only (none: no cover file is read, as a store that only
    /// looks pictures up needs).
    ///
    /// - Parameter fileMode: the permissions of the pictures; by default those of the folder
    ///   `directory` is in, without execute (a library folder of 0700 gives 0600 pictures).
    public init(directory: String, musicFolders: [String] = [], fileMode: mode_t? = nil) throws(MediaError) {
        let directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.directory = directory
        self.musicFolders = ContainingFolders(musicFolders)
        try Self.makeDirectory(directory)
        self.fileMode = fileMode ?? (Self.parentMode(of: directory).map { $0 & 0o666 } ?? 0o644)
        ownFolder = ContainingFolders([directory])
    }

    /// The permission bits of the folder `path` is in; nil when it cannot be read.
    private static func parentMode(of path: String) -> mode_t? {
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let parent = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        return (try? SystemCall.status(of: parent)).map { $0.st_mode & 0o7777 }
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
            // Stored before with other permissions (the library's changed since, or an older
            // Boomic's fixed 0644): given the library's now.
            if st.st_mode & 0o7777 != fileMode { try? SystemCall.setPermissions(of: path, to: fileMode) }
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

    /// The cover of the songs in `folder`: its own cover file, else, for a disc folder (`CD2`,
    /// `Disc 2`: `NameGuess.discNumber`), the cover file of the album folder above it.
    public func albumCover(forSongsIn folder: String) -> String? {
        Self.coverFolders(forSongsIn: folder).lazy.compactMap(folderCover).first
    }

    /// Where the cover file of the songs in `folder` is looked for, in order: the folder, then
    /// the folder above it when it is a disc folder. The one rule the import and the server's
    /// `albumart` share.
    public static func coverFolders(forSongsIn folder: String) -> [String] {
        guard let slash = folder.utf8.lastIndex(of: UInt8(ascii: "/")), slash != folder.utf8.startIndex,
              NameGuess.discNumber(folderName: String(folder[folder.utf8.index(after: slash)...])) != nil else { return [folder] }
        return [folder, String(folder[..<slash])]
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
    /// be a picture, or cannot be read (`openCoverFile`) or stored.
    public func storeCoverFile(_ path: String) -> String? {
        (try? openCoverFile(path)).flatMap { storeCover(from: $0) }
    }

    /// Opens the cover file at `path` for reading, refusing anything but a regular file inside
    /// the music folders (`FileDescriptor.openRegular`).
    public func openCoverFile(_ path: String) throws(SystemError) -> FileDescriptor {
        try .openRegular(path, inside: musicFolders)
    }

    /// Stores the cover file open as `file` (from `openCoverFile`) and returns its hash; nil
    /// when it is empty, too big to be a picture, or cannot be read or stored. Its type is what
    /// its bytes say (a `cover.jpg` may hold a PNG), else what its name says.
    public func storeCover(from file: FileDescriptor) -> String? {
        guard let bytes = try? file.readAll(limit: Self.maxCoverFileSize), !bytes.isEmpty else { return nil }
        let mime = bytes.withUnsafeBytes { Self.mimeType(of: $0) } ?? Self.mimeType(ofName: file.path)
        return try? store(bytes, mime: mime)
    }

    /// A picture's MIME type from its first bytes (JPEG, PNG, GIF, BMP, and WebP's
    /// `RIFF….WEBP`); nil when they are none of these.
    public static func mimeType(of bytes: UnsafeRawBufferPointer) -> String? {
        let b = Array(bytes.prefix(12))
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if b.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if b.starts(with: Array("BM".utf8)) { return "image/bmp" }
        if b.count >= 12, b[0..<4].elementsEqual("RIFF".utf8), b[8..<12].elementsEqual("WEBP".utf8) { return "image/webp" }
        return nil
    }

    /// A cover file's MIME type from its name's extension, in any case (JPEG where it says
    /// none of the others).
    static func mimeType(ofName path: String) -> String {
        let lower = path.lowercased()
        if lower.hasSuffix(".png") { return "image/png" }
        if lower.hasSuffix(".webp") { return "image/webp" }
        return "image/jpeg"
    }

    /// Opens a stored picture (a path from `path(forHash:)`) for reading, as every file is
    /// opened to be sent: a regular file, inside the store's folder, without waiting.
    public func openPicture(_ path: String) throws(SystemError) -> FileDescriptor {
        try .openRegular(path, inside: ownFolder)
    }

    private func findFolderCover(in folder: String) -> String? {
        Self.coverFiles(in: folder).lazy.compactMap(storeCoverFile).first
    }

    /// Makes `directory` and its missing parents; the art folder itself, when made here, gets
    /// its parent's permissions exactly.
    private static func makeDirectory(_ directory: String) throws(MediaError) {
        var path = directory.hasPrefix("/") ? "" : "."
        let components = directory.split(separator: "/", omittingEmptySubsequences: true)
        for (i, component) in components.enumerated() {
            path += "/\(component)"
            if mkdir(path, 0o755) != 0 {
                guard errno == EEXIST else {
                    throw .unwritable(path: directory, reason: "cannot create the art folder (\(systemErrorText(errno)))")
                }
            } else if i == components.count - 1, let mode = parentMode(of: path) {
                try? SystemCall.setPermissions(of: path, to: mode)
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
            file = try FileDescriptor(path: temp, flags: O_WRONLY | O_CREAT | O_EXCL, mode: fileMode)
        } catch {
            throw .unwritable(path: path, reason: "cannot create a temporary file (\(error.reason))")
        }
        do {
            try file.setPermissions(fileMode)
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

    /// The whole file, or nil if it cannot be read (`FileDescriptor.openRegular`) or is larger
    /// than `limit`.
    static func readFile(_ path: String, limit: Int) -> [UInt8]? {
        try? FileDescriptor.openRegular(path).readAll(limit: limit)
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
        switch mimeType(of: bytes) {
        case "image/jpeg": return "jpg"
        case "image/png": return "png"
        case "image/gif": return "gif"
        case "image/bmp": return "bmp"
        case "image/webp": return "webp"
        default: return "bin"
        }
    }
}
