/// The music folder a library's songs imply, for a library whose remembered folders are lost:
/// `folders.json` lives beside `library.sqlite`, so a library restored from its database alone,
/// or rebuilt by `import-json` from an export, holds its songs but names no folder. `serve` then
/// names paths from the deepest folder that holds every song rather than hiding them all.
public enum InferredMusicFolder {
    /// The deepest folder holding every path (by bytes; `/` at least); nil without an absolute
    /// path. The common folder of paths sorted by bytes is that of the first and the last, so a
    /// caller holding its paths in order passes those two.
    public static func common(_ paths: some Sequence<String>) -> String? {
        var prefix: [UInt8]?
        for path in paths {
            let bytes = Array(path.utf8)
            guard bytes.first == UInt8(ascii: "/") else { continue }
            guard let p = prefix else {
                prefix = bytes
                continue
            }
            let n = zip(p, bytes).prefix { $0 == $1 }.count
            prefix = Array(p[..<n])
        }
        guard var p = prefix else { return nil }
        // A song's own path is no folder, and `/music/ab` is no folder of `/music/abc/x.flac`.
        while let last = p.last, last != UInt8(ascii: "/") { p.removeLast() }
        if p.count > 1 { p.removeLast() }
        return String(decoding: p, as: UTF8.self)
    }
}

extension DataBasis {
    /// `InferredMusicFolder.common` of the songs' paths, reading two of the image's rows (they
    /// are in path order) and the songs changed since it, not every song.
    public var inferredMusicFolder: String? {
        var paths = songs.deltaSongs.map(\.path)
        if let image = songs.image, image.rowCount > 0, let column = image.column(.path) {
            for code in [0, image.rowCount - 1] {
                if let p = column.value(code).string { paths.append(p) }
            }
        } else if let image = songs.image, image.rowCount > 0 {
            paths += image.songs(atRows: [0, image.rowCount - 1], reading: []).map(\.path)
        }
        return InferredMusicFolder.common(paths)
    }
}
