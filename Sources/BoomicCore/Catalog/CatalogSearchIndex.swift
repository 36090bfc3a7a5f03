import Synchronization

/// The catalog's names, normalized once for `search3`: each artist's, album's and song's
/// searched fields as `SearchText` words, packed in one byte buffer per kind.
///
/// A search then only compares bytes: a word of the query matches where it starts a word of a
/// field (Subsonic servers match words as prefixes), case, accents and width folded as
/// everywhere in Boomic. Normalizing 50,000 songs' fields is what a `DataBasis.search` spends
/// most of its time on; here it is paid once per catalog, on the first search with text.
struct CatalogSearchIndex: Sendable {
    /// One kind's entities: entity `i` is `bytes[starts[i]..<starts[i + 1]]`, which begins with
    /// a `SearchText.fieldSeparator`, then its name's words up to `nameEnds[i]`, then each other
    /// field's words, each field followed by a separator.
    struct Table: Sendable {
        var bytes: [UInt8] = [0]
        var starts: [Int] = []
        var nameEnds: [Int] = []

        var count: Int { starts.count }

        mutating func add(name: String, others: [String], text: inout SearchText) {
            starts.append(bytes.count - 1)
            var squash: [UInt8] = []
            text.append(name, words: &bytes, squash: &squash)
            nameEnds.append(bytes.count)
            bytes.append(SearchText.fieldSeparator)
            for o in others {
                squash.removeAll(keepingCapacity: true)
                text.append(o, words: &bytes, squash: &squash)
                bytes.append(SearchText.fieldSeparator)
            }
        }

        func end(of i: Int) -> Int { i + 1 < starts.count ? starts[i + 1] : bytes.count }

        /// The entities every word matches, those whose name alone matches every word first,
        /// each group in table order.
        func matches(_ words: [[UInt8]]) -> [Int] {
            var byName: [Int] = [], byOther: [Int] = []
            bytes.withUnsafeBufferPointer { hay in
                for i in 0..<count {
                    let start = starts[i], end = end(of: i), nameEnd = nameEnds[i]
                    var allInName = true, all = true
                    for w in words {
                        if Self.startsWord(w, in: hay, start..<nameEnd) { continue }
                        allInName = false
                        if !Self.startsWord(w, in: hay, nameEnd..<end) { all = false; break }
                    }
                    if allInName { byName.append(i) } else if all { byOther.append(i) }
                }
            }
            return byName + byOther
        }

        /// Whether `needle` starts a word somewhere in `hay[range]` (a word starts after a space
        /// or a field separator; `range` begins with one).
        static func startsWord(_ needle: [UInt8], in hay: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
            let m = needle.count
            guard m > 0, range.count > m else { return false }
            return needle.withUnsafeBufferPointer { n in
                let first = n[0]
                var p = range.lowerBound + 1
                let last = range.upperBound - m
                while p <= last {
                    if hay[p] == first, hay[p - 1] == SearchText.space || hay[p - 1] == SearchText.fieldSeparator {
                        var j = 1
                        while j < m && hay[p + j] == n[j] { j += 1 }
                        if j == m { return true }
                    }
                    p += 1
                }
                return false
            }
        }
    }

    var artists = Table()
    var albums = Table()
    var songs = Table()

    /// Artists by name; albums by title and album artist; songs by title (the file's name when
    /// untitled), artists, album and album artist.
    init(_ catalog: Catalog) {
        var text = SearchText()
        for a in catalog.artists { artists.add(name: a.name, others: [], text: &text) }
        for a in catalog.albums { albums.add(name: a.name, others: [a.artist], text: &text) }
        songs.bytes.reserveCapacity(catalog.songs.count * 64)
        for s in catalog.songs {
            var others = s.artists
            if let album = s.album { others.append(album) }
            if let aa = s.albumartist, !aa.isEmpty { others.append(aa) }
            songs.add(name: SearchPass.name(of: s), others: others, text: &text)
        }
    }

    /// The index of one catalog, built the first time a search asks for it. A class, so that
    /// copies of the catalog share one; its state sits behind a `Mutex` because requests on
    /// several threads may ask at once (the first builds, the others wait for it).
    final class Cache: Sendable {
        private let state = Mutex<CatalogSearchIndex?>(nil)

        func index(of catalog: Catalog) -> CatalogSearchIndex {
            state.withLock { built in
                if let built { return built }
                let index = CatalogSearchIndex(catalog)
                built = index
                return index
            }
        }
    }
}
