/// Annotations follow their album or artist through a rename.
///
/// An annotation keyed by names (no MusicBrainz id) would be left behind by `modify album=…`:
/// its key names an album no song is on any more. So an edit's assertions are completed here,
/// in the same transaction, by moving each such annotation to the album or artist its songs went
/// to, when the move is unambiguous:
/// - no song of the library is left under the old key after the edit, and
/// - every song that was under it is, after the edit, under one same new key (for an artist:
///   the songs gained exactly one artist name in common), and
/// - that key holds no annotation of its own (an album renamed onto a starred album keeps that
///   album's star; the old one is dropped with its key).
///
/// An album split in two, or an artist whose songs went to several names, keeps nothing: which
/// one the star meant cannot be told. A key by MusicBrainz id survives renames by itself and is
/// never moved. `undo` takes back the rename and the move together.
extension AnnotationGeneration {
    /// `assertions` (an edit generated on `basis`) with the annotation moves its renames imply.
    ///
    /// Complexity: O(size of the edit) when the library has no annotation by name under a key
    /// the edit touches (the common case costs one look-up per changed song); otherwise it also
    /// reads the album or artist index of the basis after the edit.
    public static func carried(_ assertions: [Assertion], on basis: DataBasis) -> [Assertion] {
        guard basis.annotations.keys.contains(where: \.isByName) else { return assertions }
        var albumMoves: [AnnotationKey: Set<AnnotationKey?>] = [:]
        var artistMoves: [AnnotationKey: [Set<AnnotationKey>]] = [:]
        for a in assertions {
            guard case .updateSong(let id, let patch) = a, let old = basis[id] else { continue }
            let new = old.applying(patch)
            if let k = AnnotationKey.album(of: old), k.isByName, basis.annotations[k] != nil {
                albumMoves[k, default: []].insert(AnnotationKey.album(of: new))
            }
            let oldArtists = AnnotationKey.artistNameKeys(of: old), newArtists = AnnotationKey.artistNameKeys(of: new)
            for k in oldArtists.subtracting(newArtists) where basis.annotations[k] != nil {
                artistMoves[k, default: []].append(newArtists.subtracting(oldArtists))
            }
        }
        guard !albumMoves.isEmpty || !artistMoves.isEmpty else { return assertions }
        let after = basis.applying(assertions)
        var out = assertions
        var taken = Set<AnnotationKey>()
        for (from, targets) in albumMoves.sorted(by: { $0.key < $1.key }) {
            guard targets.count == 1, let to = targets.first!, to != from,
                  !albumRemains(from, in: after, changed: assertions) else { continue }
            move(from, to, on: basis, into: &out, taken: &taken)
        }
        for (from, gained) in artistMoves.sorted(by: { $0.key < $1.key }) {
            let common = gained.dropFirst().reduce(gained[0]) { $0.intersection($1) }
            guard common.count == 1, let to = common.first, after.artists[from.names[0]] == nil else { continue }
            move(from, to, on: basis, into: &out, taken: &taken)
        }
        return out
    }

    private static func move(_ from: AnnotationKey, _ to: AnnotationKey, on basis: DataBasis,
                             into out: inout [Assertion], taken: inout Set<AnnotationKey>) {
        guard let value = basis.annotations[from], basis.annotations[to] == nil, taken.insert(to).inserted else { return }
        out.append(.annotation(from, EntityChange(old: value, new: nil)))
        out.append(.annotation(to, EntityChange(old: nil, new: value)))
    }

    /// Whether some song is still on the album `key` names after the edit. By name, so through
    /// the album index; an album key by name is an `AlbumKey`'s two folded names.
    private static func albumRemains(_ key: AnnotationKey, in after: DataBasis, changed: [Assertion]) -> Bool {
        guard let songs = after.albums[AlbumKey(artist: key.names[0], title: key.names[1])] else { return false }
        // A song with a MusicBrainz id files under the same `AlbumKey` but not under this key.
        return songs.contains { id in after[id].flatMap(AnnotationKey.album(of:)) == key }
    }
}
