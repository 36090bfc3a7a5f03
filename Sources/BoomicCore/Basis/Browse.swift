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
