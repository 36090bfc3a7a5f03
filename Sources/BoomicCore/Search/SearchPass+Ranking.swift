extension SearchPass {
    /// A hit before it is dressed for output: what decides its rank.
    private struct Ranked {
        /// Tier, then not-a-name-match, then name length and kind, packed so that most
        /// comparisons are one integer compare. Lower is better. A hit whose own name matched
        /// ranks by length first (the closest name wins); one that matched only through another
        /// field (songs and albums of an artist searched for) ranks by kind first, so an
        /// artist's albums come before their songs, as in a player's search.
        var score: UInt64
        var kind: SearchKind
        /// Index into the list of its kind.
        var index: Int
        /// The normalized name, filled in only for hits that may be returned.
        var name: [UInt8] = []
    }

    /// The hits in rank order, at most `limit` of them.
    ///
    /// Candidates are ordered by their packed score first; only those that can still make the
    /// cut (all up to the `limit`-th score, ties included) get their names normalized for the
    /// final tie-breaks, and only the returned ones are dressed with display names and counts.
    mutating func hits(limit: Int?) -> [SearchHit] {
        var ranked: [Ranked] = []
        ranked.reserveCapacity(songs.count + albums.count + artists.count + items.count)
        func add<V>(_ xs: [Scored<V>], _ kind: SearchKind) {
            for (i, x) in xs.enumerated() {
                let length = UInt64(min(x.nameLength, (1 << 29) - 1))
                let score = UInt64(x.tier.rawValue) << 40 | (x.isNameMatch ? 0 : 1) << 39
                    | (x.isNameMatch ? length << 4 | UInt64(kind.rank) : UInt64(kind.rank) << 34 | length << 4)
                ranked.append(Ranked(score: score, kind: kind, index: i))
            }
        }
        add(songs, .song)
        add(albums, .album)
        add(artists, .artist)
        add(items, .taglist) // the kind rank is fixed below, per item
        for i in ranked.indices where ranked[i].kind == .taglist {
            let kind: SearchKind = items[ranked[i].index].value.kind == .playlist ? .playlist : .taglist
            ranked[i].kind = kind
            let name = ranked[i].score >> 39 & 1 == 0
            ranked[i].score = name ? ranked[i].score & ~0xF | UInt64(kind.rank)
                : ranked[i].score & ~(UInt64(0xF) << 34) | UInt64(kind.rank) << 34
        }

        let wanted = max(0, limit ?? ranked.count)
        guard wanted > 0, !ranked.isEmpty else { return [] }
        ranked.sort { $0.score < $1.score }
        if wanted < ranked.count {
            let cut = ranked[wanted - 1].score
            let end = ranked[wanted...].firstIndex { $0.score != cut } ?? ranked.count
            ranked.removeSubrange(end...)
        }
        for i in ranked.indices { ranked[i].name = text.words(displayName(ranked[i])) }
        ranked.sort(by: ordered)
        var out: [SearchHit] = []
        for r in ranked.prefix(wanted) { out.append(dress(r)) }
        return out
    }

    private func ordered(_ a: Ranked, _ b: Ranked) -> Bool {
        if a.score != b.score { return a.score < b.score }
        if !a.name.elementsEqual(b.name) { return a.name.lexicographicallyPrecedes(b.name) }
        switch a.kind {  // same score, so same kind
        case .song: return songs[a.index].value.id < songs[b.index].value.id
        case .album: return albums[a.index].value.key < albums[b.index].value.key
        case .artist: return artists[a.index].value.key < artists[b.index].value.key
        case .taglist, .playlist:
            let x = items[a.index].value.id, y = items[b.index].value.id
            return x != y ? x < y : a.index < b.index
        }
    }

    private func displayName(_ r: Ranked) -> String {
        switch r.kind {
        case .song: Self.name(of: songs[r.index].value)
        case .album: albums[r.index].value.first.album ?? ""
        case .artist: artists[r.index].value.name
        case .taglist, .playlist: items[r.index].value.name
        }
    }

    // MARK: Dressing

    private mutating func dress(_ r: Ranked) -> SearchHit {
        switch r.kind {
        case .song:
            let x = songs[r.index], s = x.value
            var fields: [(SearchField, String)] = [(.name, Self.name(of: s))]
            fields += s.artists.map { (.artist, $0) }
            if let album = s.album {
                fields.append((.album, album))
                // Shown only when it adds something: it is most often the first artist.
                if let aa = s.effectiveAlbumArtist, !s.artists.contains(aa) { fields.append((.albumartist, aa)) }
            }
            if let c = s.composer { fields.append((.composer, c)) }
            return hit(.song(s.id), x, fields)
        case .album:
            let x = albums[r.index], g = x.value
            let title = g.first.album ?? "", artist = g.first.effectiveAlbumArtist ?? ""
            return hit(.album(g.key, title: title, artist: artist, songs: g.songs), x,
                       [(.name, title), (.albumartist, artist)])
        case .artist:
            let x = artists[r.index], g = x.value
            return hit(.artist(key: g.key, name: g.name, albums: g.albums.count, songs: g.songs), x, [(.name, g.name)])
        case .taglist, .playlist:
            let x = items[r.index], item = x.value
            let subject: SearchHit.Subject = item.kind == .playlist
                ? .playlist(id: item.id, name: item.name) : .taglist(id: item.id, name: item.name)
            return hit(subject, x, [(.name, item.name)])
        }
    }

    /// A hit with the fields that matched at its tier: the name for exact and prefix matches,
    /// else each field holding a word's match.
    private mutating func hit<V>(_ subject: SearchHit.Subject, _ x: Scored<V>, _ fields: [(SearchField, String)]) -> SearchHit {
        var matched: [SearchHit.Match] = [SearchHit.Match(field: .name, text: fields[0].1)]
        if x.tier >= .wordPrefix {
            clearFields()
            for (i, f) in fields.enumerated() { addField(f.0, f.1, i) }
            let m = fieldMasks()
            matched = []
            for (i, f) in fields.enumerated() {
                let hits = x.tier == .wordPrefix ? m[i].prefix : m[i].substring
                if hits != 0 { matched.append(SearchHit.Match(field: f.0, text: f.1)) }
            }
        }
        return SearchHit(subject: subject, name: fields[0].1, tier: x.tier, isNameMatch: x.isNameMatch, matches: matched)
    }
}
