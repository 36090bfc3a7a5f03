import BoomicCore
import Synchronization

/// For one snapshot, each tag's values and the songs holding them, built the first time a
/// command needs that tag: `list artist` is then the index's keys, and `find album "X"` one
/// lookup instead of a pass over every song (MPD answers those from its own tree; a scan of
/// 50,000 songs was 6× its time). Only songs in the music tree are indexed.
public final class TagIndexes: Sendable {
    private let basis: DataBasis
    private let tree: MusicTree
    private let built = Mutex<[MPDTag: [String: [SongID]]]>([:])
    private let anyText = Mutex<AnyFieldText?>(nil)

    init(basis: DataBasis, tree: MusicTree) {
        self.basis = basis
        self.tree = tree
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

    /// The any-field text of the songs in the tree, laid out on first use (`search any`).
    func anyFieldText() -> AnyFieldText {
        if let done = anyText.withLock({ $0 }) { return done }
        let text = AnyFieldText(basis: basis, inTree: tree.membership())
        anyText.withLock { $0 = text }
        return text
    }
}

extension MPDFilter {
    /// A whole-value, case-sensitive test on a tag that every match must pass (the filter
    /// itself, or one term of its AND): the songs holding that value are the only candidates.
    /// AlbumArtist is left out, since it falls back to Artist.
    var requiredExactTag: (MPDTag, String)? {
        switch self {
        case let .tag(tag?, test) where tag != .albumArtist && test.position == .full && !test.negated
            && test.foldCase != true && !test.value.isEmpty:
            return (tag, test.value)
        case let .and(items):
            return items.lazy.compactMap(\.requiredExactTag).first
        default:
            return nil
        }
    }
}
