extension Catalog {
    /// The most one page of a list holds: Subsonic's limit for `getAlbumList2`, `getRandomSongs`
    /// and `getSongsByGenre`.
    public static let maxPageSize = 500

    /// Whether an album holds a favourite song: the default `starred` predicate of `albumList`.
    /// The HTTP front lists the albums starred themselves instead (`CatalogAlbum.starred`).
    public static let anyFavoriteSong: @Sendable (CatalogAlbum) -> Bool = { $0.favoriteSongs > 0 }

    /// One page of an album list (`getAlbumList2`).
    ///
    /// - Parameters:
    ///   - size: albums on the page, at most `maxPageSize` (Subsonic's default is 10).
    ///   - offset: albums of the list skipped before the page.
    ///   - starred: which albums `.starred` lists.
    ///
    /// Complexity: O(size + offset) for the sorted types; O(albums) for `random`, `byYear`,
    /// `starred` and `byGenre`; plus O(k log k) to order a `byYear` range of k albums latest first.
    public func albumList(_ type: AlbumListType, size: Int = 10, offset: Int = 0,
                          starred: (CatalogAlbum) -> Bool = Catalog.anyFavoriteSong) -> [CatalogAlbum] {
        let size = Self.clamp(size, max: Self.maxPageSize), offset = max(0, offset)
        let order: [Int]
        switch type {
        case .random(let seed):
            guard offset < albums.count else { return [] }
            return Self.randomPick(count: albums.count, take: offset + size, seed: seed).dropFirst(offset).map { albums[$0] }
        case .newest: order = orders.newest
        case .frequent: order = orders.frequent
        case .recent: order = orders.recent
        case .highest: order = orders.highest
        case .alphabeticalByName: order = orders.byName
        case .alphabeticalByArtist: order = orders.byArtist
        case .starred: order = orders.byName.filter { starred(albums[$0]) }
        case .byGenre(let genre):
            let inGenre = Set(genreAlbums[Fold.key(genre)] ?? [])
            order = inGenre.isEmpty ? [] : orders.byName.filter(inGenre.contains)
        case .byYear(let from, let to):
            let range = min(from, to)...max(from, to)
            let inRange = orders.byYear.filter { range.contains(albums[$0].year!) }
            // Stable: within a year, still by name.
            order = from <= to ? inRange : Self.stableSorted(inRange) { albums[$0].year! > albums[$1].year! }
        }
        return Self.page(order, size: size, offset: offset).map { albums[$0] }
    }

    /// `order[offset..<offset + size]`, clipped to the list (with no overflow for a client's
    /// `Int.max`).
    static func page(_ order: [Int], size: Int, offset: Int) -> ArraySlice<Int> {
        guard offset >= 0, offset < order.count, size > 0 else { return [] }
        return order[offset..<(size >= order.count - offset ? order.count : offset + size)]
    }

    /// `value` within `0...max`.
    static func clamp(_ value: Int, max limit: Int) -> Int { Swift.max(0, Swift.min(value, limit)) }

    /// The first `take` of a random order of `0..<count` drawn from `seed`: a Fisher–Yates
    /// shuffle from the front, stopped after `take` swaps, so a page costs O(count) to set up and
    /// O(take) to draw, and a longer `take` extends a shorter one (page 2 follows page 1).
    static func randomPick(count: Int, take: Int, seed: UInt64) -> [Int] {
        var xs = Array(0..<count)
        var random = QueueRandom(seed: seed)
        let n = min(take, count)
        for i in 0..<n { xs.swapAt(i, i + random.index(below: count - i)) }
        return Array(xs[..<n])
    }

    /// A stable sort (Swift's `sorted` is not documented as stable).
    static func stableSorted(_ xs: [Int], by before: (Int, Int) -> Bool) -> [Int] {
        xs.enumerated().sorted { a, b in
            before(a.element, b.element) || (!before(b.element, a.element) && a.offset < b.offset)
        }.map(\.element)
    }
}
