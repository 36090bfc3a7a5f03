import HashTreeCollections

/// One search over one basis: scans the songs once, groups the albums and artists of the songs
/// that matched, then ranks.
///
/// An album matches only through its songs' album title and album artist, and an artist only
/// through the names its songs list, so every song of a matching album or artist passes the
/// song test too: grouping the songs that passed gives exactly the counts `ls -a` and
/// `ls --artists` show, without the basis's album and artist indexes (building those costs
/// more than the search).
struct SearchPass {
    let query: SearchQuery
    var text = SearchText()

    // The current candidate's fields, normalized (reused from song to song).
    private var words: [UInt8] = []
    private var squash: [UInt8] = []
    private var spans: [FieldSpan] = []
    var scratch = SearchText.Scratch()

    private(set) var songs: [Scored<Song>] = []
    private(set) var albums: [Scored<AlbumGroup>] = []
    private var albumIndex: [AlbumKey: Int] = [:]
    private(set) var artists: [Scored<ArtistGroup>] = []
    private var artistIndex: [String: Int] = [:]
    private(set) var items: [Scored<SearchItem>] = []

    struct Scored<Value> {
        var value: Value
        var tier: SearchTier
        var isNameMatch: Bool
        /// Scalars in the normalized name: shorter names rank first.
        var nameLength: Int
    }

    struct AlbumGroup {
        var key: AlbumKey
        /// The song `ls -a` takes the album's spelling from: first by disc, track, path.
        var first: Song
        var songs: Int
    }

    struct ArtistGroup {
        var key: String
        /// The spelling `ls --artists` shows: the least of those the songs use.
        var name: String
        var songs: Int
        var albums: Set<AlbumKey>
    }

    init(_ text: String) throws(SearchError) {
        query = try SearchQuery(text, using: &self.text)
        words.reserveCapacity(1_024)
        squash.reserveCapacity(1_024)
        spans.reserveCapacity(16)
    }

    // MARK: Scanning

    mutating func scan(_ library: some Sequence<Song>, items offered: [SearchItem]) {
        for song in library { scan(song) }
        for item in offered {
            clearFields()
            addField(.name, item.name, 0)
            let m = fieldMasks()
            if let t = tier(name: 0, of: m, among: 0..<1) {
                items.append(Scored(value: item, tier: t.0, isNameMatch: t.1, nameLength: nameLength(0)))
            }
        }
    }

    private mutating func scan(_ s: Song) {
        guard mayMatch(s) else { return }
        load(s)
        let m = fieldMasks()
        if let t = tier(name: 0, of: m, among: 0..<spans.count) {
            songs.append(Scored(value: s, tier: t.0, isNameMatch: t.1, nameLength: nameLength(0)))
        }
        // The album, by its title and album artist alone.
        var albumKey: AlbumKey?
        if let a = spans.firstIndex(where: { $0.field == .album }), let key = AlbumKey(s) {
            albumKey = key
            let end = a + 1 < spans.count && spans[a + 1].field == .albumartist ? a + 2 : a + 1
            if let t = tier(name: a, of: m, among: a..<end) {
                if let i = albumIndex[key] {
                    albums[i].value.songs += 1
                    if Self.albumOrder(s, albums[i].value.first) { albums[i].value.first = s }
                } else {
                    albumIndex[key] = albums.count
                    albums.append(Scored(value: AlbumGroup(key: key, first: s, songs: 1),
                                         tier: t.0, isNameMatch: t.1, nameLength: nameLength(a)))
                }
            }
        }
        // Each artist it lists, by name alone. As in `ls --artists`, a song counts once per artist
        // however many times it names them, with the spelling named last, and an album counts for
        // its album artist.
        var spelled: [(key: String, name: String, span: Int)] = []
        var albumArtistMatched = false
        for (i, span) in spans.enumerated() where span.field == .artist || span.field == .albumartist {
            guard tier(name: i, of: m, among: i..<i + 1) != nil else { continue }
            let name = span.field == .artist ? s.artists[span.ordinal] : s.effectiveAlbumArtist ?? ""
            let key = Fold.key(name)
            if key.isEmpty { continue }
            if span.field == .albumartist { albumArtistMatched = true }
            if let j = spelled.firstIndex(where: { $0.key == key }) {
                spelled[j].name = name
            } else {
                spelled.append((key, name, i))
            }
        }
        for (key, name, i) in spelled {
            if let j = artistIndex[key] {
                artists[j].value.songs += 1
                if name < artists[j].value.name { artists[j].value.name = name }
            } else {
                let t = tier(name: i, of: m, among: i..<i + 1)!
                artistIndex[key] = artists.count
                artists.append(Scored(value: ArtistGroup(key: key, name: name, songs: 1, albums: []),
                                      tier: t.0, isNameMatch: t.1, nameLength: nameLength(i)))
            }
        }
        if albumArtistMatched, let albumKey, let j = artistIndex[albumKey.artist] {
            artists[j].value.albums.insert(albumKey)
        }
    }

    /// `ls -a` spells an album as its first song by disc, track and path does (id breaks ties).
    static func albumOrder(_ a: Song, _ b: Song) -> Bool {
        (a.disc ?? 0, a.track ?? 0, a.path, a.id) < (b.disc ?? 0, b.track ?? 0, b.path, b.id)
    }

    // MARK: Fields

    mutating func clearFields() {
        words.removeAll(keepingCapacity: true)
        squash.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
    }

    mutating func addField(_ field: SearchField, _ s: String, _ ordinal: Int) {
        let w0 = words.count, s0 = squash.count
        text.append(s, words: &words, squash: &squash)
        spans.append(FieldSpan(field: field, words: w0..<words.count, squash: s0..<squash.count, ordinal: ordinal))
        words.append(SearchText.fieldSeparator)
        squash.append(SearchText.fieldSeparator)
    }

    /// Whether every word of the text is somewhere in the song's fields: the test almost every
    /// song fails, so it only squashes the fields, in place.
    private mutating func mayMatch(_ s: Song) -> Bool {
        // Each field read once: every getter retains a string, and the song's box is a cache miss.
        scratch.count = 0
        if let title = s.title, !title.isEmpty {
            text.appendSquash(title, to: &scratch)
        } else {
            text.appendSquash(Self.name(of: s), to: &scratch)
        }
        scratch.append(SearchText.fieldSeparator)
        let artists = s.artists
        for a in artists {
            text.appendSquash(a, to: &scratch)
            scratch.append(SearchText.fieldSeparator)
        }
        if let album = s.album {
            text.appendSquash(album, to: &scratch)
            scratch.append(SearchText.fieldSeparator)
            // `Song.effectiveAlbumArtist` without reading `artists` again (the laws compare).
            if let aa = s.albumartist, !aa.isEmpty {
                text.appendSquash(aa, to: &scratch)
            } else if s.compilation {
                text.appendSquash("Various Artists", to: &scratch)
            } else if let first = artists.first {
                text.appendSquash(first, to: &scratch)
            }
            scratch.append(SearchText.fieldSeparator)
        }
        if let c = s.composer { text.appendSquash(c, to: &scratch) }
        return scratch.storage.withUnsafeBufferPointer { query.mayMatch(squash: UnsafeBufferPointer(rebasing: $0[..<scratch.count])) }
    }

    /// A song's searched fields, the name first.
    private mutating func load(_ s: Song) {
        clearFields()
        addField(.name, Self.name(of: s), 0)
        for (i, a) in s.artists.enumerated() { addField(.artist, a, i) }
        if let album = s.album {
            addField(.album, album, 0)
            if let aa = s.effectiveAlbumArtist { addField(.albumartist, aa, 0) }
        }
        if let c = s.composer { addField(.composer, c, 0) }
    }

    /// A song's name: its title, else its file name without the extension.
    static func name(of s: Song) -> String {
        if let t = s.title, !t.isEmpty { return t }
        let file = s.path.split(separator: "/").last.map(String.init) ?? s.path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }

    func fieldMasks() -> [FieldMask] {
        words.withUnsafeBufferPointer { w in
            squash.withUnsafeBufferPointer { s in spans.map { query.mask($0, words: w, squash: s) } }
        }
    }

    private func tier(name: Int, of masks: [FieldMask], among range: Range<Int>) -> (SearchTier, Bool)? {
        let all = masks[range].reduce(FieldMask(), |)
        guard all.substring == query.all else { return nil }
        return words.withUnsafeBufferPointer { w in
            squash.withUnsafeBufferPointer { s in
                query.tier(name: spans[name], nameMask: masks[name], allMask: all, words: w, squash: s)
            }
        }
    }

    private func nameLength(_ span: Int) -> Int {
        words[spans[span].words].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }
}
