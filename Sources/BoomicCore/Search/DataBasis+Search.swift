extension DataBasis {
    /// Songs, albums, artists and the given taglists and playlists matching `text`, best first.
    ///
    /// Every word of the text must match (AND): at the start of a word of some field, or, in the
    /// lowest tier, anywhere inside one. Case, accents and width are folded and punctuation is
    /// ignored, so `bjork` finds *Björk* and `acdc` *AC/DC*. Songs are searched by title,
    /// artists, album, album artist and composer; albums by title and album artist; artists,
    /// taglists and playlists by name. Ranking: tier (`SearchTier`), then hits whose name alone
    /// matched, then shorter names, then kind (`SearchKind`), then name and id, so the same
    /// search on the same basis always gives the same list. `Documentation/search.md` says it
    /// for users.
    ///
    /// ```swift
    /// let hits = try basis.search("miles kind", limit: 10)
    /// ```
    ///
    /// - Parameters:
    ///   - items: taglists and playlists to search with the library (they are not in the basis).
    ///   - limit: at most this many hits (the best ones); nil for all; zero or less for none.
    /// - Throws: `SearchError` when the text holds no letters or digits, or too many words.
    ///
    /// Complexity: O(total length of the songs' searched fields): about 45 ms for 50,000 songs on
    /// the loaded 2-core build machine, of which 25 ms is only fetching those fields from memory
    /// (`SearchBenchmark`). Over an image, O(total length of the distinct values of those fields
    /// + rows), and only the songs that may match are read (`SearchPass.candidateRows`). Albums
    /// and artists are grouped only from songs that matched, and display names and counts are
    /// worked out only for the hits returned.
    public func search(_ text: String, items: [SearchItem] = [], limit: Int? = nil) throws(SearchError) -> [SearchHit] {
        var pass = try SearchPass(text)
        if let image = songs.image, let rows = pass.candidateRows(in: image) {
            // The candidates the delta does not shadow, then the delta's own songs, each tested whole.
            let live = rows.filter { songs.isLive(imageID: image.id(atRow: $0)) }
            pass.scan(image.songs(atRows: live) + songs.deltaSongs, items: items)
        } else {
            pass.scan(songs.values, items: items)
        }
        return pass.hits(limit: limit)
    }
}
