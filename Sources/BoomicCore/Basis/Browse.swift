/// Albums and artists of a set of songs, as `ls -a` and `ls --artists` show them.
///
/// Computed from the matching songs rather than stored, so a query (and later a TagView) narrows
/// albums and artists the same way it narrows songs.
public enum Browse {
    public struct AlbumRow: Encodable, Sendable {
        public var album: String
        public var albumartist: String
        public var year: Int?
        public var songs: Int
        public var discs: Int
        public var duration: Double
        public var compilation: Bool
        public var genre: String?
        public var art: String?
        public var mb_albumid: String?
        public var missing: Int
        public var firstSong: Song?

        enum CodingKeys: String, CodingKey {
            case album, albumartist, year, songs, discs, duration, compilation, genre, art, mb_albumid, missing
        }
    }

    public struct ArtistRow: Encodable, Sendable {
        public var name: String
        public var albums: Int
        public var songs: Int
    }

    /// The fields `albums(of:in:)` reads of a song besides its id and path, so that a caller
    /// may read only these (`DataBasis.songs(matching:reading:)`): an `AlbumRow`'s first song
    /// then holds only these too.
    public static let albumFields: [SongField] = [.album, .albumartist, .compilation, .artists, .year, .disc, .track,
                                                  .duration, .genre, .art, .mbAlbumID, .missing]

    /// The fields `artists(of:in:)` reads of a song.
    public static let artistFields: [SongField] = [.artists, .album, .albumartist, .compilation]

    public static func albums(of songs: [Song], in basis: DataBasis) -> [AlbumRow] {
        var groups: [AlbumKey: [Song]] = [:]
        var order: [AlbumKey] = []
        for s in songs {
            guard let k = AlbumKey(s) else { continue }
            if groups[k] == nil { order.append(k) }
            groups[k, default: []].append(s)
        }
        return order.sorted().map { k in
            let ss = groups[k]!.sorted { ($0.disc ?? 0, $0.track ?? 0, $0.path) < ($1.disc ?? 0, $1.track ?? 0, $1.path) }
            let first = ss[0]
            return AlbumRow(
                album: first.album ?? "", albumartist: first.effectiveAlbumArtist ?? "",
                year: ss.compactMap(\.year).min(), songs: ss.count,
                discs: max(1, Set(ss.compactMap(\.disc)).count), duration: (ss.compactMap(\.duration).reduce(0, +) * 1000).rounded() / 1000,
                compilation: ss.contains(where: \.compilation), genre: first.genre,
                art: ss.lazy.compactMap(\.art).first, mb_albumid: first.mbAlbumID,
                missing: ss.filter(\.missing).count, firstSong: first)
        }
    }

    public static func artists(of songs: [Song], in basis: DataBasis) -> [ArtistRow] {
        var names: [String: String] = [:]
        var songCount: [String: Int] = [:]
        var albumSets: [String: Set<AlbumKey>] = [:]
        for s in songs {
            var spelled: [String: String] = [:]
            for a in s.artists { spelled[Fold.key(a)] = a }
            if s.album != nil, let aa = s.effectiveAlbumArtist { spelled[Fold.key(aa)] = aa }
            for (k, name) in spelled where !k.isEmpty {
                if names[k] == nil || name < names[k]! { names[k] = name }
                songCount[k, default: 0] += 1
            }
            if let ak = AlbumKey(s) { albumSets[ak.artist, default: []].insert(ak) }
        }
        return names.keys.sorted().map { k in
            ArtistRow(name: names[k]!, albums: albumSets[k]?.count ?? 0, songs: songCount[k] ?? 0)
        }
    }
}

extension Browse {
    /// Every song of each album holding one of `songs`, album after album in the order their
    /// first match comes, each in disc and track order (then by path): `play --album`, and what
    /// a player's "play this album" means.
    public static func wholeAlbums(of songs: [Song], in basis: DataBasis) -> [Song] {
        var seen = Set<AlbumKey>()
        var out: [Song] = []
        for song in songs {
            guard let key = AlbumKey(song) else {
                out.append(song) // no album: the song alone
                continue
            }
            guard seen.insert(key).inserted, let ids = basis.albums[key] else { continue }
            out += ids.compactMap { basis[$0] }.sorted(by: discOrder)
        }
        return out
    }

    /// Disc, then track (songs without either last), then path.
    public static func discOrder(_ a: Song, _ b: Song) -> Bool {
        let da = a.disc ?? .max, db = b.disc ?? .max
        if da != db { return da < db }
        let ta = a.track ?? .max, tb = b.track ?? .max
        if ta != tb { return ta < tb }
        return a.path < b.path
    }
}
