extension Catalog.AlbumOrders {
    /// One comparison of album positions: a strict total order (ties fall back to the position),
    /// so sorting all albums and inserting one album into an order sorted by it agree.
    typealias Before = (Int, Int) -> Bool

    /// By title sort key, then artist sort key.
    static func byName(_ albums: [CatalogAlbum]) -> Before {
        { a, b in
            let x = albums[a], y = albums[b]
            if x.nameSortKey != y.nameSortKey { return x.nameSortKey < y.nameSortKey }
            if x.artistSortKey != y.artistSortKey { return x.artistSortKey < y.artistSortKey }
            return a < b
        }
    }

    /// By artist sort key, then title sort key.
    static func byArtist(_ albums: [CatalogAlbum]) -> Before {
        { a, b in
            let x = albums[a], y = albums[b]
            if x.artistSortKey != y.artistSortKey { return x.artistSortKey < y.artistSortKey }
            if x.nameSortKey != y.nameSortKey { return x.nameSortKey < y.nameSortKey }
            return a < b
        }
    }

    static func newest(_ albums: [CatalogAlbum]) -> Before {
        { a, b in albums[a].created != albums[b].created ? albums[a].created > albums[b].created : a < b }
    }

    /// Of albums played at least once.
    static func frequent(_ albums: [CatalogAlbum]) -> Before {
        { a, b in albums[a].playCount != albums[b].playCount ? albums[a].playCount > albums[b].playCount : a < b }
    }

    /// Of albums with a last play.
    static func recent(_ albums: [CatalogAlbum]) -> Before {
        { a, b in albums[a].lastPlayed! != albums[b].lastPlayed! ? albums[a].lastPlayed! > albums[b].lastPlayed! : a < b }
    }

    /// Of albums with a rated song.
    static func highest(_ albums: [CatalogAlbum]) -> Before {
        { a, b in albums[a].rating! != albums[b].rating! ? albums[a].rating! > albums[b].rating! : a < b }
    }

    /// Of dated albums; within a year, by `byName`'s order (`byNameRank` is `Catalog.rank(byName)`).
    static func byYear(_ albums: [CatalogAlbum], byNameRank: [Int]) -> Before {
        { a, b in albums[a].year! != albums[b].year! ? albums[a].year! < albums[b].year! : byNameRank[a] < byNameRank[b] }
    }

    /// The orders after the albums at `changed` positions changed (the positions of all albums
    /// staying as they are): each changed album is taken out and put back where its new figures
    /// sort it, by binary search. O(albums) moves of integers and O(changed × log albums)
    /// comparisons, against a full sort's O(albums × log albums) comparisons of strings.
    func reordered(_ albums: [CatalogAlbum], changed: Set<Int>) -> Self {
        guard !changed.isEmpty else { return self }
        let moved = changed.sorted()
        func put(_ order: [Int], where keep: (Int) -> Bool = { _ in true }, _ before: Before) -> [Int] {
            var o = order.filter { !changed.contains($0) }
            for p in moved where keep(p) {
                var lo = 0, hi = o.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if before(o[mid], p) { lo = mid + 1 } else { hi = mid }
                }
                o.insert(p, at: lo)
            }
            return o
        }
        var o = Self()
        o.byName = put(byName, Self.byName(albums))
        o.byArtist = put(byArtist, Self.byArtist(albums))
        o.newest = put(newest, Self.newest(albums))
        o.frequent = put(frequent, where: { albums[$0].playCount > 0 }, Self.frequent(albums))
        o.recent = put(recent, where: { albums[$0].lastPlayed != nil }, Self.recent(albums))
        o.highest = put(highest, where: { albums[$0].rating != nil }, Self.highest(albums))
        // Two unchanged albums keep their places in byName relative to each other, so their
        // order in byYear (year, then byName) stays too: only the changed ones move.
        o.byYear = put(byYear, where: { albums[$0].year != nil }, Self.byYear(albums, byNameRank: Catalog.rank(o.byName)))
        return o
    }
}
