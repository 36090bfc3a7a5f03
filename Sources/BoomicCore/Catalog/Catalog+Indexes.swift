extension Catalog {
    /// The articles Subsonic servers leave out when they file and sort artists (`The Beatles`
    /// under B), as `getIndexes` reports them in `ignoredArticles`.
    public static let defaultIgnoredArticles = ["The", "El", "La", "Los", "Las", "Le", "Les"]

    /// The artists by first letter (`getIndexes`, `getArtists`): a name's leading article
    /// (followed by a space) is skipped, the letter is folded and uppercased (`Édith` under E),
    /// and names that start with anything but A–Z go under `#`, which comes last. Within a letter,
    /// artists sort by their name without the article, folded.
    public func indexes(ignoredArticles: [String] = Catalog.defaultIgnoredArticles) -> [CatalogIndex] {
        let articles = ignoredArticles.map { Fold.key($0) + " " }.filter { $0.count > 1 }
        var byLetter: [String: [(sortKey: String, position: Int)]] = [:]
        for (i, artist) in artists.enumerated() {
            let key = Self.sortKey(artist.name, articles: articles)
            byLetter[Self.letter(of: key), default: []].append((key, i))
        }
        return byLetter.keys.sorted { a, b in a == "#" ? false : b == "#" ? true : a < b }.map { letter in
            let members = byLetter[letter]!.sorted { $0.sortKey != $1.sortKey ? $0.sortKey < $1.sortKey : $0.position < $1.position }
            return CatalogIndex(letter: letter, artists: members.map { artists[$0.position] })
        }
    }

    /// The folded name without its leading article (`the beatles` → `beatles`); a name that is
    /// only an article keeps it.
    static func sortKey(_ name: String, articles: [String]) -> String {
        let folded = Fold.key(name)
        for a in articles where folded.hasPrefix(a) && folded.count > a.count {
            return String(folded.dropFirst(a.count)).drop { $0 == " " }.description
        }
        return folded
    }

    /// `A`…`Z` for a folded key starting with a Latin letter, else `#`.
    static func letter(of key: String) -> String {
        guard let c = key.unicodeScalars.first, ("a"..."z").contains(c) else { return "#" }
        return String(c).uppercased()
    }
}
