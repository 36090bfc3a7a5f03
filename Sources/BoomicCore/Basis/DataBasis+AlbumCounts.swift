import Foundation

extension DataBasis {
    /// How many songs each of these albums holds (an album the basis lacks is left out), without
    /// the album index of the whole basis: over an image, the album column's distinct titles are
    /// folded once and only the rows whose title is one of the keys' are grouped, by the codes
    /// of four fields.
    /// `ls -a --view` shows each album's count in the whole library; building the index of
    /// 50,000 songs for the 400 albums a view lists was two fifths of that command.
    public func songCounts(ofAlbums keys: Set<AlbumKey>) -> [AlbumKey: Int] {
        guard !keys.isEmpty else { return [:] }
        let titles = Set(keys.map(\.title))
        // The album artist, as `AlbumKey` reads it, falls back on the compilation flag and the
        // artists: rows are grouped by the codes of those four fields, and each group's key is
        // folded once (a few hundred groups for thousands of rows).
        let fields: [SongField] = [.album, .albumartist, .artists, .compilation]
        guard let image = songs.image, case let columns = fields.compactMap(image.column), columns.count == fields.count else {
            var out: [AlbumKey: Int] = [:]
            for k in keys { if let ids = albums[k] { out[k] = ids.count } }
            return out
        }
        // Each distinct title folded once; each column's codes read in one tight pass (a
        // closure call and a segment check per row and field cost more than four whole columns
        // of codes, 200 KB each at 50,000 songs).
        let passing = columns[0].map { $0.string.map { titles.contains(Fold.key($0)) } ?? false }
        var groups: [SIMD4<Int>: Int] = [:]
        if passing.contains(true) {
            let codes = columns.map { $0.codes() }
            for row in 0..<image.rowCount {
                let album = Int(codes[0][row])
                guard album < passing.count, passing[album], songs.isLive(imageID: image.id(atRow: row)) else { continue }
                groups[SIMD4(album, Int(codes[1][row]), Int(codes[2][row]), Int(codes[3][row])), default: 0] += 1
            }
        }
        var out: [AlbumKey: Int] = [:]
        for (codes, n) in groups {
            var s = Song(id: SongID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))), path: "")
            for (i, f) in fields.enumerated() { f.set(columns[i].value(codes[i]), in: &s) }
            if let k = AlbumKey(s), keys.contains(k) { out[k, default: 0] += n }
        }
        for s in songs.deltaSongs {
            if let k = AlbumKey(s), keys.contains(k) { out[k, default: 0] += 1 }
        }
        return out
    }
}
