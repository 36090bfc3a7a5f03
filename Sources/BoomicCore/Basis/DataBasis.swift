import HashTreeCollections
import Synchronization

/// The whole library at one moment: songs plus the indexes that queries and browsing need.
///
/// Immutable in use and built on persistent hash trees, so a new basis shares almost all of its
/// structure with the one before it: applying a transaction costs O(size of the change), old
/// snapshots stay valid for readers, and `==` between neighbours skips shared subtrees.
///
/// Only `songs` is stored; the indexes are derived from it, built the first time one is asked
/// for and from then on kept up to date change by change. Most commands (`ls`, `info`, `history`)
/// never ask, and building them is half the cost of opening a library.
/// `invariantViolations()` rebuilds them from scratch and compares.
public struct DataBasis: Sendable, Equatable {
    /// The songs: an image's rows overlaid by what changed since, or every song in memory.
    public private(set) var songs = SongTable()
    private var heldLists = HeldLists.ready(BasisLists())
    /// Taglists, playlists, EQ profiles and annotations: an image's are decoded when first read
    /// (`HeldLists` says why), by whichever copy of this basis reads them first.
    public var lists: BasisLists { heldLists.value }
    /// The user's taglists (DESIGN §5), stored entities so their definitions have history.
    public var taglists: TreeDictionary<ListID, Taglist> { lists.taglists }
    public var playlists: TreeDictionary<ListID, Playlist> { lists.playlists }
    /// Saved equalizer profiles (`boomic eq save`).
    public var eqProfiles: TreeDictionary<ListID, EQProfile> { lists.eqProfiles }
    /// Stars and ratings of albums and artists (`Annotation`), by a key that outlives renames.
    public var annotations: TreeDictionary<AnnotationKey, Annotation> { lists.annotations }
    private var cache = IndexCache()

    /// album → its songs
    public var albums: TreeDictionary<AlbumKey, SongIDSet> { cache.index(\.albums, of: songs, Indexes.albums(of:)) }
    /// folded artist name → songs that name it as an artist or album artist
    public var artists: TreeDictionary<String, SongIDSet> { cache.index(\.artists, of: songs, Indexes.artists(of:)) }
    /// tag (without `#`) → songs carrying it
    public var tags: TreeDictionary<String, SongIDSet> { cache.index(\.tags, of: songs, Indexes.tags(of:)) }
    /// path (by bytes) → songs at that path (one, unless the library holds duplicates), for rescans
    public var paths: TreeDictionary<PathKey, SongIDSet> { cache.index(\.paths, of: songs, Indexes.paths(of:)) }
    /// audio fingerprint → songs, to recognise moved files
    public var fingerprints: TreeDictionary<String, SongIDSet> { cache.index(\.fingerprints, of: songs, Indexes.fingerprints(of:)) }

    public init() {}

    /// A basis holding exactly these songs (for checkpoints and tests). The later of two songs
    /// with the same id wins, as in a transaction.
    public init(songs input: some Sequence<Song>) {
        var all: [SongID: Song] = [:]
        for s in input { all[s.id] = s }
        songs = SongTable(TreeDictionary(uniqueKeysWithValues: all))
    }

    /// A basis with these songs, taglists and playlists (for checkpoints and tests).
    public init(songs input: some Sequence<Song>, taglists: [ListID: Taglist], playlists: [ListID: Playlist],
                eqProfiles: [ListID: EQProfile] = [:], annotations: [AnnotationKey: Annotation] = [:]) {
        self.init(songs: input)
        heldLists = .ready(BasisLists(taglists: taglists, playlists: playlists, eqProfiles: eqProfiles, annotations: annotations))
    }

    /// A basis whose songs are an image's rows, read where they lie (a checkpoint).
    public init(image: any SongImage, taglists: [ListID: Taglist], playlists: [ListID: Playlist],
                eqProfiles: [ListID: EQProfile] = [:], annotations: [AnnotationKey: Annotation] = [:]) {
        songs = SongTable(image: image)
        heldLists = .ready(BasisLists(taglists: taglists, playlists: playlists, eqProfiles: eqProfiles, annotations: annotations))
    }

    /// A basis whose songs are an image's rows and whose lists are decoded by `lists` when first
    /// read (`HeldLists`); `lists` must not fail.
    public init(image: any SongImage, lists: @escaping @Sendable () -> BasisLists) {
        songs = SongTable(image: image)
        heldLists = .owed(OwedLists(lists))
    }

    public static let empty = DataBasis()

    public var isEmpty: Bool { songs.isEmpty }

    public subscript(id: SongID) -> Song? { songs[id] }

    /// The song at a path (the first by id if several claim it).
    public func song(atPath path: String) -> Song? {
        paths[PathKey(path)].flatMap { $0.min() }.flatMap { songs[$0] }
    }

    /// Bases are equal when their entities are: the indexes are derived from them.
    public static func == (a: DataBasis, b: DataBasis) -> Bool {
        a.songs == b.songs && a.lists == b.lists
    }

    /// Whether any index has been built (for tests of the lazy path).
    var hasIndexes: Bool { cache.isBuilt }

    /// Whether the lists are in memory: held as they are, or owed and decoded since (for tests).
    var hasDecodedLists: Bool {
        if case .owed(let owed) = heldLists { return owed.isDecoded }
        return true
    }

    // MARK: Mutation (internal: only the transaction function changes a basis)

    /// Adds or replaces a song, and relinks it in the indexes if they are built.
    mutating func insert(_ song: Song) {
        // The song replaced is read only when an index needs unlinking from it: from an image
        // that is a row materialised, which a transaction of thousands would pay for each.
        insert(song, replacing: ownsBuiltIndexes() ? songs[song.id] : nil)
    }

    /// `insert`, the song it replaces already read (nil: none, or the indexes are not built).
    mutating func insert(_ song: Song, replacing old: Song?) {
        songs.insert(song)
        relink(song, replacing: old)
    }

    /// Replaces `old`, a song just read from this basis, by `song` (an update): the table
    /// knows it holds the song, so it does not look for its row in the image again.
    mutating func update(_ old: Song, to song: Song) {
        songs.replace(song)
        relink(song, replacing: old)
    }

    /// An update of a song, kept as its patch until the song is read (`SongTable.patch`): only
    /// while no index is built, since relinking one reads the song.
    mutating func patch(_ id: SongID, with patch: SongPatch) {
        songs.patch(id, with: patch)
    }

    private mutating func relink(_ song: Song, replacing old: Song?) {
        let old = ownsBuiltIndexes() ? old : nil
        updateIndexes { ix in
            if let old { ix.unlink(old) }
            ix.link(song)
        }
    }

    /// Takes its own copy of the indexes first, built or not, as every change does: one still
    /// shared with the basis before would be built by a reader of that basis with the song in it.
    mutating func remove(_ id: SongID) {
        let old = ownsBuiltIndexes() ? songs[id] : nil
        guard songs.remove(id) else { return }
        if let old { updateIndexes { $0.unlink(old) } }
    }

    /// This basis with only the songs `ids` name: taglists and playlists stay, the indexes are
    /// rebuilt from the kept songs when first asked for (TagViews). Only the kept songs are read.
    func keepingSongs(_ ids: [SongID]) -> DataBasis {
        keeping(songs.songs(ids).map { ($0.key, $0.value) })
    }

    /// This basis with only `kept`, songs already read from it (each once).
    func keepingSongs(_ kept: [Song]) -> DataBasis {
        keeping(kept.map { ($0.id, $0) })
    }

    private func keeping(_ kept: some Sequence<(SongID, Song)>) -> DataBasis {
        var b = self
        b.songs = SongTable(TreeDictionary(uniqueKeysWithValues: kept))
        b.cache = IndexCache()
        return b
    }

    mutating func setTaglist(_ id: ListID, _ value: Taglist?) { changeLists { $0.taglists[id] = value } }
    mutating func setPlaylist(_ id: ListID, _ value: Playlist?) { changeLists { $0.playlists[id] = value } }
    mutating func setEQProfile(_ id: ListID, _ value: EQProfile?) { changeLists { $0.eqProfiles[id] = value } }
    mutating func setAnnotation(_ key: AnnotationKey, _ value: Annotation?) { changeLists { $0.annotations[key] = value } }

    private mutating func changeLists(_ change: (inout BasisLists) -> Void) {
        var lists = heldLists.value
        heldLists = .ready(BasisLists())  // the old value's only reference is `lists`: changed in place
        change(&lists)
        heldLists = .ready(lists)
    }

    /// Whether this basis has indexes to keep up to date, after taking its own copy of them: a
    /// copy shared with another basis could be built by a reader of that one meanwhile.
    mutating func ownsBuiltIndexes() -> Bool {
        if !isKnownUniquelyReferenced(&cache) { cache = cache.copy() }
        return cache.isBuilt
    }

    private mutating func updateIndexes(_ change: (inout Indexes) -> Void) {
        if !isKnownUniquelyReferenced(&cache) { cache = cache.copy() }
        cache.update(change)
    }

    /// The folded names under which a song is listed as an artist.
    static func artistKeys(_ s: Song) -> Set<String> {
        var keys = Set(s.artists.map(Fold.key))
        if let a = s.effectiveAlbumArtist, s.album != nil { keys.insert(Fold.key(a)) }
        keys.remove("")
        return keys
    }
}

extension DataBasis {
    /// Everything derived from the songs, each index present once built (nil until asked for).
    struct Indexes: Equatable, Sendable {
        var albums: TreeDictionary<AlbumKey, SongIDSet>?
        var artists: TreeDictionary<String, SongIDSet>?
        var tags: TreeDictionary<String, SongIDSet>?
        var paths: TreeDictionary<PathKey, SongIDSet>?
        var fingerprints: TreeDictionary<String, SongIDSet>?

        init() {}

        /// Every index, built from scratch (for `invariantViolations`).
        init(songs: SongTable) {
            albums = Self.albums(of: songs)
            artists = Self.artists(of: songs)
            tags = Self.tags(of: songs)
            paths = Self.paths(of: songs)
            fingerprints = Self.fingerprints(of: songs)
        }

        var isEmpty: Bool { albums == nil && artists == nil && tags == nil && paths == nil && fingerprints == nil }

        // One pass over the songs per index, gathered in plain dictionaries first and converted
        // once: much cheaper than inserting into the persistent trees one song at a time.
        static func albums(of songs: SongTable) -> TreeDictionary<AlbumKey, SongIDSet> {
            grouped(songs, [.album, .albumartist, .compilation, .artists]) { s, add in if let k = AlbumKey(s) { add(k) } }
        }
        static func artists(of songs: SongTable) -> TreeDictionary<String, SongIDSet> {
            grouped(songs, [.album, .albumartist, .compilation, .artists]) { s, add in for a in DataBasis.artistKeys(s) { add(a) } }
        }
        static func tags(of songs: SongTable) -> TreeDictionary<String, SongIDSet> {
            grouped(songs, [.tags]) { s, add in for t in s.tags { add(t) } }
        }
        static func paths(of songs: SongTable) -> TreeDictionary<PathKey, SongIDSet> {
            grouped(songs, []) { s, add in add(PathKey(s.path)) }
        }
        static func fingerprints(of songs: SongTable) -> TreeDictionary<String, SongIDSet> {
            grouped(songs, [.fingerprint]) { s, add in if let f = s.fingerprint { add(f) } }
        }

        /// `fields` are those `keys` reads: an image's rows are read for them alone.
        private static func grouped<K: Hashable>(_ songs: SongTable, _ fields: [SongField],
                                                 _ keys: (Song, (K) -> Void) -> Void) -> TreeDictionary<K, SongIDSet> {
            // At most one key a song for the indexes built this way (a path, a fingerprint):
            // room for them all at once, where growing rehashed every path key ~16 times.
            var groups: [K: [SongID]] = [:]
            groups.reserveCapacity(songs.count)
            songs.forEach(reading: fields) { s in keys(s) { groups[$0, default: []].append(s.id) } }
            return TreeDictionary(uniqueKeysWithValues: groups.lazy.map { ($0.key, SongIDSet($0.value)) })
        }

        /// Files the song in every built index.
        mutating func link(_ s: Song) {
            if albums != nil, let k = AlbumKey(s) { albums![k, default: []].insert(s.id) }
            if artists != nil { for a in DataBasis.artistKeys(s) { artists![a, default: []].insert(s.id) } }
            if tags != nil { for t in s.tags { tags![t, default: []].insert(s.id) } }
            paths?[PathKey(s.path), default: []].insert(s.id)
            if fingerprints != nil, let f = s.fingerprint { fingerprints![f, default: []].insert(s.id) }
        }

        mutating func unlink(_ s: Song) {
            if albums != nil, let k = AlbumKey(s) { Self.remove(s.id, from: &albums!, at: k) }
            if artists != nil { for a in DataBasis.artistKeys(s) { Self.remove(s.id, from: &artists!, at: a) } }
            if tags != nil { for t in s.tags { Self.remove(s.id, from: &tags!, at: t) } }
            if paths != nil { Self.remove(s.id, from: &paths!, at: PathKey(s.path)) }
            if fingerprints != nil, let f = s.fingerprint { Self.remove(s.id, from: &fingerprints!, at: f) }
        }

        private static func remove<K: Hashable>(_ id: SongID, from index: inout TreeDictionary<K, SongIDSet>, at key: K) {
            guard index[key] != nil else { return }
            index[key]!.remove(id)
            if index[key]!.isEmpty { index[key] = nil }
        }
    }

    /// The lazily built indexes of one basis, each built the first time it is asked for: an
    /// unchanged rescan needs only paths and fingerprints, and building the album and artist
    /// indexes as well (folding every name) is a quarter of its time at 50,000 songs.
    ///
    /// Shared between copies of a basis until one of them changes (then `copy()`), so it is a
    /// class; its state sits behind a `Mutex` because readers on several threads may ask a shared
    /// basis for its indexes at once.
    final class IndexCache: Sendable {
        private let state: Mutex<Indexes>

        init(_ built: Indexes = Indexes()) { state = Mutex(built) }

        var isBuilt: Bool { state.withLock { !$0.isEmpty } }

        /// The index at `which`, built from `songs` by `build` if it is not yet.
        func index<K: Hashable & Sendable>(_ which: WritableKeyPath<Indexes, TreeDictionary<K, SongIDSet>?>,
                                of songs: SongTable,
                                _ build: (SongTable) -> TreeDictionary<K, SongIDSet>) -> TreeDictionary<K, SongIDSet> {
            state.withLock { ix in
                if let built = ix[keyPath: which] { return built }
                let built = build(songs)
                ix[keyPath: which] = built
                return built
            }
        }

        func copy() -> IndexCache { IndexCache(state.withLock { $0 }) }

        /// Applies a change to the indexes that are built; unbuilt ones stay unbuilt.
        func update(_ change: (inout Indexes) -> Void) {
            state.withLock { ix in
                guard !ix.isEmpty else { return }
                change(&ix)
            }
        }
    }
}
