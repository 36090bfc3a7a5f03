extension Catalog {
    /// The most changed songs `updated(to:by:)` follows one by one: beyond it (an import, a bulk
    /// edit) building afresh costs less than regrouping so many albums.
    public static func updateLimit(songs: Int) -> Int { max(256, songs / 20) }

    /// The catalog of `next`, derived from this one and what changed between their bases, equal
    /// to `Catalog(next)` (ids, albums, artists, genres, orders, search) but built in time
    /// proportional to the change where the change keeps the catalog's shape.
    ///
    /// - A star, a rating or a play of a song, and an edit that keeps every song in its album
    ///   (a title, a track number, a year, a cover, the case of a name), regroup only the albums
    ///   of the changed songs and their artists: each album's songs are sorted and summed again,
    ///   the album lists take the changed albums out and put them back by binary search, and the
    ///   search index is kept unless a searched name changed.
    /// - A star or rating of an album or an artist changes only those entities.
    /// - A genre changed moves the changed songs between the genres' lists, in time
    ///   proportional to the songs of those genres.
    /// - A song that comes, goes or changes album or MusicBrainz id moves other albums' songs or
    ///   ids: the catalog is then built afresh from `next`, as it is when the change holds more
    ///   songs than `updateLimit`.
    ///
    /// `songStarred` (the front's) carries over as it is.
    ///
    /// - Parameter change: what the transactions from `basis` to `next` change
    ///   (`CatalogChange(transactions)`): a song or annotation that differs between the two
    ///   bases and is not named in it keeps what this catalog shows of it.
    /// - Complexity: O(m log m) in the songs of the changed albums (and O(g) in the songs of a
    ///   changed genre), O(a) integer moves in the
    ///   albums for the lists' orders, and one copy of the song list (references) when a song
    ///   changed.
    public func updated(to next: DataBasis, by change: CatalogChange) -> Catalog {
        if change.songs.count <= Self.updateLimit(songs: songs.count), let updated = following(next, change) {
            return updated
        }
        var fresh = Catalog(next)
        fresh.songStarred = songStarred
        return fresh
    }

    /// The incremental update, nil when the change moves the catalog's shape.
    func following(_ next: DataBasis, _ change: CatalogChange) -> Catalog? {
        var touched: Set<Int> = []
        for id in change.songs {
            let old = basis[id].flatMap { $0.missing ? nil : $0 }
            let new = next[id].flatMap { $0.missing ? nil : $0 }
            switch (old, new) {
            case (nil, nil): continue
            case let (old?, new?):
                if old == new { continue }
                let key = Self.albumKey(of: old)
                guard let p = albumPositions[key], Self.albumKey(of: new) == key else { return nil }
                touched.insert(p)
            default: return nil
            }
        }

        var c = self
        c.basis = next
        var keepsSearch = true
        var touchedArtists: Set<Int> = []
        var regenred: [(album: Int, before: ArraySlice<Song>)] = []
        for p in touched.sorted() {
            let old = albums[p]
            let before = songs[old.songRange]
            var group: [Song] = []
            group.reserveCapacity(before.count)
            for s in before {
                guard let now = next[s.id], !now.missing else { return nil }
                group.append(now)
            }
            var builder = Builder(annotations: next.annotations)
            builder.add(old.key, group)
            let after = builder.songs
            var draft = builder.drafts[0]
            // Their artist's id and this album's id stay only when the artists' and the album's
            // MusicBrainz ids do.
            guard Self.artistMBIDs(before) == Self.artistMBIDs(after),
                  Builder.mostCommon(Self.albumMBIDCounts(before)) == draft.musicBrainzID else { return nil }
            if before.map(\.genre) != after.map(\.genre) { regenred.append((p, before)) }
            draft.range = old.songRange
            c.songs.replaceSubrange(old.songRange, with: after)
            let album = builder.album(draft, id: old.id, artistID: old.artistID, musicBrainzID: old.musicBrainzID, first: after[0])
            if album.name != old.name || album.artist != old.artist
                || zip(before, after).contains(where: { !Self.sameSearchedFields($0, $1) }) {
                keepsSearch = false
            }
            c.albums[p] = album
            touchedArtists.insert(artistPositions[old.key.artist]!)
        }
        for i in touchedArtists {
            let old = artists[i]
            let range = old.albumIndices.min()!..<old.albumIndices.max()! + 1
            let artist = Builder.artist(id: old.id, key: old.key, musicBrainzID: old.musicBrainzID, albums: range, of: c.albums,
                                        annotations: next.annotations)
            if artist.name != old.name { keepsSearch = false }
            c.artists[i] = artist
        }
        if !change.annotations.isEmpty {
            for p in c.albums.indices {
                guard let key = c.albums[p].annotationKey, change.annotations.contains(key) else { continue }
                c.albums[p].starred = next.annotations[key]?.starred
                c.albums[p].userRating = next.annotations[key]?.rating
            }
            for i in c.artists.indices where change.annotations.contains(c.artists[i].annotationKey) {
                let key = c.artists[i].annotationKey
                c.artists[i].starred = next.annotations[key]?.starred
                c.artists[i].userRating = next.annotations[key]?.rating
            }
        }
        if !regenred.isEmpty { c.refileGenres(regenred) }
        c.orders = orders.reordered(c.albums, changed: touched)
        if !keepsSearch { c.searchIndex = CatalogSearchIndex.Cache() }
        return c
    }

    /// Files the songs of albums whose genres changed (their songs already in `songs`) under their
    /// new genres: each genre they named before or name now has its positions in the album's
    /// range replaced, the album added or removed, and its name (the least spelling) and counts
    /// worked out again from its songs. O(songs of those genres).
    private mutating func refileGenres(_ changed: [(album: Int, before: ArraySlice<Song>)]) {
        var parts = Builder(annotations: [:])
        var refiled: Set<String> = []
        func lowerBound(_ xs: [Int], _ x: Int) -> Int {
            var lo = 0, hi = xs.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if xs[mid] < x { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        for (p, before) in changed {
            let range = albums[p].songRange
            var named: Set<String> = []
            var now: [String: [Int]] = [:]
            for s in before { if let g = s.genre { for part in parts.genres(of: g) { named.insert(part.folded) } } }
            for i in range { if let g = songs[i].genre { for part in parts.genres(of: g) { now[part.folded, default: []].append(i) } } }
            for g in named.union(now.keys) {
                refiled.insert(g)
                var positions = genreSongs[g] ?? []
                positions.replaceSubrange(lowerBound(positions, range.lowerBound)..<lowerBound(positions, range.upperBound),
                                          with: now[g] ?? [])
                genreSongs[g] = positions.isEmpty ? nil : positions
                var holders = genreAlbums[g] ?? []
                let at = lowerBound(holders, p)
                let holds = at < holders.count && holders[at] == p
                if now[g] != nil, !holds { holders.insert(p, at: at) }
                if now[g] == nil, holds { holders.remove(at: at) }
                genreAlbums[g] = holders.isEmpty ? nil : holders
            }
        }
        for g in refiled {
            var lo = 0, hi = genres.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if genres[mid].key < g { lo = mid + 1 } else { hi = mid }
            }
            let exists = lo < genres.count && genres[lo].key == g
            guard let positions = genreSongs[g], let holders = genreAlbums[g] else {
                if exists { genres.remove(at: lo) }
                continue
            }
            var name: String?
            for i in positions {
                for part in parts.genres(of: songs[i].genre ?? "") where part.folded == g && name.map({ part.spelling < $0 }) ?? true {
                    name = part.spelling
                }
            }
            let genre = CatalogGenre(name: name ?? g, key: g, songCount: positions.count, albumCount: holders.count)
            if exists { genres[lo] = genre } else { genres.insert(genre, at: lo) }
        }
    }

    /// The MusicBrainz ids songs file their artist under, sorted (a multiset).
    private static func artistMBIDs(_ songs: ArraySlice<Song>) -> [String] {
        songs.compactMap { Builder.artistMBID(of: $0)?.lowercased() }.sorted()
    }

    private static func artistMBIDs(_ songs: [Song]) -> [String] { artistMBIDs(songs[...]) }

    /// How often each MusicBrainz release id names the songs, as `Builder` counts them.
    private static func albumMBIDCounts(_ songs: ArraySlice<Song>) -> [String: Int] {
        var counts: [String: Int] = [:]
        for s in songs { if let mb = s.mbAlbumID, !mb.isEmpty { counts[mb.lowercased(), default: 0] += 1 } }
        return counts
    }

    /// Whether the search index holds the same words for `b` as for `a` (`CatalogSearchIndex`
    /// searches a song's name, artists, album and album artist).
    private static func sameSearchedFields(_ a: Song, _ b: Song) -> Bool {
        a.id == b.id && a.artists == b.artists && a.album == b.album && a.albumartist == b.albumartist
            && SearchPass.name(of: a) == SearchPass.name(of: b)
    }
}
