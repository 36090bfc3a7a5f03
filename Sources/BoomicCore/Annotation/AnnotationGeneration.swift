/// The generation functions of starring and rating: intent → assertions, on the latest basis.
///
/// A song's star is its `favorite` field and its rating its `rating` field (0–5 stars, nil for
/// none); an album's or artist's are an `Annotation` under its `AnnotationKey`. Asking for what is
/// already so gives no assertions (starring a starred album keeps the date it was first starred),
/// so no transaction is committed.
public enum AnnotationGeneration {
    /// The stars a rating may have; 0 clears the rating.
    public static let ratings = 0...5

    /// Stars (`starred` true) or unstars songs; songs not in the library are skipped.
    public static func star(songs ids: [SongID], _ starred: Bool, on basis: DataBasis) -> [Assertion] {
        unique(ids).compactMap { id in
            guard let old = basis[id], old.favorite != starred else { return nil }
            return .updateSong(id, [.favorite: FieldChange(old: .bool(old.favorite), new: .bool(starred))])
        }
    }

    /// Rates songs from 1 to 5 stars, or clears their rating with 0.
    public static func rate(songs ids: [SongID], _ rating: Int, on basis: DataBasis) throws(AnnotationError) -> [Assertion] {
        let new = try validated(rating)
        return unique(ids).compactMap { id in
            guard let old = basis[id], old.rating != new else { return nil }
            return .updateSong(id, [.rating: FieldChange(old: old.rating.map(FieldValue.int) ?? .null,
                                                         new: new.map(FieldValue.int) ?? .null)])
        }
    }

    /// Stars albums or artists at `time` (seconds since 1970), or unstars them when `time` is nil.
    public static func star(_ keys: [AnnotationKey], at time: Double?, on basis: DataBasis) -> [Assertion] {
        unique(keys).compactMap { key in
            change(key, on: basis) { a in
                if time == nil { a.starred = nil } else if a.starred == nil { a.starred = time }
            }
        }
    }

    /// Rates albums or artists from 1 to 5 stars, or clears their rating with 0.
    public static func rate(_ keys: [AnnotationKey], _ rating: Int, on basis: DataBasis) throws(AnnotationError) -> [Assertion] {
        let new = try validated(rating)
        return unique(keys).compactMap { key in change(key, on: basis) { $0.rating = new } }
    }

    private static func change(_ key: AnnotationKey, on basis: DataBasis, _ body: (inout Annotation) -> Void) -> Assertion? {
        let old = basis.annotations[key]
        var new = old ?? Annotation()
        body(&new)
        let kept = new.isEmpty ? nil : new
        guard kept != old else { return nil }
        return .annotation(key, EntityChange(old: old, new: kept))
    }

    private static func validated(_ rating: Int) throws(AnnotationError) -> Int? {
        guard ratings.contains(rating) else { throw .badRating(rating) }
        return rating == 0 ? nil : rating
    }

    /// Each id once, in the order first given: a client that names a song twice stars it once.
    private static func unique<T: Hashable>(_ items: [T]) -> [T] {
        var seen = Set<T>()
        return items.filter { seen.insert($0).inserted }
    }
}
