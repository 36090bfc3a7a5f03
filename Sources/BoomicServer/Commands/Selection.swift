import BoomicCore

/// What `find`, `search`, `count`, `list` and their kin share: the filter and its trailing
/// `sort`, `window`, `group` and `position` words, and the songs a filter selects.
struct Selection {
    var filter: MPDFilter?
    var sort: TagLevel?
    var sortDescending = false
    var window: Range<Int>?
    var groups: [TagLevel] = []
    var position: String?

    /// Reads `args` from `start`: the keywords allowed come in pairs at the end (MPD reads them
    /// from the end too), the filter before them.
    init(_ inv: Invocation, from start: Int, keywords: Set<String>, substrings: Bool, filterRequired: Bool = true) throws(MPDError) {
        var args = Array(inv.args[start...])
        while args.count >= 2, keywords.contains(args[args.count - 2].lowercased()) {
            let word = args[args.count - 2].lowercased(), value = args[args.count - 1]
            args.removeLast(2)
            switch word {
            case "sort":
                sortDescending = value.hasPrefix("-")
                let name = sortDescending ? String(value.dropFirst()) : value
                guard let tag = TagLevel(name: name) else { throw inv.error(.argument, "Unknown sort tag") }
                sort = tag
            case "window":
                window = try inv.range(value)
            case "group":
                guard let tag = TagLevel(name: value) else { throw inv.error(.argument, "Unknown tag type: \(value)") }
                groups.insert(tag, at: 0)
            case "position":
                position = value
            default: break
            }
        }
        if args.isEmpty {
            guard !filterRequired else { throw inv.error(.argument, "Filter expected") }
        } else {
            filter = try MPDFilter.parse(args[...], substrings: substrings)
        }
    }

    /// The songs of the music tree that match, in the tree's order (or by `sort`), windowed;
    /// in no particular order when `ordered` is false (`list` and `count` sort their values).
    func songs(in snapshot: ServerLibrary.Snapshot, foldCase: Bool, inv: Invocation, ordered: Bool = true) throws(MPDError) -> [Song] {
        let tree = snapshot.tree
        let matcher: QueryMatcher?
        if let filter {
            matcher = QueryMatcher(try filter.query(foldCase: foldCase, absolutePath: tree.path(for:)))
        } else {
            matcher = nil
        }
        var songs: [Song]
        // `find` and `findadd` outside search: their whole-value tag tests mostly, since
        // `search` folds case; the index narrows the candidates, the matcher decides.
        if let (tag, value) = filter?.requiredExactTag, !foldCase {
            songs = (snapshot.indexes.index(tag)[value] ?? []).compactMap { snapshot.basis[$0] }
                .filter { matcher?.matches($0) ?? true }
        } else if let needle = filter?.anyFieldNeedle(foldCase: foldCase) {
            // `search any WORD`: a byte search of the snapshot's any-field text; the few songs
            // whose text is not plain ASCII go through the matcher.
            let text = snapshot.indexes.anyFieldText()
            songs = text.songs(containing: needle).compactMap { snapshot.basis[$0] }
                + text.others.compactMap { snapshot.basis[$0] }.filter { matcher?.matches($0) ?? true }
        } else if let (tag, test, whole) = filter?.requiredTagTest {
            // `search artist X`, `find genre Y` with search's case: each of the tag's distinct
            // values tested once (a few thousand, not 50,000 songs), the songs holding one
            // that passes read from the column. A song's values are what MPD tests (its
            // artists, AlbumArtist else Artist, Date else the year), one by one.
            let column = snapshot.indexes.column(TagLevel(tag))
            let passes = QueryMatcher.textTest(MPDFilter.match(test, foldCase: foldCase))
            let hits = column.values.map(passes)
            let ordered = snapshot.indexes.orderedSongs()
            songs = (0..<column.songCount).filter { i in column.numbers(of: i).contains { hits[Int($0)] } }.map { ordered[$0] }
            if !whole, let matcher { songs.removeAll { !matcher.matches($0) } }
        } else {
            songs = snapshot.indexes.orderedSongs()
            if let matcher { songs.removeAll { !matcher.matches($0) } }
        }
        if !ordered && window == nil { return songs }
        if let sort {
            let keyed = songs.map { song in
                var first: String?
                MPDResponse.forEachValue(of: sort, in: song) { if first == nil { first = $0 } }
                return (first ?? "", song.path, song)
            }
            songs = keyed.sorted { a, b in
                a.0 != b.0 ? (sortDescending ? a.0 > b.0 : a.0 < b.0) : a.1.utf8.lexicographicallyPrecedes(b.1.utf8)
            }.map(\.2)
        } else {
            songs.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        }
        if let window {
            songs = Array(songs[min(window.lowerBound, songs.count)..<min(window.upperBound, songs.count)])
        }
        return songs
    }
}
