import BoomicCore
import BoomicSystem
import Foundation
import Glibc

/// The audio files found under some folders, and the folders that could not be listed.
public struct Walk: Hashable, Sendable {
    /// Every audio file, depth first, each folder's entries in byte order of their names.
    public var files: [ListedFile]
    /// Folders that could not be read. Their files are absent from `files`, which a rescan must
    /// not mistake for deletions.
    public var failures: [MediaError]
    /// Other names of files listed (hard links in the folders walked): one file is one song,
    /// so these are not listed, and an import says how many there were.
    public var otherNames = 0
    /// Hidden copies a tag write left beside their files (its name's shape; whether its writer
    /// is gone is the caller's to ask, `TagWriter.removeStrayCopies`).
    public var strayCopies: [String] = []
    /// Audio files and folders left out because their names are not UTF-8 (an old Windows or
    /// FAT copy in Latin-1): the library keeps paths as text, and a name made valid by
    /// replacing its bytes would name no file. As shown, with U+FFFD for each bad byte.
    public var badNames: [String] = []
    /// For each folder with audio files in it, or with disc folders (`CD1`, `Disc 2`) whose
    /// songs take its cover (`ArtStore.coverFolders`), what its cover files (`ArtStore.coverFileNames`)
    /// look like to `stat`: names, sizes, times; "" when it has none. Songs take a folder's
    /// cover without the audio file changing, so a rescan compares these to see a cover added,
    /// replaced or removed (`LibrarySession.folderCoverMarks`) without reading a picture. Only
    /// covers the store may read count (regular files inside the music folders): a link out is
    /// no cover, and a library whose older import took one as the folder's sees the folder's
    /// covers change at its next rescan, which reads its songs again without it.
    public var covers: [String: String] = [:]
    /// CUE sheets (`.cue`, any case, regular files) in the folders walked: an image they name
    /// comes in as its tracks, track files they name take their fields (`CueSheets`).
    public var sheets: [String] = []

    public init(files: [ListedFile] = [], failures: [MediaError] = [], otherNames: Int = 0, strayCopies: [String] = [],
                badNames: [String] = [], covers: [String: String] = [:], sheets: [String] = []) {
        self.sheets = sheets
        self.files = files
        self.failures = failures
        self.otherNames = otherNames
        self.strayCopies = strayCopies
        self.badNames = badNames
        self.covers = covers
    }
}

extension MediaScanner {
    /// Lists the audio files under `roots` (folders, or single files) with their size and mtime.
    ///
    /// One file, one entry, whatever the route to it: files are told apart by device and inode,
    /// and symbolic links are followed only after every direct route of every root was walked,
    /// so a file (or folder) reached both directly and through a link is listed once, under its
    /// direct route. A link to a place inside one of `homes` (the library's music folders) or of
    /// the roots is listed under that folder's route, not the link's: a link from one music
    /// folder into another does not give the other folder's files a second path. Of two hard
    /// links, the route `known` says the library already has is listed (so its song keeps its
    /// path), else the first in walk order.
    ///
    /// Skips hidden entries (a leading dot: `.git`, macOS `._x.flac` resource forks) and never
    /// opens a file. Uses `openat`/`readdir`/`fstatat` and the directory entry types, so only
    /// audio files and links are stat'ed: this is the whole cost of a rescan that finds nothing
    /// changed. Folders that cannot be read, or lie deeper than `maxDepth`, are reported in
    /// `Walk.failures`; the rest is still listed.
    public static func walk(_ roots: [String], homes: [String] = [], known: (String) -> Bool = { _ in false },
                            options: Options = Options()) -> Walk {
        let roots = roots.map(absolutePath)
        var walker = Walker(extensions: options.extensions, homes: roots + homes.map(absolutePath), confined: options.confined)
        for root in roots {
            walker.walkRoot(root)
        }
        walker.walkLinks()
        var files = walker.files
        for (i, others) in walker.otherRoutes where !known(files[i].path) {
            if let route = others.first(where: known) { files[i].path = route }
        }
        return Walk(files: files, failures: walker.failures, otherNames: walker.otherRoutes.values.reduce(0) { $0 + $1.count },
                    strayCopies: walker.strayCopies, badNames: walker.badNames, covers: walker.covers,
                    sheets: walker.sheets)
    }

    /// Folders deeper than this below a root are not walked (reported in `Walk.failures`): a
    /// tree that deep is almost surely a loop the inode check missed.
    public static let maxDepth = 128

    /// Like `walk`, but throws the first folder that cannot be read.
    public static func list(roots: [String], homes: [String] = [], options: Options = Options()) throws(MediaError) -> [ListedFile] {
        let walk = walk(roots, homes: homes, options: options)
        if let failure = walk.failures.first { throw failure }
        return walk.files
    }

    /// What is at a song's path outside the scanned folders, for a file found inside them with
    /// its audio (`ImportGeneration.plan`'s question): nothing (the file moved in), the same file
    /// by another route (same device and inode), or another file (a copy).
    public static func elsewhere(_ songPath: String, _ filePath: String) -> ImportGeneration.Elsewhere {
        var song = stat(), file = stat()
        guard stat(songPath, &song) == 0 else { return errno == ENOENT || errno == ENOTDIR ? .gone : .otherFile }
        guard stat(filePath, &file) == 0 else { return .otherFile }
        return song.st_dev == file.st_dev && song.st_ino == file.st_ino ? .sameFile : .otherFile
    }

    /// `path` made absolute against the current directory, with `.`/`..` and repeated or
    /// trailing slashes removed.
    static func absolutePath(_ path: String) -> String {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        return standardized.isEmpty ? "/" : standardized
    }
}

/// The state of one walk: results so far and the files and folders already seen.
private struct Walker {
    /// Lower-case extensions as bytes, so entries are matched without building Strings.
    let extensions: Set<[UInt8]>
    /// The routes links are listed under: each folder's path as given, and its real path (made
    /// on first use).
    let homes: [[UInt8]]
    var realHomes: [(route: [UInt8], real: [UInt8])]?
    /// The homes as folders a cover file must lie in (made on first use).
    var fence: ContainingFolders?
    /// `Options.confined`: links leading out of every home are not followed.
    let confined: Bool
    var files: [ListedFile] = []
    var failures: [MediaError] = []
    /// (device, inode) of every folder entered, so symlink loops and overlapping roots end.
    var seen: Set<FileID> = []
    /// (device, inode) of every file listed, with its index in `files`: one entry per file,
    /// whatever the route.
    var seenFiles: [FileID: Int] = [:]
    /// Other routes to a listed file (hard links, links into a home), by index in `files`.
    var otherRoutes: [Int: [String]] = [:]
    /// Whether the folder being walked is reached without a link, or through one into a home
    /// (a route the file lives at); a route through any other link is never preferred.
    var direct = true
    /// Symbolic links met on the way, followed once every direct route was walked.
    var links: [(path: [UInt8], depth: Int)] = []
    /// Hidden copies a tag write makes beside a file (`TagWriter.tempPath`), met on the way.
    var strayCopies: [String] = []
    /// Audio files and folders whose names are not UTF-8 (`Walk.badNames`).
    var badNames: [String] = []
    /// Each folder's cover files as `stat` sees them (`Walk.covers`).
    var covers: [String: String] = [:]
    /// `Walk.sheets`.
    var sheets: [String] = []
    /// Cover file names as bytes, with their rank in `ArtStore.coverFileNames`.
    static let coverRanks = Dictionary(uniqueKeysWithValues: ArtStore.coverFileNames.enumerated().map { (Array($1.utf8), $0) })
    static let longestCoverName = ArtStore.coverFileNames.map(\.utf8.count).max() ?? 0

    /// `.<name>.boomic-<digits>-<hex>.tmp`: the shape of `TagWriter.tempPath`'s names.
    static func isWriteCopy(_ name: [UInt8]) -> Bool {
        let text = String(decoding: name, as: UTF8.self)
        guard text.hasSuffix(".tmp"), let marker = text.range(of: ".boomic-", options: .backwards) else { return false }
        let tail = text[marker.upperBound...].dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
        return tail.count == 2 && !tail[0].isEmpty && tail[0].allSatisfy(\.isASCII) && tail[0].allSatisfy(\.isNumber)
            && !tail[1].isEmpty && tail[1].allSatisfy(\.isHexDigit)
    }

    struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ st: stat) { device = UInt64(st.st_dev); inode = UInt64(st.st_ino) }
    }

    init(extensions: Set<String>, homes: [String], confined: Bool) {
        self.extensions = Set(extensions.map { Array($0.lowercased().utf8) })
        self.homes = homes.map { Array($0.utf8) }
        self.confined = confined
    }

    mutating func walkRoot(_ root: String) {
        var st = stat()
        guard stat(root, &st) == 0 else {
            failures.append(.unreadableFolder(path: root, reason: systemErrorText(errno)))
            return
        }
        let rootBytes = Array(root.utf8)
        if isDirectory(st) {
            let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else {
                failures.append(.unreadableFolder(path: root, reason: systemErrorText(errno)))
                return
            }
            walkFolder(fd: fd, path: rootBytes == [0x2F] ? [] : rootBytes, depth: 0)
        } else if isRegular(st), let name = rootBytes.split(separator: 0x2F).last, isAudio(name) {
            add(path: rootBytes, st)
        }
    }

    /// Follows the links met so far (and those met on the way), each under the route of the
    /// home its target lies in, else under the link's own path.
    mutating func walkLinks() {
        var next = 0
        while next < links.count {
            let (path, depth) = links[next]
            next += 1
            guard let real = realPath(path) else { continue } // dangling, or a loop of links
            var st = stat()
            guard stat(real, &st) == 0 else { continue }
            let home = homeRoute(of: Array(real.utf8))
            if confined && home == nil { continue }
            let route = home ?? path
            direct = home != nil
            defer { direct = true }
            if isDirectory(st) {
                let fd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard fd >= 0 else {
                    failures.append(.unreadableFolder(path: String(decoding: path, as: UTF8.self),
                                                      reason: systemErrorText(errno)))
                    continue
                }
                walkFolder(fd: fd, path: route, depth: depth + 1)
            } else if isRegular(st), isAudio(path.split(separator: 0x2F).last ?? []) {
                add(path: route, st)
            }
        }
    }

    /// Lists the folder open at `fd` (which this closes) whose path is `path`.
    private mutating func walkFolder(fd: Int32, path: [UInt8], depth: Int) {
        var st = stat()
        guard fstat(fd, &st) == 0, seen.insert(FileID(st)).inserted else {
            close(fd)
            return
        }
        guard depth <= MediaScanner.maxDepth else {
            failures.append(.unreadableFolder(path: String(decoding: path, as: UTF8.self),
                                              reason: "more than \(MediaScanner.maxDepth) folders deep; not scanned"))
            close(fd)
            return
        }
        guard let dir = fdopendir(fd) else {
            failures.append(.unreadableFolder(path: String(decoding: path, as: UTF8.self),
                                              reason: systemErrorText(errno)))
            close(fd)
            return
        }
        defer { closedir(dir) } // also closes fd

        var entries: [(name: [UInt8], type: UInt8)] = []
        errno = 0
        while let entry = readdir(dir) {
            let name: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw[..<(raw.firstIndex(of: 0) ?? raw.count)])
            }
            // Hidden entries, "." and "..". Among them, a copy a killed write left beside its
            // file (`.<name>.boomic-<pid>-<random>.tmp`), for the import to remove.
            if name.first == 0x2E {
                if Self.isWriteCopy(name) { strayCopies.append(String(decoding: path + [0x2F] + name, as: UTF8.self)) }
                continue
            }
            entries.append((name, entry.pointee.d_type))
        }
        if errno != 0 {
            failures.append(.unreadableFolder(path: String(decoding: path, as: UTF8.self),
                                              reason: systemErrorText(errno)))
        }
        entries.sort { $0.name.lexicographicallyPrecedes($1.name) }

        var hasAudio = false
        // An album folder above disc folders (`CD1/`, `CD2/`): its cover is its discs'.
        var hasDiscFolders = false
        var coverMarks: [(rank: Int, mark: String)] = []
        defer {
            if hasAudio || hasDiscFolders { covers[String(decoding: path, as: UTF8.self)] = coverMarks.sorted { $0.rank < $1.rank }.map(\.mark).joined(separator: "|") }
        }
        for (name, type) in entries {
            var childPath = path
            childPath.append(0x2F)
            childPath.append(contentsOf: name)
            // Most names are ASCII: only the others are validated (a String each).
            if name.contains(where: { $0 >= 0x80 }), String(validating: name, as: UTF8.self) == nil {
                // A folder, a link or an audio file the walk would have gone into or listed.
                if type != DT_REG || isAudio(name[...]) { badNames.append(String(decoding: childPath, as: UTF8.self)) }
                continue
            }
            let audio = isAudio(name[...])
            if type == DT_DIR, !hasDiscFolders, NameGuess.discNumber(folderName: String(decoding: name, as: UTF8.self)) != nil {
                hasDiscFolders = true
            }
            if audio {
                hasAudio = true
            } else if type != DT_DIR, let mark = coverMark(dirfd: fd, name: name, path: childPath, type: type) {
                coverMarks.append(mark)
            }
            switch Int(type) {
            case Int(DT_REG):
                if !audio, Self.isSheet(name) { sheets.append(String(decoding: childPath, as: UTF8.self)) }
                guard audio else { continue }
                addFile(dirfd: fd, name: name, path: childPath)
            case Int(DT_DIR):
                enter(dirfd: fd, name: name, path: childPath, depth: depth)
            case Int(DT_LNK):
                links.append((childPath, depth))
            default:
                // A file system without d_type: ask lstat what the entry is.
                var st = stat()
                guard withCName(name, { fstatat(fd, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0 else { continue }
                if (st.st_mode & S_IFMT) == S_IFLNK {
                    links.append((childPath, depth))
                } else if isDirectory(st) {
                    enter(dirfd: fd, name: name, path: childPath, depth: depth)
                } else if isRegular(st), audio {
                    add(path: childPath, st)
                }
            }
        }
    }

    /// A cover file's rank and what `stat` says of it (followed if a link: the picture is what
    /// counts); nil for any other name, and for a file the art store would not read (no
    /// regular file, or not inside a home: `ArtStore.openCoverFile`). A regular file in a
    /// folder reached directly is inside; a link, or a file reached through a link out, is
    /// resolved. Names longer than every cover name cost no lowering.
    private mutating func coverMark(dirfd: Int32, name: [UInt8], path: [UInt8], type: UInt8) -> (rank: Int, mark: String)? {
        guard name.count <= Self.longestCoverName,
              let rank = Self.coverRanks[name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }] else { return nil }
        var st = stat()
        guard withCName(name, { fstatat(dirfd, $0, &st, 0) }) == 0, isRegular(st) else { return nil }
        if !(direct && type == DT_REG) {
            if fence == nil { fence = ContainingFolders(homes.map { String(decoding: $0, as: UTF8.self) }) }
            guard fence!.resolvesInside(String(decoding: path, as: UTF8.self)) else { return nil }
        }
        let changed = Int(st.st_ctim.tv_sec) * 1_000_000_000 + Int(st.st_ctim.tv_nsec)
        let modified = Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec)
        return (rank, "\(String(decoding: name, as: UTF8.self)) \(st.st_size) \(modified) \(changed)")
    }

    private mutating func enter(dirfd: Int32, name: [UInt8], path: [UInt8], depth: Int) {
        let child = withCName(name) { openat(dirfd, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW) }
        guard child >= 0 else {
            failures.append(.unreadableFolder(path: String(decoding: path, as: UTF8.self),
                                              reason: systemErrorText(errno)))
            return
        }
        walkFolder(fd: child, path: path, depth: depth + 1)
    }

    private mutating func addFile(dirfd: Int32, name: [UInt8], path: [UInt8]) {
        var st = stat()
        guard withCName(name, { fstatat(dirfd, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0, isRegular(st) else { return }
        add(path: path, st)
    }

    /// Lists a file unless another route to it was listed already.
    private mutating func add(path: [UInt8], _ st: stat) {
        if let listed = seenFiles[FileID(st)] {
            if direct, !files[listed].path.utf8.elementsEqual(path) {
                otherRoutes[listed, default: []].append(String(decoding: path, as: UTF8.self))
            }
            return
        }
        seenFiles[FileID(st)] = files.count
        files.append(ListedFile(path: String(decoding: path, as: UTF8.self), size: Int(st.st_size),
                                mtime: Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec)))
    }

    /// The route under a home for a real path inside that home (the deepest home wins).
    private mutating func homeRoute(of real: [UInt8]) -> [UInt8]? {
        if realHomes == nil {
            realHomes = homes.compactMap { route in realPath(route).map { (route, Array($0.utf8)) } }
        }
        var best: (route: [UInt8], real: [UInt8])?
        for home in realHomes! where real.starts(with: home.real) {
            let rest = real[home.real.count...]
            guard rest.isEmpty || rest.first == 0x2F || home.real == [0x2F] else { continue }
            if best == nil || home.real.count > best!.real.count { best = home }
        }
        guard let best else { return nil }
        let base = best.route == [0x2F] ? [] : best.route
        let rest = best.real == [0x2F] ? real[...] : real[best.real.count...]
        return base + rest
    }

    /// realpath(3): the path with every link, `.` and `..` resolved; nil if it does not resolve.
    private func realPath(_ path: [UInt8]) -> String? {
        withCName(path) { p in
            guard let resolved = realpath(p, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        }
    }

    /// Whether `name` is a CUE sheet's: `.cue` in any case.
    static func isSheet(_ name: [UInt8]) -> Bool {
        name.count > 4 && name.suffix(4).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 } == Array(".cue".utf8)
    }

    /// Whether `name` ends in one of the extensions, ignoring ASCII case.
    private func isAudio(_ name: ArraySlice<UInt8>) -> Bool {
        guard let dot = name.lastIndex(of: 0x2E), dot > name.startIndex else { return false }
        let ext = name[(dot + 1)...].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        return extensions.contains(ext)
    }

    /// Calls `body` with `name` as a NUL-terminated C string.
    private func withCName<R>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        var z = name
        z.append(0)
        return z.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    private func isDirectory(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFDIR }
    private func isRegular(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFREG }
}
