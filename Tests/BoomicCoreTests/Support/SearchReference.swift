import Foundation
@testable import BoomicCore

/// The search as `Documentation/search.md` states it, written the slow and obvious way: fold
/// whole strings with `Fold.key`, compare arrays of scalars, group albums and artists over every
/// song as `ls -a` / `ls --artists` do. The laws compare `DataBasis.search` with it.
enum SearchReference {
    typealias Scalars = [Unicode.Scalar]

    /// Folded words of letters, digits and marks; apostrophes join, everything else splits.
    static func words(_ s: String) -> [Scalars] {
        var words: [Scalars] = [], current: Scalars = []
        for f in Fold.key(s).unicodeScalars {
            if [0x27, 0x60, 0x2018, 0x2019, 0x02BC, 0x02BB, 0xFF07].contains(f.value) { continue }
            let isWord: Bool
            switch f.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
                isWord = true
            default:
                isWord = false
            }
            if isWord {
                current.append(f.isASCII ? Unicode.Scalar(UInt8(f.value)) : f)
            } else if !current.isEmpty {
                words.append(current)
                current = []
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    static func phrase(_ ws: [Scalars]) -> Scalars { Array(ws.joined(separator: [" "])) }

    struct Candidate {
        var subject: SearchHit.Subject
        var kind: SearchKind
        var fields: [(SearchField, String)]
        /// The fields the song is searched by but does not show (an album artist equal to an artist).
        var hiddenFields: [(SearchField, String)] = []
    }

    static func search(_ text: String, in basis: DataBasis, items: [SearchItem] = [], limit: Int? = nil) -> [SearchHit]? {
        let qWords = words(text).reduce(into: [Scalars]()) { if !$0.contains($1) { $0.append($1) } }
        guard !qWords.isEmpty, qWords.count <= SearchQuery.maxWords else { return nil }
        let qPhrase = phrase(words(text)), qSquash = Array(words(text).joined())

        var ranked: [(key: (Int, Int, Int, Int, Scalars), id: String, hit: SearchHit)] = []
        for c in candidates(basis, items) {
            let all = c.fields + c.hiddenFields
            let fieldWords = all.map { words($0.1) }
            func prefix(_ q: Scalars, _ i: Int) -> Bool { fieldWords[i].contains { $0.starts(with: q) } }
            func inside(_ q: Scalars, _ i: Int) -> Bool { contains(Array(fieldWords[i].joined()), q) }
            let name = fieldWords[0]
            guard qWords.allSatisfy({ q in all.indices.contains { inside(q, $0) } }) else { continue }
            let tier: SearchTier, inName: Bool
            if phrase(name) == qPhrase || Array(name.joined()) == qSquash {
                (tier, inName) = (.exact, true)
            } else if phrase(name).starts(with: qPhrase) {
                (tier, inName) = (.namePrefix, true)
            } else if qWords.allSatisfy({ q in all.indices.contains { prefix(q, $0) } }) {
                (tier, inName) = (.wordPrefix, qWords.allSatisfy { prefix($0, 0) })
            } else {
                (tier, inName) = (.substring, qWords.allSatisfy { inside($0, 0) })
            }
            var matches = [SearchHit.Match(field: .name, text: c.fields[0].1)]
            if tier >= .wordPrefix {
                matches = c.fields.indices.filter { i in
                    qWords.contains { tier == .wordPrefix ? prefix($0, i) : inside($0, i) }
                }.map { SearchHit.Match(field: c.fields[$0].0, text: c.fields[$0].1) }
            }
            let hit = SearchHit(subject: c.subject, name: c.fields[0].1, tier: tier, isNameMatch: inName, matches: matches)
            // Name matches: shorter names first, then kind; other matches: kind first, then length.
            let (first, second) = inName ? (phrase(name).count, c.kind.rank) : (c.kind.rank, phrase(name).count)
            ranked.append(((tier.rawValue, inName ? 0 : 1, first, second, phrase(name)), id(c.subject), hit))
        }
        ranked.sort { a, b in
            if a.key.0 != b.key.0 { return a.key.0 < b.key.0 }
            if a.key.1 != b.key.1 { return a.key.1 < b.key.1 }
            if a.key.2 != b.key.2 { return a.key.2 < b.key.2 }
            if a.key.3 != b.key.3 { return a.key.3 < b.key.3 }
            if a.key.4 != b.key.4 { return a.key.4.lexicographicallyPrecedes(b.key.4) { $0.value < $1.value } }
            return a.id < b.id
        }
        return Array(ranked.map(\.hit).prefix(max(0, limit ?? ranked.count)))
    }

    /// A total order among same-kind subjects, as the search breaks ties.
    private static func id(_ s: SearchHit.Subject) -> String {
        switch s {
        case .song(let id): id.description
        case .album(let k, _, _, _): k.artist + "\u{0}" + k.title
        case .artist(let key, _, _, _): key
        case .taglist(let id, _), .playlist(let id, _): id
        }
    }

    private static func contains(_ hay: Scalars, _ needle: Scalars) -> Bool {
        guard needle.count <= hay.count else { return false }
        return (0...(hay.count - needle.count)).contains { hay[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    static func candidates(_ basis: DataBasis, _ items: [SearchItem]) -> [Candidate] {
        var out: [Candidate] = []
        let songs = basis.songs.values.sorted { $0.id < $1.id }
        for s in songs {
            var fields: [(SearchField, String)] = [(.name, SearchPass.name(of: s))]
            var hidden: [(SearchField, String)] = []
            fields += s.artists.map { (.artist, $0) }
            if let album = s.album {
                fields.append((.album, album))
                if let aa = s.effectiveAlbumArtist {
                    if s.artists.contains(aa) { hidden.append((.albumartist, aa)) } else { fields.append((.albumartist, aa)) }
                }
            }
            if let c = s.composer { fields.append((.composer, c)) }
            out.append(Candidate(subject: .song(s.id), kind: .song, fields: fields, hiddenFields: hidden))
        }
        // Albums, as `ls -a` groups and spells them.
        var albums: [AlbumKey: [Song]] = [:]
        for s in songs { if let k = AlbumKey(s) { albums[k, default: []].append(s) } }
        for (k, ss) in albums {
            let first = ss.min { SearchPass.albumOrder($0, $1) }!
            let title = first.album ?? "", artist = first.effectiveAlbumArtist ?? ""
            out.append(Candidate(subject: .album(k, title: title, artist: artist, songs: ss.count), kind: .album,
                                 fields: [(.name, title), (.albumartist, artist)]))
        }
        // Artists, as `ls --artists` counts and spells them.
        var names: [String: String] = [:], counts: [String: Int] = [:], albumSets: [String: Set<AlbumKey>] = [:]
        for s in songs {
            var spelled: [String: String] = [:]
            for a in s.artists { spelled[Fold.key(a)] = a }
            if s.album != nil, let aa = s.effectiveAlbumArtist { spelled[Fold.key(aa)] = aa }
            for (k, name) in spelled where !k.isEmpty {
                if names[k] == nil || name < names[k]! { names[k] = name }
                counts[k, default: 0] += 1
            }
            if let ak = AlbumKey(s) { albumSets[ak.artist, default: []].insert(ak) }
        }
        for (k, name) in names {
            out.append(Candidate(subject: .artist(key: k, name: name, albums: albumSets[k]?.count ?? 0, songs: counts[k]!),
                                 kind: .artist, fields: [(.name, name)]))
        }
        for item in items {
            let subject: SearchHit.Subject = item.kind == .playlist
                ? .playlist(id: item.id, name: item.name) : .taglist(id: item.id, name: item.name)
            out.append(Candidate(subject: subject, kind: item.kind == .playlist ? .playlist : .taglist, fields: [(.name, item.name)]))
        }
        return out
    }
}
