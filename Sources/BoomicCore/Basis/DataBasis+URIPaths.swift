extension DataBasis {
    /// The songs an absolute path names as MPD clients and playlists name them: a file's song;
    /// an image's tracks, in order (a path that holds tracks is their album, as in MPD, where
    /// the image plays whole); or one track by its URI (`…/image.cue/track0002`,
    /// `…/book.mp3/track0002`, `Song.uriPath`). Present songs before missing ones.
    public func songs(atURIPath path: String) -> [Song] {
        if let ids = paths[PathKey(path)] {
            let found = ids.compactMap { songs[$0] }.sorted { a, b in
                (a.missing ? 1 : 0, a.start ?? 0, a.id) < (b.missing ? 1 : 0, b.start ?? 0, b.id)
            }
            if let whole = found.first(where: { $0.start == nil }) { return [whole] }
            let present = found.filter { !$0.missing }
            return present.isEmpty ? found : present
        }
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")),
              path[path.index(after: slash)...].hasPrefix("track") else { return [] }
        // Track URIs are rare in playlists and stickers: a pass over the tracks, not an index.
        let image = songs.values.filter { $0.start != nil && $0.uriPath == path }
        return image.sorted { a, b in (a.missing ? 1 : 0, a.id) < (b.missing ? 1 : 0, b.id) }.prefix(1).map { $0 }
    }
}
