import HashTreeCollections

/// The whole library at one moment: songs plus the indexes that queries and browsing need.
///
/// Immutable in use and built on persistent hash trees, so a new basis shares almost all of its
/// structure with the one before it: applying a transaction costs O(size of the change), old
/// snapshots stay valid for readers, and `==` between neighbours skips shared subtrees.
/// Everything but `songs` is derived; `checkInvariants()` rebuilds it from scratch and compares.
public struct DataBasis: Sendable, Equatable {
    public private(set) var songs: TreeDictionary<SongID, Song> = [:]
    /// album → its songs
    public private(set) var albums: TreeDictionary<AlbumKey, SongIDSet> = [:]
    /// folded artist name → songs that name it as an artist or album artist
    public private(set) var artists: TreeDictionary<String, SongIDSet> = [:]
    /// tag (without `#`) → songs carrying it
    public private(set) var tags: TreeDictionary<String, SongIDSet> = [:]
    /// path → songs at that path (one, unless the library holds duplicates), for rescans
    public private(set) var paths: TreeDictionary<String, SongIDSet> = [:]
    /// audio fingerprint → songs, to recognise moved files
    public private(set) var fingerprints: TreeDictionary<String, SongIDSet> = [:]

    public init() {}

    /// A basis holding exactly these songs (for checkpoints and tests).
    ///
    /// Builds the indexes in plain dictionaries first and converts each once: opening a library
    /// decodes a checkpoint and calls this, so it is on the path of every command.
    public init(songs input: some Sequence<Song>) {
        let songs = Array(input)
        var songs0: [SongID: Song] = [:]
        var albums0: [AlbumKey: [SongID]] = [:], artists0: [String: [SongID]] = [:]
        var tags0: [String: [SongID]] = [:], paths0: [String: [SongID]] = [:], prints0: [String: [SongID]] = [:]
        for s in songs {
            if songs0.updateValue(s, forKey: s.id) != nil {
                // A duplicate id: the later song wins, as `insert` does. Never in a checkpoint.
                var b = DataBasis()
                for s in songs { b.insert(s) }
                self = b
                return
            }
            if let k = AlbumKey(s) { albums0[k, default: []].append(s.id) }
            for a in Self.artistKeys(s) { artists0[a, default: []].append(s.id) }
            for t in s.tags { tags0[t, default: []].append(s.id) }
            paths0[s.path, default: []].append(s.id)
            if let f = s.fingerprint { prints0[f, default: []].append(s.id) }
        }
        self.songs = TreeDictionary(uniqueKeysWithValues: songs0)
        self.albums = TreeDictionary(uniqueKeysWithValues: albums0.lazy.map { ($0.key, SongIDSet($0.value)) })
        self.artists = TreeDictionary(uniqueKeysWithValues: artists0.lazy.map { ($0.key, SongIDSet($0.value)) })
        self.tags = TreeDictionary(uniqueKeysWithValues: tags0.lazy.map { ($0.key, SongIDSet($0.value)) })
        self.paths = TreeDictionary(uniqueKeysWithValues: paths0.lazy.map { ($0.key, SongIDSet($0.value)) })
        self.fingerprints = TreeDictionary(uniqueKeysWithValues: prints0.lazy.map { ($0.key, SongIDSet($0.value)) })
    }

    public static let empty = DataBasis()

    public var isEmpty: Bool { songs.isEmpty }

    public subscript(id: SongID) -> Song? { songs[id] }

    /// The song at a path (the first by id if several claim it).
    public func song(atPath path: String) -> Song? {
        paths[path].flatMap { $0.min() }.flatMap { songs[$0] }
    }

    // MARK: Mutation (internal: only the transaction function changes a basis)

    /// Adds or replaces a song and links it into every index.
    mutating func insert(_ song: Song) {
        if let old = songs[song.id] { unlink(old) }
        songs[song.id] = song
        link(song)
    }

    mutating func remove(_ id: SongID) {
        guard let old = songs.removeValue(forKey: id) else { return }
        unlink(old)
    }

    private mutating func link(_ s: Song) {
        if let k = AlbumKey(s) { albums[k, default: []].insert(s.id) }
        for a in Self.artistKeys(s) { artists[a, default: []].insert(s.id) }
        for t in s.tags { tags[t, default: []].insert(s.id) }
        paths[s.path, default: []].insert(s.id)
        if let f = s.fingerprint { fingerprints[f, default: []].insert(s.id) }
    }

    private mutating func unlink(_ s: Song) {
        if let k = AlbumKey(s) { Self.remove(s.id, from: &albums, at: k) }
        for a in Self.artistKeys(s) { Self.remove(s.id, from: &artists, at: a) }
        for t in s.tags { Self.remove(s.id, from: &tags, at: t) }
        Self.remove(s.id, from: &paths, at: s.path)
        if let f = s.fingerprint { Self.remove(s.id, from: &fingerprints, at: f) }
    }

    private static func remove<K: Hashable>(_ id: SongID, from index: inout TreeDictionary<K, SongIDSet>, at key: K) {
        guard index[key] != nil else { return }
        index[key]!.remove(id)
        if index[key]!.isEmpty { index[key] = nil }
    }

    /// The folded names under which a song is listed as an artist.
    static func artistKeys(_ s: Song) -> Set<String> {
        var keys = Set(s.artists.map(Fold.key))
        if let a = s.effectiveAlbumArtist, s.album != nil { keys.insert(Fold.key(a)) }
        keys.remove("")
        return keys
    }
}
