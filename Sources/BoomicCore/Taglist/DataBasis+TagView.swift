import Foundation

/// TagViews (DESIGN §5): the library as if only a taglist's songs existed.
///
/// A view is a basis, so everything that reads a basis — queries, albums, artists, search,
/// `--as-of` — works on it unchanged: an album with no song in the taglist is simply not there,
/// and an artist's album count is what the view holds. Being a pure function of the basis, a view
/// follows every edit at once; nothing is stored or cached between commands.
extension DataBasis {
    public func view(through taglist: Taglist, timeZone: TimeZone = .gmt) -> DataBasis {
        let matcher = TaglistMatcher(taglist, timeZone: timeZone)
        if let (image, rows) = imageRows(matcher) {
            // Decided on the columns; then only the songs kept are read, in one pass.
            let kept = image.songs(atRows: rows) + songs.deltaSongs.filter(matcher.matches)
            return keepingSongs(kept)
        }
        // The taglist's fields alone decide (over an image, only their columns are read), then
        // only the songs kept are read whole.
        var kept: [SongID] = []
        songs.forEach(reading: matcher.fieldsRead) { if matcher.matches($0) { kept.append($0.id) } }
        return keepingSongs(kept)
    }

    /// How many songs the taglist holds, without building a view (`taglist ls`, search hits).
    public func songCount(in taglist: Taglist, timeZone: TimeZone = .gmt) -> Int {
        let matcher = TaglistMatcher(taglist, timeZone: timeZone)
        if let (_, rows) = imageRows(matcher) {
            return rows.count + songs.deltaSongs.count(where: matcher.matches)
        }
        var n = 0
        songs.forEach(reading: matcher.fieldsRead) { if matcher.matches($0) { n += 1 } }
        return n
    }

    /// The image's rows the taglist holds that the delta does not shadow (the delta's songs are
    /// then tested whole), decided on the columns: O(distinct values + rows) of the fields its
    /// rules read, with no song read. Nil without an image or a column.
    private func imageRows(_ matcher: TaglistMatcher) -> (any SongImage, [Int])? {
        guard let image = songs.image, let rows = matcher.rows(in: image) else { return nil }
        return (image, rows.indices.filter { songs.isLive(imageID: image.id(atRow: $0)) })
    }

    /// How a change moves songs in and out of each taglist (`--dry-run`'s what-if).
    ///
    /// Membership depends on the song alone, so only the songs the assertions touch are looked
    /// at, on both sides: O(changed songs × taglists), not O(library).
    public func taglistEffects(of assertions: [Assertion], timeZone: TimeZone = .gmt) -> [TaglistEffect] {
        let after = applying(assertions)
        let touched = Set(assertions.compactMap(\.songID))
        var out: [TaglistEffect] = []
        for (id, taglist) in after.taglistsByName {
            let matcher = TaglistMatcher(taglist, timeZone: timeZone)
            var effect = TaglistEffect(id: id, name: taglist.name)
            for song in touched.sorted() {
                let was = self[song].map(matcher.matches) ?? false
                let now = after[song].map(matcher.matches) ?? false
                if now && !was { effect.gains.append(song) }
                if was && !now { effect.loses.append(song) }
            }
            if !effect.gains.isEmpty || !effect.loses.isEmpty { out.append(effect) }
        }
        return out
    }
}

/// The songs a taglist would gain and lose through a change.
public struct TaglistEffect: Hashable, Sendable {
    public var id: ListID
    public var name: String
    public var gains: [SongID] = []
    public var loses: [SongID] = []
}
