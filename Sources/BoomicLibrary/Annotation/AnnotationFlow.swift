import BoomicCore
import Foundation

/// The annotation calls of a network API (OpenSubsonic's `star`, `unstar`, `setRating`), one
/// function per call and one transaction per call, with the caller in its provenance and label
/// (`star Nico - Chelsea Girls, album "chelsea girl" by anna via Symfonium`).
///
/// Each is generated on the latest basis under the write lock (`LibrarySession.commit`), so a
/// star never overwrites another process's edit; a call that changes nothing (starring what is
/// starred) commits nothing and returns nil. Stars and ratings are edits, not plays: `boomic
/// undo` takes them back. Favourites and ratings are the household's: one library shared by its
/// users, so anna's star is bob's too, and the provenance says who set it.
public enum AnnotationFlow {
    /// Stars songs (their `favorite` field) and albums and artists (an `Annotation` starred at
    /// `time`, seconds since 1970), all in one transaction of kind `star`.
    ///
    /// - Throws: `AnnotationError.songNotFound` when a song id is not in the library (nothing is
    ///   committed).
    @discardableResult
    public static func star(_ lib: LibrarySession, songs: [SongID] = [], others keys: [AnnotationKey] = [],
                            by caller: Caller, at time: Double) throws -> (seq: Int, transaction: Transaction)? {
        try lib.commit(kind: .star, message: nil, caller: caller) { basis in
            try requireSongs(songs, in: basis)
            let a = AnnotationGeneration.star(songs: songs, true, on: basis) + AnnotationGeneration.star(keys, at: time, on: basis)
            return a.isEmpty ? nil : (a, label("star", a, basis) + caller.byLine)
        }
    }

    /// Unstars songs, albums and artists, in one transaction of kind `star`.
    @discardableResult
    public static func unstar(_ lib: LibrarySession, songs: [SongID] = [], others keys: [AnnotationKey] = [],
                              by caller: Caller) throws -> (seq: Int, transaction: Transaction)? {
        try lib.commit(kind: .star, message: nil, caller: caller) { basis in
            try requireSongs(songs, in: basis)
            let a = AnnotationGeneration.star(songs: songs, false, on: basis) + AnnotationGeneration.star(keys, at: nil, on: basis)
            return a.isEmpty ? nil : (a, label("unstar", a, basis) + caller.byLine)
        }
    }

    /// Rates a song from 1 to 5 stars, 0 clearing it (`setRating`; Boomic's `rating` field holds
    /// the same 0–5 stars, MPD's sticker 0–10 maps onto it), as a transaction of kind `rating`.
    @discardableResult
    public static func setRating(_ lib: LibrarySession, song: SongID, rating: Int,
                                 by caller: Caller) throws -> (seq: Int, transaction: Transaction)? {
        try lib.commit(kind: .rating, message: nil, caller: caller) { basis in
            try requireSongs([song], in: basis)
            let a = try AnnotationGeneration.rate(songs: [song], rating, on: basis)
            return a.isEmpty ? nil : (a, ratingLabel(rating, a, basis) + caller.byLine)
        }
    }

    /// Rates an album or an artist from 1 to 5 stars, 0 clearing it.
    @discardableResult
    public static func setRating(_ lib: LibrarySession, _ key: AnnotationKey, rating: Int,
                                 by caller: Caller) throws -> (seq: Int, transaction: Transaction)? {
        try lib.commit(kind: .rating, message: nil, caller: caller) { basis in
            let a = try AnnotationGeneration.rate([key], rating, on: basis)
            return a.isEmpty ? nil : (a, ratingLabel(rating, a, basis) + caller.byLine)
        }
    }

    /// When each of `songs` that is starred was starred (seconds since 1970): the time of the
    /// transaction that last set its `favorite` (`blame`), as OpenSubsonic's `starred` attribute
    /// gives it; songs not starred are left out. A song's star is a field, not an entity with a
    /// date of its own, so this reads the log back to the oldest such transaction: a front
    /// answering `getStarred2` often keeps the answer until the head moves.
    public static func starredDates(_ lib: LibrarySession, songs: [SongID]) throws -> [SongID: Double] {
        let basis = lib.basis
        let starred = Set(songs.filter { basis[$0]?.favorite == true })
        guard !starred.isEmpty else { return [:] }
        let origins = try lib.blame(starred, fields: [.favorite]).fields
        var times: [Int: Double] = [:]
        var out: [SongID: Double] = [:]
        for (id, fields) in origins {
            guard let seq = fields[.favorite]?.seq else { continue }
            if times[seq] == nil { times[seq] = try lib.transactor.summaries(from: seq, through: seq).first?.time }
            out[id] = times[seq]
        }
        return out
    }

    private static func requireSongs(_ ids: [SongID], in basis: DataBasis) throws(AnnotationError) {
        if let missing = ids.first(where: { basis[$0] == nil }) { throw .songNotFound(missing) }
    }

    private static func ratingLabel(_ rating: Int, _ a: [Assertion], _ basis: DataBasis) -> String {
        label(rating == 0 ? "unrate" : "rate \(rating)", a, basis)
    }

    /// `star Nico - These Days`, `star 3 songs, album "chelsea girl"`: the label's subject.
    static func label(_ verb: String, _ assertions: [Assertion], _ basis: DataBasis) -> String {
        var songs: [SongID] = [], keys: [AnnotationKey] = []
        for a in assertions {
            switch a {
            case .updateSong(let id, _): songs.append(id)
            case .annotation(let k, _): keys.append(k)
            default: break
            }
        }
        var parts: [String] = []
        if songs.count == 1, let s = basis[songs[0]] {
            parts.append([s.artist, s.title ?? s.path.split(separator: "/").last.map(String.init)]
                .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " - "))
        } else if !songs.isEmpty {
            parts.append("\(songs.count) songs")
        }
        parts += keys.prefix(3).map { name(of: $0, in: basis) }
        if keys.count > 3 { parts.append("\(keys.count - 3) more") }
        let subject = parts.joined(separator: ", ")
        return verb + " " + OneLine.visible(subject.count > 200 ? subject.prefix(200) + "…" : subject)
    }

    /// `album Chelsea Girl`, `artist Nico`: the name a key's songs give it, else its folded names.
    static func name(of key: AnnotationKey, in basis: DataBasis) -> String {
        let kind = key.kind.rawValue
        if let mb = key.musicBrainzID {
            let song = basis.songs.values.first {
                (key.kind == .album ? [$0.mbAlbumID] : [$0.mbArtistID, $0.mbAlbumArtistID]).contains { $0?.lowercased() == mb }
            }
            let shown = key.kind == .album ? song?.album : (song?.mbAlbumArtistID?.lowercased() == mb ? song?.effectiveAlbumArtist : song?.artist)
            return kind + " " + (shown ?? "mb:" + mb)
        }
        return kind + " " + key.names.last!
    }
}
