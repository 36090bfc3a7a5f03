import BoomicCore
import Foundation

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
        /// Child directories' names, in the order MPD lists them (`collated`), and the songs in
        /// it by path, bytewise. The songs themselves, as MPD's tree holds them: a walk of the library
        /// (`listallinfo`) then reads them in order, where looking each id up in the basis costs
        /// a fifth of its time. A commit that changes songs without moving any patches them in
        /// (`updating`), so they are always the snapshot's.
        public var directories: [String] = []
        public var songs: [Song] = []
        /// The newest modification time (seconds since 1970) of a song in it or under it: its
        /// `Last-Modified`. MPD prints the folder's own mtime; the library never stats folders,
        /// and the newest song is what "recently changed" sorting in a client wants.
        public var modified: Int = 0
        /// Playlist files in it (`PlaylistFileFormat`), by name, bytewise.
        public var playlists: [PlaylistFile] = []
    }

    /// A playlist file in a music folder, as MPD lists it beside the songs (`playlist:`) and
    /// loads it by its path; found by `ServerLibrary`'s walk, never by a client's path.
    public struct PlaylistFile: Sendable, Equatable {
        public var name: String
        /// Where the file is, as the walk found it.
        public var path: String
        /// Seconds since 1970.
        public var modified: Int
    }

    /// Folder (absolute, no trailing slash) → its URI prefix ("" for a single folder).
    private let roots: [(folder: String, name: String)]
    /// The directories and what they hold: a client path's lookups (`uri(for:)`, `path(for:)`)
    /// need only the roots, so a server answers those while this is still being built.
    private let contents: Later<Contents>

    private struct Contents: Sendable {
        /// Directory URI ("" is the root) → what it holds. By bytes (`ValueKey`): a folder
        /// `Café` written composed and one written decomposed are two folders on disk, which
        /// `String`'s equality would merge into one.
        var index: [ValueKey: Directory]
        /// Songs outside every music folder (not in the tree), usually none: only those are
        /// checked one by one when filtering.
        var outside: Set<SongID>
    }

    /// The music folders, as given.
    public var folders: [String] { roots.map(\.folder) }

    private init(roots: [(folder: String, name: String)], contents: Contents) {
        self.roots = roots
        self.contents = Later(contents)
    }

    public init(folders: [String], songs: some Sequence<Song>, playlists: [ListedFile] = []) {
        let roots = Self.roots(folders)
        self.roots = roots
        contents = Later(Self.contents(roots: roots, songs: songs, playlists: playlists))
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
    private static func contents(roots: [(folder: String, name: String)], songs: some Sequence<Song>,
                                 playlists: [ListedFile] = []) -> Contents {
        var files: [ValueKey: [(name: Substring, song: Song)]] = [:]
        var outside: Set<SongID> = []
        var lists: [ValueKey: [PlaylistFile]] = [:]
        for file in playlists {
            guard let (root, rest) = relative(file.path, roots: roots) else { continue }
            let slash = rest.utf8.lastIndex(of: UInt8(ascii: "/"))
            let dir = slash.map { root.isEmpty ? String(rest[..<$0]) : root + "/" + rest[..<$0] } ?? root
            let name = slash.map { String(rest[rest.utf8.index(after: $0)...]) } ?? String(rest)
            lists[ValueKey(dir), default: []].append(PlaylistFile(name: name, path: file.path, modified: file.mtime / 1_000_000_000))
        }
        for song in songs where !song.missing {
            guard let (root, rest) = relative(song.uriPath, roots: roots) else {
                outside.insert(song.id)
                continue
            }
            let dir: String, name: Substring
            // Bytes, not Characters: a grapheme walk back from the end costs half the tree's time.
            if let slash = rest.utf8.lastIndex(of: UInt8(ascii: "/")) {
                let sub = rest[..<slash]
                dir = root.isEmpty ? String(sub) : root + "/" + sub
                name = rest[rest.utf8.index(after: slash)...]
            } else {
                dir = root
                name = rest
            }
            files[ValueKey(dir), default: []].append((name, song))
        }
        var index: [ValueKey: Directory] = [ValueKey(""): Directory()]
        index.reserveCapacity(files.count * 11 / 10 + roots.count + 1)
        var children: [ValueKey: [String]] = [:]
        for (_, name) in roots where !name.isEmpty {
            children[ValueKey(""), default: []].append(name)
            index[ValueKey(name)] = Directory()
        }
        for dir in Set(files.keys).union(lists.keys) {
            // The directory and each ancestor not seen yet, each named in its parent once.
            var d = dir.value
            while !d.isEmpty, index[ValueKey(d)] == nil {
                index[ValueKey(d)] = Directory()
                let slash = d.utf8.lastIndex(of: UInt8(ascii: "/"))
                let parent = slash.map { String(d[..<$0]) } ?? ""
                children[ValueKey(parent), default: []].append(slash.map { String(d[d.utf8.index(after: $0)...]) } ?? d)
                d = parent
            }
        }
        for (dir, names) in children { index[dir]!.directories = Self.collated(names) }
        /// Carries a modification time up to each ancestor while it is newer than theirs.
        func carry(_ newest: Int, from dir: String) {
            var d: String? = dir
            while let at = d, index[ValueKey(at)]!.modified < newest {
                index[ValueKey(at)]!.modified = newest
                d = at.isEmpty ? nil : at.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(at[..<$0]) } ?? ""
            }
        }
        for (dir, list) in lists {
            index[dir]!.playlists = list.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            carry(list.reduce(0) { max($0, $1.modified) }, from: dir.value)
        }
        // In one directory a song's path and its name sort alike (the same prefix).
        for (dir, list) in files {
            index[dir]!.songs = list.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }.map(\.song)
            carry(list.reduce(0) { max($0, $1.song.mtime / 1_000_000_000) }, from: dir.value)
        }
        return Contents(index: index, outside: outside)
    }

    /// This tree with `changed` songs' new values in place of their old ones: a commit that
    /// edits tags or counts a play moves no song, and patching its songs in costs a copy of the
    /// directory index instead of a rebuild (100 ms at 50,000 songs). Nil when one of them is
    /// not where the tree has it, or leaves or joins it (a new, moved or now missing song):
    /// rebuild then.
    public func updating(_ changed: some Sequence<Song>) -> MusicTree? {
        var contents = contents.value
        for song in changed {
            let parts = Self.relative(song.uriPath, roots: roots)
            if contents.outside.contains(song.id) {
                if parts == nil && !song.missing { continue }  // outside before and still
                return nil
            }
            guard let (root, rest) = parts else { return nil }
            let dir = rest.utf8.lastIndex(of: UInt8(ascii: "/")).map { slash in
                root.isEmpty ? String(rest[..<slash]) : root + "/" + rest[..<slash]
            } ?? root
            // Among the songs at its path (one, unless the library holds two at the same path).
            let at = contents.index[ValueKey(dir)].flatMap { d in
                Self.position(of: song.uriPath, in: d.songs).flatMap { first in
                    d.songs[first...].prefix { $0.uriPath == song.uriPath }.firstIndex { $0.id == song.id }
                }
            }
            guard let at else {
                if song.missing { continue }  // not in the tree before, nor now
                return nil
            }
            // A new modification time may move its folders' `Last-Modified`: rebuild then.
            guard !song.missing, contents.index[ValueKey(dir)]!.songs[at].mtime == song.mtime else { return nil }
            contents.index[ValueKey(dir)]!.songs[at] = song
        }
        return MusicTree(roots: roots, contents: contents)
    }

    /// Folder names in the order MPD (built with ICU, as Debian's is) lists them: ICU's root
    /// collation (`ucol_open("")`, which Foundation's locale compare uses here too), so case
    /// and accents come second (`foobar`, `iTunes`, `Odd`, `Ärger`), a lower-case name before
    /// its capitalised twin (`abc`, `Abc`, `ABC`), and punctuation before digits before letters
    /// (`_under`, `[brack]`, `#hash`, `~tilde`, `10`, `a b`, `a_b`, `a-b`, `ab`); names ICU holds
    /// equal (a composed and a decomposed `é`) then by bytes, so that the order is total. Byte
    /// order put every lower-case name after `Z`. About 1.3 µs a comparison.
    static func collated(_ names: [String]) -> [String] {
        names.sorted { a, b in
            switch a.compare(b, options: [], range: nil, locale: collation) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: a.utf8.lexicographicallyPrecedes(b.utf8)
            }
        }
    }

    private static let collation = Locale(identifier: "")

    /// Where the song at `path` is among a directory's songs (sorted by path), if there. A CUE
    /// track is at its `uriPath` (`…/image.cue/track0002`), in a directory named after its sheet.
    static func position(of path: String, in songs: [Song]) -> Int? {
        var low = 0, high = songs.count
        while low < high {
            let mid = (low + high) / 2
            if songs[mid].uriPath.utf8.lexicographicallyPrecedes(path.utf8) { low = mid + 1 } else { high = mid }
        }
        return low < songs.count && songs[low].uriPath.utf8.elementsEqual(path.utf8) ? low : nil
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

    /// `uri(for:)` in two parts, the root's name ("" for a single folder) and the rest, for
    /// writing a path out without making a string of it.
    public func uriParts(for path: String) -> (root: String, rest: Substring)? { Self.relative(path, roots: roots) }

    private static func uri(for path: String, roots: [(folder: String, name: String)]) -> String? {
        guard let (root, rest) = relative(path, roots: roots) else { return nil }
        return root.isEmpty ? String(rest) : root + "/" + rest
    }

    /// A byte comparison (`memcmp`), not the generic walk of `starts(with:)`: every song a
    /// walk prints asks it.
    private static func bytes(of path: String, startWith prefix: String) -> Bool {
        let n = prefix.utf8.count
        guard path.utf8.count >= n else { return false }
        let same: Bool?? = path.utf8.withContiguousStorageIfAvailable { p in
            prefix.utf8.withContiguousStorageIfAvailable { f in n == 0 || memcmp(p.baseAddress!, f.baseAddress!, n) == 0 }
        }
        return (same ?? nil) ?? path.utf8.starts(with: prefix.utf8)
    }

    /// The root a library path lies under, and the rest of the path after it.
    private static func relative(_ path: String, roots: [(folder: String, name: String)]) -> (String, Substring)? {
        for (folder, name) in roots {
            guard Self.bytes(of: path, startWith: folder) else { continue }
            let afterFolder = path.utf8.index(path.utf8.startIndex, offsetBy: folder.utf8.count)
            if folder == "/" { return (name, path[afterFolder...]) }
            guard afterFolder < path.utf8.endIndex, path.utf8[afterFolder] == UInt8(ascii: "/") else { continue }
            return (name, path[path.utf8.index(after: afterFolder)...])
        }
        return nil
    }

    /// The library path a client's path stands for; nil for anything that is not a clean
    /// relative path into a music folder (absolute, `..`, `.`, empty components, a trailing `/`:
    /// MPD refuses `Album/` too, so a client that works here works there).
    public func path(for uri: String) -> String? {
        if uri.isEmpty { return roots.count == 1 ? roots[0].folder : nil }
        let parts = uri.split(separator: "/", omittingEmptySubsequences: false)
        guard !uri.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { return nil }
        if roots.count == 1 { return (roots[0].folder == "/" ? "" : roots[0].folder) + "/" + uri }
        guard let root = roots.first(where: { $0.name == parts[0] }) else { return nil }
        let rest = parts.dropFirst().joined(separator: "/")
        return rest.isEmpty ? root.folder : root.folder + "/" + rest
    }

    /// The playlist file a client's path names; nil when the tree has none there.
    public func playlist(at uri: String) -> PlaylistFile? {
        let slash = uri.utf8.lastIndex(of: UInt8(ascii: "/"))
        let dir = slash.map { String(uri[..<$0]) } ?? ""
        let name = slash.map { String(uri[uri.utf8.index(after: $0)...]) } ?? uri
        return directory(dir)?.playlists.first { $0.name.sameBytes(as: name) }
    }

    /// What a directory holds; nil when the tree has no such directory.
    public func directory(_ uri: String) -> Directory? {
        contents.value.index[ValueKey(uri)]
    }

    /// Every song in the tree, folder by folder: a pass over the library reads them in the
    /// order their storage lies in memory (checkpoints are written in path order), where the
    /// basis's hash order jumped about it.
    public func allSongs() -> [Song] {
        var out: [Song] = []
        walk(from: "") { _, dir in out.append(contentsOf: dir.songs) }
        return out
    }

    /// Every directory under `uri` (itself included) in depth-first, sorted order, with its
    /// contents: what `listall` and `listallinfo` walk.
    public func walk(from uri: String, _ visit: (String, Directory) -> Void) {
        let index = contents.value.index
        func walk(_ start: String) {
            guard let dir = index[ValueKey(start)] else { return }
            visit(start, dir)
            for child in dir.directories { walk(start.isEmpty ? child : start + "/" + child) }
        }
        walk(uri)
    }
}
