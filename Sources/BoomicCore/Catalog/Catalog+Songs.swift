extension Catalog {
    /// Random songs (`getRandomSongs`), drawn from `seed`: of a genre (compared folded) and from
    /// a year to a year (both included) when asked; at most `maxPageSize`.
    ///
    /// Complexity: O(songs of the genre, or all songs) to filter, then O(size).
    public func randomSongs(size: Int = 10, genre: String? = nil, fromYear: Int? = nil, toYear: Int? = nil,
                            seed: UInt64) -> [Song] {
        let size = Self.clamp(size, max: Self.maxPageSize)
        var pool: [Int]
        if let genre {
            pool = genreSongs[Fold.key(genre)] ?? []
        } else {
            pool = Array(songs.indices)
        }
        if fromYear != nil || toYear != nil {
            pool = pool.filter { i in
                guard let y = songs[i].year else { return false }
                return y >= (fromYear ?? .min) && y <= (toYear ?? .max)
            }
        }
        return Self.randomPick(count: pool.count, take: size, seed: seed).map { songs[pool[$0]] }
    }

    /// One page of the songs of a genre (`getSongsByGenre`), compared folded, in the catalog's
    /// order (album after album, disc order within each); at most `maxPageSize`.
    public func songs(genre: String, count: Int = 10, offset: Int = 0) -> [Song] {
        let order = genreSongs[Fold.key(genre)] ?? []
        return Self.page(order, size: Self.clamp(count, max: Self.maxPageSize), offset: max(0, offset)).map { songs[$0] }
    }

    /// An artist's most played songs (`getTopSongs`): the present songs that name them (compared
    /// folded) as an artist or album artist, by play count, then last played, latest first, then
    /// title; songs never played follow those played, so an artist's page is never empty.
    ///
    /// Complexity: O(k log k) in the artist's songs (the basis's artist index is built once).
    public func topSongs(artist name: String, count: Int = 50) -> [Song] {
        guard let ids = basis.artists[Fold.key(name)] else { return [] }
        let found = ids.compactMap { id in basis[id].flatMap { $0.missing ? nil : $0 } }
        let sorted = found.sorted { a, b in
            if a.playcount != b.playcount { return a.playcount > b.playcount }
            if a.lastplayed != b.lastplayed { return (a.lastplayed ?? -.infinity) > (b.lastplayed ?? -.infinity) }
            let ta = a.title ?? "", tb = b.title ?? ""
            return ta != tb ? ta < tb : a.id < b.id
        }
        return Array(sorted.prefix(max(0, count)))
    }
}
