import BoomicCore
import Synchronization

/// For one snapshot, each tag's values and the songs holding them, built the first time a
/// command needs that tag: `list artist` is then the index's keys, and `find album "X"` one
/// lookup instead of a pass over every song (MPD answers those from its own tree; a scan of
/// 50,000 songs is 6× its time). Only songs in the music tree are indexed.
public final class TagIndexes: Sendable {
    private let basis: DataBasis
    private let tree: MusicTree
    private let built = Mutex<[MPDTag: [String: [SongID]]]>([:])
    private let anyText = Mutex<AnyFieldText?>(nil)
    private let stats = Mutex<LibraryStats?>(nil)
    /// By tag name; every unkept tag shares the column of "" (under "").
    private let columns = Mutex<[String: TagColumn]>([:])
    private let durations = Mutex<[Double]?>(nil)
    private let ordered = Mutex<[Song]?>(nil)
    private let ranks = Mutex<[SongID: Int]?>(nil)

    init(basis: DataBasis, tree: MusicTree) {
        self.basis = basis
        self.tree = tree
    }

    /// The indexes of a snapshot that differs from `earlier`'s only in what stickers show
    /// (plays and ratings: a song ending is such a commit): every tag's values and index, the
    /// any-field text, the counts and the durations are `earlier`'s, so browsing while music
    /// plays does not build them again after every song. The columns' positions hold, since
    /// the tree's order is its songs' paths, which such a change leaves alone; the songs
    /// themselves are read anew (`orderedSongs`).
    init(basis: DataBasis, tree: MusicTree, carrying earlier: TagIndexes) {
        self.basis = basis
        self.tree = tree
        built.withLock { $0 = earlier.built.withLock { $0 } }
        anyText.withLock { $0 = earlier.anyText.withLock { $0 } }
        stats.withLock { $0 = earlier.stats.withLock { $0 } }
        columns.withLock { $0 = earlier.columns.withLock { $0 } }
        durations.withLock { $0 = earlier.durations.withLock { $0 } }
    }

    public func index(_ tag: MPDTag) -> [String: [SongID]] {
        if let done = built.withLock({ $0[tag] }) { return done }
        var index: [String: [SongID]] = [:]
        let inTree = tree.membership()
        for song in basis.songs.values where inTree(song) {
            for value in MPDResponse.values(of: tag, in: song) { index[value, default: []].append(song.id) }
        }
        built.withLock { $0[tag] = index }
        return index
    }

    /// A tag's values for every song of the tree, as numbers (`TagColumn`).
    func column(_ level: TagLevel) -> TagColumn { columns(for: [level])[0] }

    /// The columns of several tags, those not built yet built in one pass.
    func columns(for levels: [TagLevel]) -> [TagColumn] {
        func key(_ level: TagLevel) -> String { level.tag?.rawValue ?? "" }
        var done = columns.withLock { built in levels.map { built[key($0)] } }
        var missing: [TagLevel] = []
        for (level, column) in zip(levels, done) where column == nil && !missing.contains(where: { key($0) == key(level) }) {
            missing.append(level)
        }
        if !missing.isEmpty {
            let made = TagColumn.build(missing, songs: orderedSongs())
            columns.withLock { built in for (level, column) in zip(missing, made) { built[key(level)] = column } }
            for (i, level) in levels.enumerated() where done[i] == nil {
                done[i] = made[missing.firstIndex { key($0) == key(level) }!]
            }
        }
        return done.map { $0! }
    }

    /// What browsers ask first (ncmpcpp's and Cantata's library views, M.A.L.P.'s album
    /// list): the columns of album, album artist, artist, date and genre, in one pass, and the
    /// counts of `stats`; and what clients used of the snapshots before (`inheritWants`).
    func warm() {
        let w = wants.withLock { $0 }
        _ = columns(for: Set<MPDTag>([.album, .albumArtist, .artist, .date, .genre]).union(w.columns).sorted { $0.rawValue < $1.rawValue }
            .map { TagLevel($0) })
        _ = libraryStats()
        for tag in w.tags { _ = index(tag) }
        if w.anyText { _ = anyFieldText() }
        if w.ranks { _ = songRanks() }
    }

    /// What clients used of the snapshots before this one, to be made for this one too by
    /// `warm`: the indexes of `find TAG VALUE`, the any-field text of `search any`, other
    /// columns, the songs' places. Each takes 30–60 ms at 50,000 songs, paid by the first
    /// command after every edit if not carried over (with a commit every few seconds, `find`'s
    /// median would be 32 ms, MPD's 6 ms); a snapshot's own indexes are never patched, so they are made again.
    private struct Wants: Sendable {
        var tags: Set<MPDTag> = []
        var columns: Set<MPDTag> = []
        var anyText = false
        var ranks = false
    }
    private let wants = Mutex(Wants())

    /// Takes on what `earlier` built or wanted (it may have been replaced before anyone asked).
    func inheritWants(from earlier: TagIndexes) {
        var w = earlier.wants.withLock { $0 }
        w.tags.formUnion(earlier.built.withLock { $0.keys })
        w.columns.formUnion(earlier.columns.withLock { $0.keys }.compactMap { MPDTag(rawValue: $0) })
        w.anyText = w.anyText || earlier.anyText.withLock { $0 != nil }
        w.ranks = w.ranks || earlier.ranks.withLock { $0 != nil }
        wants.withLock { $0 = w }
    }

    /// The tags whose columns this snapshot holds now (MPD's names; "" for the unkept ones).
    var builtColumns: Set<String> { columns.withLock { Set($0.keys) } }
    /// The tags whose `find` indexes this snapshot holds now.
    var builtIndexes: Set<MPDTag> { built.withLock { Set($0.keys) } }
    /// Whether the any-field text is laid out.
    var hasAnyFieldText: Bool { anyText.withLock { $0 != nil } }

    /// The tree's songs in the columns' order: song `i` of a column.
    func orderedSongs() -> [Song] { once(ordered) { tree.allSongs() } }

    /// Each song's place in the tree's order (`orderedSongs`): MPD lists what a search finds in
    /// its database's order, folders collated as `listall` shows them, not by the path's bytes.
    func songRanks() -> [SongID: Int] {
        once(ranks) { Dictionary(uniqueKeysWithValues: orderedSongs().enumerated().map { ($1.id, $0) }) }
    }

    /// Every song's duration in seconds (0 when unknown), in the columns' order: the
    /// playtime `count group` adds up.
    func songDurations() -> [Double] { once(durations) { orderedSongs().map { $0.duration ?? 0 } } }

    /// What `stats` tells of the library, counted once per snapshot: clients ask it on
    /// connecting and after each database change, and a pass over 50,000 songs takes 50 ms
    /// where MPD answers from its own count.
    func libraryStats() -> LibraryStats { once(stats) { countStats() } }

    private func countStats() -> LibraryStats {
        // As MPD counts them: the distinct Artist and Album values (the credit where a file has
        // one), told apart by their bytes.
        var artists: Set<ValueKey> = [], albums: Set<ValueKey> = []
        var counted = LibraryStats()
        for song in basis.songs.values where !song.missing {
            MPDResponse.forEachValue(of: .artist, in: song) { artists.insert(ValueKey($0)) }
            if let album = song.album, !album.isEmpty { albums.insert(ValueKey(album)) }
            counted.playtime += song.duration ?? 0
            counted.songs += 1
            counted.newest = max(counted.newest, song.added)
        }
        counted.artists = artists.count
        counted.albums = albums.count
        return counted
    }

    /// The any-field text of the songs in the tree, laid out on first use (`search any`).
    func anyFieldText() -> AnyFieldText { once(anyText) { AnyFieldText(basis: basis, inTree: tree.membership()) } }

    /// The value in `slot`, made and kept there the first time. Two commands asking at once may
    /// both make it (outside the lock, so neither waits on the other's pass over the library);
    /// both make the same value, from the same snapshot.
    private func once<Value: Sendable>(_ slot: borrowing Mutex<Value?>, _ make: () -> Value) -> Value {
        if let done = slot.withLock({ $0 }) { return done }
        let made = make()
        slot.withLock { $0 = made }
        return made
    }
}

extension MPDFilter {
    /// A test on one tag's values that every match must pass (the filter itself, or one term
    /// of its AND), and whether it is the whole filter: the songs holding a value that passes
    /// are the candidates, found from the tag's column by testing each distinct value once.
    /// A test that any song passes (contains "", an empty regex) is none.
    var requiredTagTest: (tag: MPDTag, test: StringTest, whole: Bool)? {
        switch self {
        case let .tag(tag?, test) where !test.negated && !(test.value.isEmpty && test.position != .full):
            return (tag, test, true)
        case let .and(items):
            return items.lazy.compactMap(\.requiredTagTest).first.map { ($0.tag, $0.test, false) }
        default:
            return nil
        }
    }

    /// A whole-value, case-sensitive test on a tag that every match must pass (the filter
    /// itself, or one term of its AND): the songs holding that value are the only candidates.
    /// AlbumArtist's index holds the artist of a song without one, as its filter matches.
    var requiredExactTag: (MPDTag, String)? {
        switch self {
        case let .tag(tag?, test) where test.position == .full && !test.negated
            && test.foldCase != true && !test.value.isEmpty:
            return (tag, test.value)
        case let .and(items):
            return items.lazy.compactMap(\.requiredExactTag).first
        default:
            return nil
        }
    }
}

/// The library's counts as `stats` prints them.
struct LibraryStats: Sendable, Equatable {
    var artists = 0
    var albums = 0
    var songs = 0
    /// Seconds of music.
    var playtime = 0.0
    /// When the newest song was added (seconds since 1970).
    var newest = 0.0
}
