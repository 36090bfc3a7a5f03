import BoomicCore

/// The library as MPD clients see it: a tree of directories and songs, with paths relative to
/// the music folder. With one music folder, its contents are the root; with several, each is a
/// top-level directory named after its last component (made unique with ` (2)`, ` (3)` …).
///
/// A client's path is only ever looked up here, never opened on the file system: `../`,
/// absolute paths and names the tree lacks find nothing, while a music folder that is a symlink
/// to a NAS works, since the songs' paths are what the library recorded.
/// Built once per library snapshot; immutable, so any thread may read it.
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
    /// Directory URI ("" is the root) → what it holds.
    private let index: [String: Directory]
    /// Songs outside every music folder (not in the tree), usually none: only those are
    /// checked one by one when filtering.
    private let outside: Set<SongID>

    public init(folders: [String], songs: some Sequence<Song>) {
        let cleaned = folders.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        if cleaned.count == 1 {
            roots = [(cleaned[0], "")]
        } else {
            var taken: Set<String> = []
            roots = cleaned.map { folder in
                let base = folder.split(separator: "/").last.map(String.init) ?? "music"
                var name = base, n = 2
                while !taken.insert(name).inserted {
                    name = "\(base) (\(n))"
                    n += 1
                }
                return (folder, name)
            }
        }
        var index: [String: Directory] = ["": Directory()]
        var pathsByID: [SongID: String] = [:]
        var childSets: [String: Set<String>] = [:]
        for (_, name) in roots where !name.isEmpty {
            childSets["", default: []].insert(name)
            index[name] = Directory()
        }
        let lookup = roots
        var outside: Set<SongID> = []
        for song in songs where !song.missing {
            guard let uri = Self.uri(for: song.path, roots: lookup) else {
                outside.insert(song.id)
                continue
            }
            let parts = uri.split(separator: "/", omittingEmptySubsequences: false)
            var parent = ""
            for part in parts.dropLast() {
                let dir = parent.isEmpty ? String(part) : parent + "/" + part
                childSets[parent, default: []].insert(String(part))
                if index[dir] == nil { index[dir] = Directory() }
                parent = dir
            }
            index[parent, default: Directory()].songs.append(song.id)
            pathsByID[song.id] = song.path
        }
        for (dir, children) in childSets {
            index[dir, default: Directory()].directories = children.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        for dir in index.keys {
            index[dir]!.songs.sort { pathsByID[$0]!.utf8.lexicographicallyPrecedes(pathsByID[$1]!.utf8) }
        }
        self.index = index
        self.outside = outside
    }

    /// Whether a song of the library shows in the tree (it is in a music folder).
    public func contains(_ song: Song) -> Bool { !song.missing && (outside.isEmpty || !outside.contains(song.id)) }

    /// The client's path for a song's file; nil when it lies outside every music folder.
    public func uri(for path: String) -> String? { Self.uri(for: path, roots: roots) }

    private static func uri(for path: String, roots: [(folder: String, name: String)]) -> String? {
        for (folder, name) in roots {
            let prefix = folder == "/" ? "/" : folder + "/"
            guard path.hasPrefix(prefix) else { continue }
            let rest = String(path.dropFirst(prefix.count))
            return name.isEmpty ? rest : name + "/" + rest
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
        index[uri.hasSuffix("/") ? String(uri.dropLast()) : uri]
    }

    /// Every directory under `uri` (itself included) in depth-first, sorted order, with its
    /// contents: what `listall` and `listallinfo` walk.
    public func walk(from uri: String, _ visit: (String, Directory) -> Void) {
        let start = uri.hasSuffix("/") ? String(uri.dropLast()) : uri
        guard let dir = index[start] else { return }
        visit(start, dir)
        for child in dir.directories {
            walk(from: start.isEmpty ? child : start + "/" + child, visit)
        }
    }
}
