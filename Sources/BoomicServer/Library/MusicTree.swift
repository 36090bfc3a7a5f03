import BoomicCore

/// The library as MPD clients see it: a tree of directories and songs, with paths relative to
/// the music folder. With one music folder, its contents are the root; with several, each is a
/// top-level directory named after its last component (made unique with ` (2)`, ` (3)` …).
///
/// A client's path is only ever looked up here, never opened on the file system: `../`,
/// absolute paths and names the tree lacks find nothing, while a music folder that is a symlink
/// to a NAS works, since the songs' paths are what the library recorded.
/// Built once per library snapshot (the first one on a thread of its own, so the server
/// listens meanwhile); immutable, so any thread may read it.
public struct MusicTree: Sendable {
    public struct Directory: Sendable {
        /// Child directories' names, and the songs in it by path, each sorted as MPD sorts
        /// (bytewise). Ids, not songs: a song's fields change far more often than its path, and
        /// are read from the snapshot's basis.
        public var directories: [String] = []
        public var songs: [SongID] = []
    }

    /// Folder (absolute, no trailing slash) → its URI prefix ("" for a single folder).
    private let roots: [(folder: String, name: String)]
    /// The directories and what they hold: a client path's lookups (`uri(for:)`, `path(for:)`)
    /// need only the roots, so a server answers those while this is still being built.
    private let contents: Later<Contents>

    private struct Contents: Sendable {
        /// Directory URI ("" is the root) → what it holds.
        var index: [String: Directory]
        /// Songs outside every music folder (not in the tree), usually none: only those are
        /// checked one by one when filtering.
        var outside: Set<SongID>
    }

    public init(folders: [String], songs: some Sequence<Song>) {
        let roots = Self.roots(folders)
        self.roots = roots
        contents = Later(Self.contents(roots: roots, songs: songs))
    }

    /// The tree of `basis`'s songs, built on a thread of its own: whoever needs a directory
    /// first waits for it (`boomic serve` listens meanwhile).
    /// `then` runs on that thread once the tree is built.
    public init(folders: [String], buildingFrom basis: DataBasis, then: @escaping @Sendable () -> Void = {}) {
        let roots = Self.roots(folders)
        self.roots = roots
        contents = Later {
            let contents = Self.contents(roots: roots, songs: basis.songs.values)
            then()
            return contents
        }
    }

    private static func roots(_ folders: [String]) -> [(folder: String, name: String)] {
        let cleaned = folders.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        if cleaned.count == 1 { return [(cleaned[0], "")] }
        var taken: Set<String> = []
        return cleaned.map { folder in
            let base = folder.split(separator: "/").last.map(String.init) ?? "music"
            var name = base, n = 2
            while !taken.insert(name).inserted {
                name = "\(base) (\(n))"
                n += 1
            }
            return (folder, name)
        }
    }

    /// One pass over the songs grouping them by directory (one string per song: its
    /// directory's URI), then each directory's ancestors, then sorting within directories.
    private static func contents(roots: [(folder: String, name: String)], songs: some Sequence<Song>) -> Contents {
        var files: [String: [(name: Substring, id: SongID)]] = [:]
        var outside: Set<SongID> = []
        for song in songs where !song.missing {
            guard let (root, rest) = relative(song.path, roots: roots) else {
                outside.insert(song.id)
                continue
            }
            let dir: String, name: Substring
            // Bytes, not Characters: a grapheme walk back from the end was half the tree's time.
            if let slash = rest.utf8.lastIndex(of: UInt8(ascii: "/")) {
                let sub = rest[..<slash]
                dir = root.isEmpty ? String(sub) : root + "/" + sub
                name = rest[rest.utf8.index(after: slash)...]
            } else {
                dir = root
                name = rest
            }
            files[dir, default: []].append((name, song.id))
        }
        var index: [String: Directory] = ["": Directory()]
        index.reserveCapacity(files.count * 11 / 10 + roots.count + 1)
        var children: [String: [String]] = [:]
        for (_, name) in roots where !name.isEmpty {
            children["", default: []].append(name)
            index[name] = Directory()
        }
        for dir in files.keys {
            // The directory and each ancestor not seen yet, each named in its parent once.
            var d = dir
            while !d.isEmpty, index[d] == nil {
                index[d] = Directory()
                let slash = d.utf8.lastIndex(of: UInt8(ascii: "/"))
                let parent = slash.map { String(d[..<$0]) } ?? ""
                children[parent, default: []].append(slash.map { String(d[d.utf8.index(after: $0)...]) } ?? d)
                d = parent
            }
        }
        for (dir, names) in children {
            index[dir]!.directories = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        // In one directory a song's path and its name sort alike (the same prefix).
        for (dir, list) in files {
            index[dir]!.songs = list.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }.map(\.id)
        }
        return Contents(index: index, outside: outside)
    }

    /// Whether a song of the library shows in the tree (it is in a music folder).
    public func contains(_ song: Song) -> Bool {
        guard !song.missing else { return false }
        let outside = contents.value.outside
        return outside.isEmpty || !outside.contains(song.id)
    }

    /// `contains` for a pass over many songs: the tree is read once, not per song.
    public func membership() -> @Sendable (Song) -> Bool {
        let outside = contents.value.outside
        if outside.isEmpty { return { !$0.missing } }
        return { !$0.missing && !outside.contains($0.id) }
    }

    /// The client's path for a song's file; nil when it lies outside every music folder.
    public func uri(for path: String) -> String? { Self.uri(for: path, roots: roots) }

    private static func uri(for path: String, roots: [(folder: String, name: String)]) -> String? {
        guard let (root, rest) = relative(path, roots: roots) else { return nil }
        return root.isEmpty ? String(rest) : root + "/" + rest
    }

    /// The root a library path lies under, and the rest of the path after it.
    private static func relative(_ path: String, roots: [(folder: String, name: String)]) -> (String, Substring)? {
        for (folder, name) in roots {
            guard path.utf8.starts(with: folder.utf8) else { continue }
            let afterFolder = path.utf8.index(path.utf8.startIndex, offsetBy: folder.utf8.count)
            if folder == "/" { return (name, path[afterFolder...]) }
            guard afterFolder < path.utf8.endIndex, path.utf8[afterFolder] == UInt8(ascii: "/") else { continue }
            return (name, path[path.utf8.index(after: afterFolder)...])
        }
        return nil
    }

    /// The library path a client's path stands for; nil for anything that is not a clean
    /// relative path into a music folder (absolute, `..`, `.`, empty components).
    public func path(for uri: String) -> String? {
        let trimmed = uri.hasSuffix("/") ? String(uri.dropLast()) : uri
        if trimmed.isEmpty { return roots.count == 1 ? roots[0].folder : nil }
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard !trimmed.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { return nil }
        if roots.count == 1 { return (roots[0].folder == "/" ? "" : roots[0].folder) + "/" + trimmed }
        guard let root = roots.first(where: { $0.name == parts[0] }) else { return nil }
        let rest = parts.dropFirst().joined(separator: "/")
        return rest.isEmpty ? root.folder : root.folder + "/" + rest
    }

    /// What a directory holds; nil when the tree has no such directory.
    public func directory(_ uri: String) -> Directory? {
        contents.value.index[uri.hasSuffix("/") ? String(uri.dropLast()) : uri]
    }

    /// Every directory under `uri` (itself included) in depth-first, sorted order, with its
    /// contents: what `listall` and `listallinfo` walk.
    public func walk(from uri: String, _ visit: (String, Directory) -> Void) {
        let index = contents.value.index
        func walk(_ start: String) {
            guard let dir = index[start] else { return }
            visit(start, dir)
            for child in dir.directories { walk(start.isEmpty ? child : start + "/" + child) }
        }
        walk(uri.hasSuffix("/") ? String(uri.dropLast()) : uri)
    }
}
