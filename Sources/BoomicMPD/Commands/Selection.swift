import BoomicCore

/// What `find`, `search`, `count`, `list` and their kin share: the filter and its trailing
/// `sort`, `window`, `group` and `position` words, and the songs a filter selects.
struct Selection {
    /// What `sort` orders by: a tag's first value, or the file's time (`Last-Modified`, which
    /// MPD 0.23 takes though it is no tag: clients sort "recently added" by it).
    enum SortKey: Equatable {
        case tag(TagLevel)
        case lastModified
    }

    var filter: MPDFilter?
    var sort: SortKey?
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
                if name.lowercased() == "last-modified" {
                    sort = .lastModified
                } else {
                    guard let tag = TagLevel(name: name) else { throw inv.error(.argument, "Unknown sort tag") }
                    sort = .tag(tag)
                }
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
        // A base that names no folder (nor song) is an error in MPD, which looks it up first.
        for base in filter?.requiredBases ?? [] where tree.directory(base) == nil && snapshot.song(at: base) == nil {
            throw inv.error(.noExist, "No such directory")
        }
        let matcher: QueryMatcher?
        if let filter {
            matcher = QueryMatcher(try filter.query(foldCase: foldCase, absolutePath: tree.path(for:)))
        } else {
            matcher = nil
        }
        var songs: [Song]
        // Whether `songs` came in the tree's order (read from a column or the whole tree); the
        // index and the any-field text find them in the library's own order.
        var inTreeOrder = false
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
            let budget = RegexBudget()
            let passes = QueryMatcher.textTest(MPDFilter.match(test, foldCase: foldCase), budget: budget)
            let hits = column.values.map(passes)
            if budget.stopped != nil { throw inv.error(.argument, Self.regexTooSlow) }
            let ordered = snapshot.indexes.orderedSongs()
            songs = (0..<column.songCount).filter { i in column.numbers(of: i).contains { hits[Int($0)] } }.map { ordered[$0] }
            if !whole, let matcher { songs.removeAll { !matcher.matches($0) } }
            inTreeOrder = true
        } else {
            songs = snapshot.indexes.orderedSongs()
            if let matcher { songs.removeAll { !matcher.matches($0) } }
            inTreeOrder = true
        }
        if matcher?.stoppedRegex != nil { throw inv.error(.argument, Self.regexTooSlow) }
        if !ordered && window == nil { return songs }
        // Each song's place in the tree's order: where it stands when `songs` are in that
        // order already, else from the snapshot's map of places.
        let ranks: [Int]
        if inTreeOrder {
            ranks = Array(songs.indices)
        } else {
            let places = snapshot.indexes.songRanks()
            ranks = songs.map { places[$0.id] ?? Int.max }
        }
        if let sort {
            songs = Self.sorted(songs, ranks: ranks, by: sort, descending: sortDescending)
        } else if !inTreeOrder {
            songs = zip(ranks, songs).sorted { $0.0 < $1.0 }.map(\.1)
        }
        if let window {
            songs = Array(songs[min(window.lowerBound, songs.count)..<min(window.upperBound, songs.count)])
        }
        return songs
    }

    /// A regex that ran too long on one value and was stopped (`RegexBudget`); MPD's PCRE stops
    /// at its match limit and says so too.
    static let regexTooSlow = "Error in regex: it ran too long on one value and was stopped"

    /// `songs` in MPD 0.23's order for `sort`: Track and Disc as numbers (`strtol`, so a
    /// missing or odd one is 0), the other tags by their first value's bytes (`strcmp`), with
    /// the sort tags' fallbacks (`forEachValue`); songs that tie stay in the tree's order
    /// (`ranks`, each song's place in it), as MPD's stable sort keeps its database's.
    static func sorted(_ songs: [Song], ranks: [Int], by sort: SortKey, descending: Bool) -> [Song] {
        func ordered<Key: Comparable>(_ key: (Song) -> Key) -> [Song] {
            let keyed = songs.indices.map { (key(songs[$0]), ranks[$0], songs[$0]) }
            return keyed.sorted { a, b in
                if a.0 != b.0 { return descending ? a.0 > b.0 : a.0 < b.0 }
                return a.1 < b.1
            }.map(\.2)
        }
        switch sort {
        case .lastModified:
            return ordered { $0.mtime / 1_000_000_000 } // seconds, as Last-Modified prints it
        case .tag(let level):
            func first(_ song: Song) -> String {
                var first: String?
                MPDResponse.forEachValue(of: level, in: song) { if first == nil { first = $0 } }
                return first ?? ""
            }
            if level.tag == .track || level.tag == .disc {
                return ordered { Self.leadingNumber(first($0)) }
            }
            return ordered { ValueKey(first($0)) }
        }
    }

    /// What C's `strtol(s, nullptr, 10)` reads: optional blanks and sign, then digits; else 0.
    static func leadingNumber(_ s: String) -> Int {
        var bytes = s.utf8[...]
        while let b = bytes.first, b == 0x20 || (0x09...0x0D).contains(b) { bytes.removeFirst() }
        var sign = 1
        if let b = bytes.first, b == UInt8(ascii: "-") || b == UInt8(ascii: "+") {
            if b == UInt8(ascii: "-") { sign = -1 }
            bytes.removeFirst()
        }
        var n = 0
        for b in bytes {
            guard (0x30...0x39).contains(b) else { break }
            let (m, overflow) = n.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = m.addingReportingOverflow(Int(b - 0x30))
            if overflow || overflow2 { return sign == 1 ? Int.max : Int.min }
            n = sum
        }
        return sign * n
    }
}
