extension DataBasis {
    /// How many songs each of these albums holds (an album the basis lacks is left out), without
    /// the album index of the whole basis: over an image, the album column's distinct titles are
    /// folded once and only the rows whose title is one of the keys' are read, four fields each.
    /// `ls -a --view` shows each album's count in the whole library; building the index of
    /// 50,000 songs for the 400 albums a view lists was two fifths of that command.
    public func songCounts(ofAlbums keys: Set<AlbumKey>) -> [AlbumKey: Int] {
        guard !keys.isEmpty else { return [:] }
        let titles = Set(keys.map(\.title))
        guard let image = songs.image,
              let picked = image.rows(of: .album, where: { $0.string.map { titles.contains(Fold.key($0)) } ?? false }) else {
            var out: [AlbumKey: Int] = [:]
            for k in keys { if let ids = albums[k] { out[k] = ids.count } }
            return out
        }
        let rows = picked.indices.filter { songs.isLive(imageID: image.id(atRow: $0)) }
        // The album artist, as `AlbumKey` reads it, falls back on the compilation flag and the artists.
        let read = image.songs(atRows: rows, reading: [.album, .albumartist, .artists, .compilation]) + songs.deltaSongs
        var out: [AlbumKey: Int] = [:]
        for s in read {
            if let k = AlbumKey(s), keys.contains(k) { out[k, default: 0] += 1 }
        }
        return out
    }
}
