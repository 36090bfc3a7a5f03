import HashTreeCollections

extension Catalog {
    /// Groups a basis into albums, artists and genres, and sorts the album lists' orders.
    public init(_ basis: DataBasis) {
        self.basis = basis
        var groups: [AlbumKey: [Song]] = [:]
        // The basis keeps its album index up to date commit by commit, so a catalog rebuilt on
        // the next basis (after a play, a star) groups without folding a name again.
        for (key, ids) in basis.albums {
            var present: [Song] = []
            for id in ids { if let s = basis[id], !s.missing { present.append(s) } }
            if !present.isEmpty { groups[key] = present }
        }
        for s in basis.songs.values where !s.missing && (s.album?.isEmpty ?? true) {
            groups[Self.albumKey(of: s), default: []].append(s)
        }
        let keys = groups.keys.sorted()

        var builder = Builder(annotations: basis.annotations)
        for key in keys { builder.add(key, groups[key]!) }
        let built = builder.finish()
        songs = built.songs
        albums = built.albums
        artists = built.artists
        genres = built.genres
        genreSongs = built.genreSongs
        genreAlbums = built.genreAlbums
        albumPositions = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        albumByHash = built.albumByHash
        artistByHash = built.artistByHash
        artistPositions = Dictionary(uniqueKeysWithValues: built.artists.enumerated().map { ($1.key, $0) })
        orders = Self.orders(of: built.albums)
        searchIndex = CatalogSearchIndex.Cache()
    }

    /// Sorts the album lists' orders; ties fall back to the canonical order.
    static func orders(of albums: [CatalogAlbum]) -> AlbumOrders {
        let all = Array(albums.indices)
        var o = AlbumOrders()
        o.byName = all.sorted(by: AlbumOrders.byName(albums))
        o.byArtist = all.sorted(by: AlbumOrders.byArtist(albums))
        o.newest = all.sorted(by: AlbumOrders.newest(albums))
        o.frequent = all.filter { albums[$0].playCount > 0 }.sorted(by: AlbumOrders.frequent(albums))
        o.recent = all.filter { albums[$0].lastPlayed != nil }.sorted(by: AlbumOrders.recent(albums))
        o.highest = all.filter { albums[$0].rating != nil }.sorted(by: AlbumOrders.highest(albums))
        o.byYear = all.filter { albums[$0].year != nil }.sorted(by: AlbumOrders.byYear(albums, byNameRank: rank(o.byName)))
        return o
    }

    /// position → its place in `order`.
    static func rank(_ order: [Int]) -> [Int] {
        var r = [Int](repeating: 0, count: order.count)
        for (i, p) in order.enumerated() { r[p] = i }
        return r
    }
}

/// The one pass over the grouped songs that makes the catalog's albums, artists and genres.
struct Builder {
    /// The basis's stars and ratings of albums and artists.
    let annotations: TreeDictionary<AnnotationKey, Annotation>

    struct Draft {
        var key: AlbumKey
        var range: Range<Int>
        var name: String
        var artist: String
        var musicBrainzID: String?
        var duration: Double
        var year: Int?
        var genre: String?
        var genreKeys: [String]
        var coverSong: SongID?
        var coverArt: String?
        var created: Double
        var playCount: Int
        var lastPlayed: Double?
        var rating: Double?
        var favoriteSongs: Int
        var isCompilation: Bool
        var nameSortKey: String
        var artistSortKey: String
    }

    var songs: [Song] = []
    var drafts: [Draft] = []
    /// Per artist key: how often each MusicBrainz artist id names them.
    var artistMBIDs: [String: [String: Int]] = [:]
    var genreSpelling: [String: String] = [:]
    var genreSongs: [String: [Int]] = [:]
    var genreAlbums: [String: [Int]] = [:]
    /// What each genre text met so far names (`genres(of:)`).
    var genreParts: [String: [(folded: String, spelling: String)]] = [:]
    /// Sort keys of the names met so far: an artist's name comes back on each of their albums.
    var sortKeys: [String: String] = [:]

    mutating func add(_ key: AlbumKey, _ group: [Song]) {
        let ordered = group.sorted { Browse.discOrder($0, $1) || (!Browse.discOrder($1, $0) && $0.id < $1.id) }
        let start = songs.count
        let albumPosition = drafts.count
        var duration = 0.0, year: Int?, created = Double.infinity, plays = 0, last: Double?
        var ratingSum = 0, rated = 0, favorites = 0, compilation = false
        var cover: Song?
        var albumMB: [String: Int] = [:]
        var genreCounts: [String: (count: Int, first: Int, spelling: String)] = [:]
        for (i, s) in ordered.enumerated() {
            songs.append(s)
            duration += s.duration ?? 0
            if let y = s.year { year = min(year ?? y, y) }
            created = min(created, s.added)
            plays += s.playcount
            if let l = s.lastplayed { last = max(last ?? l, l) }
            if let r = s.rating { ratingSum += r; rated += 1 }
            if s.favorite { favorites += 1 }
            if s.compilation { compilation = true }
            if cover == nil, s.art != nil { cover = s }
            if let mb = s.mbAlbumID, !mb.isEmpty { albumMB[mb.lowercased(), default: 0] += 1 }
            if let mb = Self.artistMBID(of: s) { artistMBIDs[key.artist, default: [:]][mb.lowercased(), default: 0] += 1 }
            if let g = s.genre {
                for (folded, spelling) in genres(of: g) {
                    genreSongs[folded, default: []].append(start + i)
                    if let c = genreCounts[folded] {
                        genreCounts[folded] = (c.count + 1, c.first, c.spelling)
                    } else {
                        // Met in disc order, a song's genres in the order it names them: two
                        // genres of one song (`Jazz; Fusion`) tie to the one named first.
                        genreCounts[folded] = (1, genreCounts.count, spelling)
                    }
                }
            }
        }
        for g in genreCounts.keys { genreAlbums[g, default: []].append(albumPosition) }
        let first = ordered[0]
        let mainGenre = genreCounts.max { a, b in
            a.value.count != b.value.count ? a.value.count < b.value.count : a.value.first > b.value.first
        }
        let name = key.title.isEmpty ? Catalog.unknownAlbum : first.album ?? Catalog.unknownAlbum
        let artist = first.effectiveAlbumArtist.flatMap { $0.isEmpty ? nil : $0 } ?? Catalog.unknownArtist
        drafts.append(Draft(
            key: key, range: start..<songs.count, name: name, artist: artist,
            musicBrainzID: Self.mostCommon(albumMB),
            duration: (duration * 1000).rounded() / 1000, year: year,
            genre: mainGenre?.value.spelling, genreKeys: genreCounts.keys.sorted(),
            coverSong: cover?.id, coverArt: cover?.art, created: created, playCount: plays, lastPlayed: last,
            rating: rated == 0 ? nil : Double(ratingSum) / Double(rated), favoriteSongs: favorites,
            isCompilation: compilation,
            nameSortKey: Fold.key(first.albumSort.flatMap { $0.isEmpty ? nil : $0 } ?? name),
            artistSortKey: sortKey(first.albumArtistSortName.flatMap { $0.isEmpty ? nil : $0 } ?? artist)))
    }

    mutating func sortKey(_ name: String) -> String {
        if let known = sortKeys[name] { return known }
        let key = Fold.key(name)
        sortKeys[name] = key
        return key
    }

    /// The distinct genres a genre text names (`Jazz; Fusion` names two), folded and as spelled,
    /// worked out once per text: a library spells a few hundred genres 50,000 times. Notes each
    /// spelling for the genre's name (the least of them).
    mutating func genres(of text: String) -> [(folded: String, spelling: String)] {
        if let known = genreParts[text] { return known }
        var parts: [(folded: String, spelling: String)] = []
        SongField.forEachJoinedValue(text) { spelling in
            let folded = Fold.key(spelling)
            guard !folded.isEmpty, !parts.contains(where: { $0.folded == folded }) else { return }
            parts.append((folded, spelling))
            if let old = genreSpelling[folded], old <= spelling { return }
            genreSpelling[folded] = spelling
        }
        genreParts[text] = parts
        return parts
    }

    /// The MusicBrainz id of the artist a song's album is filed under: the album artist's when
    /// the song names an album artist (or is a compilation), else its first artist's.
    static func artistMBID(of s: Song) -> String? {
        let text = (s.albumartist?.isEmpty ?? true) && !s.compilation ? s.mbArtistID : s.mbAlbumArtistID
        guard let text, !text.isEmpty else { return nil }
        var first: String?
        SongField.forEachJoinedValue(text) { if first == nil { first = $0 } }
        return first
    }

    /// The most frequent key (ties: the least), nil for none.
    static func mostCommon(_ counts: [String: Int]) -> String? {
        counts.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }?.key
    }

    struct Built {
        var songs: [Song]
        var albums: [CatalogAlbum]
        var artists: [CatalogArtist]
        var genres: [CatalogGenre]
        var genreSongs: [String: [Int]]
        var genreAlbums: [String: [Int]]
        var albumByHash: [UInt64: Int]
        var artistByHash: [UInt64: Int]
    }

    /// Gives ids, files the albums under their artists.
    func finish() -> Built {
        // Artists: the drafts are in key order, so each artist's albums are one run.
        var runs: [(key: String, range: Range<Int>)] = []
        for (i, d) in drafts.enumerated() {
            if let last = runs.last, last.key == d.key.artist {
                runs[runs.count - 1].range = last.range.lowerBound..<i + 1
            } else {
                runs.append((d.key.artist, i..<i + 1))
            }
        }
        let artistMB = runs.map { Self.mostCommon(artistMBIDs[$0.key] ?? [:]) }
        let sharedArtistMB = Self.shared(artistMB)
        var artistByHash: [UInt64: Int] = [:]
        var artistIDs: [String] = []
        for (i, run) in runs.enumerated() {
            let mb = artistMB[i].flatMap { sharedArtistMB.contains($0) ? nil : $0 }
            var salt: UInt64 = 0
            while artistByHash[CatalogID.artistHash(key: run.key, musicBrainzID: mb, salt: salt)] != nil { salt += 1 }
            artistByHash[CatalogID.artistHash(key: run.key, musicBrainzID: mb, salt: salt)] = i
            artistIDs.append(CatalogID.artist(key: run.key, musicBrainzID: mb, salt: salt))
        }

        let sharedAlbumMB = Self.shared(drafts.map(\.musicBrainzID))
        var albumByHash: [UInt64: Int] = [:]
        var albums: [CatalogAlbum] = []
        albums.reserveCapacity(drafts.count)
        var artistOfAlbum = [Int](repeating: 0, count: drafts.count)
        for (a, run) in runs.enumerated() { for i in run.range { artistOfAlbum[i] = a } }
        for (i, d) in drafts.enumerated() {
            let mb = d.musicBrainzID.flatMap { sharedAlbumMB.contains($0) ? nil : $0 }
            var salt: UInt64 = 0
            while albumByHash[CatalogID.albumHash(key: d.key, musicBrainzID: mb, salt: salt)] != nil { salt += 1 }
            albumByHash[CatalogID.albumHash(key: d.key, musicBrainzID: mb, salt: salt)] = i
            albums.append(album(d, id: CatalogID.album(key: d.key, musicBrainzID: mb, salt: salt),
                                artistID: artistIDs[artistOfAlbum[i]], musicBrainzID: mb, first: songs[d.range.lowerBound]))
        }

        var artists: [CatalogArtist] = []
        for (i, run) in runs.enumerated() {
            let mb = artistMB[i].flatMap { sharedArtistMB.contains($0) ? nil : $0 }
            artists.append(Self.artist(id: artistIDs[i], key: run.key, musicBrainzID: mb, albums: run.range, of: albums,
                                       annotations: annotations))
        }

        let genres = genreSpelling.keys.sorted().map { k in
            CatalogGenre(name: genreSpelling[k]!, key: k, songCount: genreSongs[k]!.count, albumCount: genreAlbums[k]!.count)
        }
        return Built(songs: songs, albums: albums, artists: artists, genres: genres, genreSongs: genreSongs,
                     genreAlbums: genreAlbums, albumByHash: albumByHash, artistByHash: artistByHash)
    }

    /// The album of a draft, with its id, its artist's and its annotation.
    /// - first: its first song (disc order), whose album artist and title key its annotation.
    func album(_ d: Draft, id: String, artistID: String, musicBrainzID mb: String?, first: Song) -> CatalogAlbum {
        let annotationKey = d.key.title.isEmpty ? nil
            : AnnotationKey.album(musicBrainzID: mb, albumArtist: first.effectiveAlbumArtist, title: first.album ?? "")
        let annotation = annotationKey.flatMap { annotations[$0] }
        return CatalogAlbum(
            id: id, key: d.key, name: d.name, artist: d.artist,
            annotationKey: annotationKey, starred: annotation?.starred, userRating: annotation?.rating,
            artistID: artistID, musicBrainzID: mb, songRange: d.range, duration: d.duration,
            year: d.year, genre: d.genre, genreKeys: d.genreKeys, coverSong: d.coverSong, coverArt: d.coverArt,
            created: d.created, playCount: d.playCount, lastPlayed: d.lastPlayed, rating: d.rating,
            favoriteSongs: d.favoriteSongs, isCompilation: d.isCompilation,
            nameSortKey: d.nameSortKey, artistSortKey: d.artistSortKey)
    }

    /// The artist whose albums are `albums[range]` (one run of the catalog's order): named by the
    /// least of their albums' spellings, their albums by year (undated last), then name.
    static func artist(id: String, key: String, musicBrainzID mb: String?, albums range: Range<Int>, of albums: [CatalogAlbum],
                       annotations: TreeDictionary<AnnotationKey, Annotation>) -> CatalogArtist {
        let own = range.sorted { a, b in
            let x = albums[a], y = albums[b]
            if x.year != y.year { return (x.year ?? .max) < (y.year ?? .max) }
            if x.nameSortKey != y.nameSortKey { return x.nameSortKey < y.nameSortKey }
            return a < b
        }
        let name = key.isEmpty ? Catalog.unknownArtist : range.map { albums[$0].artist }.min()!
        let annotationKey = AnnotationKey.artist(musicBrainzID: mb, name: key)
        let annotation = annotations[annotationKey]
        return CatalogArtist(
            id: id, key: key, name: name, musicBrainzID: mb,
            annotationKey: annotationKey, starred: annotation?.starred, userRating: annotation?.rating,
            albumIndices: own, songCount: range.reduce(0) { $0 + albums[$1].songCount },
            coverArt: own.lazy.compactMap { albums[$0].coverArt }.first)
    }

    /// The ids named by more than one entity: those cannot stand for one, so its key does.
    static func shared(_ ids: [String?]) -> Set<String> {
        var seen: Set<String> = [], shared: Set<String> = []
        for case let id? in ids where !seen.insert(id).inserted { shared.insert(id) }
        return shared
    }
}
