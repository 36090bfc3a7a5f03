extension SongField {
    /// Whether the import joins a file's several values into this one text with "; "
    /// (`FileFacts.apply(tags:)`: ALBUMARTIST, GENRE, COMPOSER, PERFORMER, CONDUCTOR, the sort
    /// names of artists and composers, ensembles, MusicBrainz artist, album artist and work ids, and ARTIST when it is the credit
    /// next to ARTISTS), as `Song.artist` joins artists.
    public var joinsValues: Bool { Self.joining[ordinal] }

    /// The value as a match sees it: `queryValue`, except that a joined field holding several
    /// values offers each of them as well as the whole text, as the artists do. A file tagged
    /// GENRE=Jazz and GENRE=Fusion is then found by `genre:=Jazz`, and by MPD's `find genre
    /// Jazz`, which would otherwise only match `Jazz; Fusion` itself.
    public func matchValue(in song: Song) -> FieldValue {
        matchValue(of: value(in: song))
    }

    /// `matchValue(in:)` of a song whose `value(in:)` is `stored`: what a query over an image's
    /// column tests once per distinct value.
    public func matchValue(of stored: FieldValue) -> FieldValue {
        let v = queryValue(of: stored)
        guard joinsValues, case .string(let s) = v, Self.mayJoin(s) else { return v }
        var parts: [String] = []
        Self.forEachJoinedValue(s) { parts.append($0) }
        return parts.count > 1 ? .strings(parts) : v
    }

    /// Each non-empty value of a text joined with "; ", in order; the text itself, without a
    /// copy, when it joins nothing (the common case, which is what a pass over 50,000 songs
    /// meets).
    public static func forEachJoinedValue(_ text: String, _ body: (String) -> Void) {
        guard mayJoin(text) else {
            if !text.isEmpty { body(text) }
            return
        }
        let u = text.utf8
        var start = u.startIndex, i = u.startIndex
        var split = false
        while i != u.endIndex {
            let next = u.index(after: i)
            if u[i] == 0x3B, next != u.endIndex, u[next] == 0x20 {
                if start != i { body(String(text[start..<i])) }
                split = true
                start = u.index(after: next)
                i = start
            } else {
                i = next
            }
        }
        if !split { if !text.isEmpty { body(text) } } else if start != u.endIndex { body(String(text[start...])) }
    }

    /// Whether `text` holds a ";" at all: the question every value of a 50,000-song
    /// `listallinfo` asks, where walking the UTF-8 view by index costs a tenth of the answer.
    @inline(__always)
    public static func mayJoin(_ text: String) -> Bool { semicolons(in: text) > 0 }

    /// How many ";" `text` holds, in one plain loop over its bytes (values are short: a call to
    /// `memchr` per value costs more than the loop).
    @inline(__always)
    public static func semicolons(in text: String) -> Int {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            var n = 0
            for b in bytes where b == 0x3B { n += 1 }
            return n
        } ?? text.utf8.count(where: { $0 == 0x3B })
    }
}
