extension Catalog {
    /// `search3`: artists, albums and songs matching `query`, a page of each.
    ///
    /// Every word of the query must start a word of the entity's fields (`miles kin` finds
    /// *Kind of Blue* by Miles Davis), case, accents and width folded (`bjork` finds *Björk*);
    /// artists are searched by name, albums by title and album artist, songs by title, artists,
    /// album and album artist. Those whose name alone matches come first, then the others, each
    /// in the catalog's order, so that paging is stable.
    ///
    /// A query with no letters or digits (empty, `""` as Symfonium sends it, `*`) matches
    /// everything: the pages then go through the whole library in the catalog's order, which is
    /// how clients sync. A query of more words than a search takes (`SearchQuery.maxWords`)
    /// finds nothing.
    ///
    /// Complexity: O(1) to page through everything; O(bytes of the searched fields) with text,
    /// after the search index is built once.
    public func search(_ query: String, artistCount: Int = 20, artistOffset: Int = 0,
                       albumCount: Int = 20, albumOffset: Int = 0,
                       songCount: Int = 20, songOffset: Int = 0) -> CatalogSearchResult {
        var text = SearchText()
        let q: SearchQuery
        do {
            q = try SearchQuery(query, using: &text)
        } catch .tooManyWords {
            return CatalogSearchResult(artists: [], albums: [], songs: [])
        } catch {
            return CatalogSearchResult(
                artists: Array(Self.window(artists.count, artistCount, artistOffset).map { artists[$0] }),
                albums: Array(Self.window(albums.count, albumCount, albumOffset).map { albums[$0] }),
                songs: Array(songs[Self.window(songs.count, songCount, songOffset)]))
        }
        let index = searchIndex.index(of: self)
        func matches(_ table: CatalogSearchIndex.Table, _ count: Int, _ offset: Int) -> ArraySlice<Int> {
            count <= 0 ? [] : Self.page(table.matches(q.words), size: count, offset: max(0, offset))
        }
        return CatalogSearchResult(
            artists: matches(index.artists, artistCount, artistOffset).map { artists[$0] },
            albums: matches(index.albums, albumCount, albumOffset).map { albums[$0] },
            songs: matches(index.songs, songCount, songOffset).map { songs[$0] })
    }

    /// `offset..<offset + count` clipped to `0..<total`.
    static func window(_ total: Int, _ count: Int, _ offset: Int) -> Range<Int> {
        let lo = min(total, max(0, offset))
        return lo..<min(total, lo + max(0, min(count, total)))
    }
}
