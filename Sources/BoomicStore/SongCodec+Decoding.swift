import BoomicCore
import Foundation

extension SongCodec {
    /// The songs in `bytes`, which must hold exactly what `encode` wrote.
    public static func decode(_ bytes: [UInt8]) throws -> [Song] {
        try bytes.withUnsafeBytes { try decode($0) }
    }

    /// The songs in `buffer`, read in place (a checkpoint straight out of SQLite).
    public static func decode(_ buffer: UnsafeRawBufferPointer) throws -> [Song] {
        var reader = ByteReader(buffer)
        let songs = try decode(from: &reader)
        guard reader.isAtEnd else {
            throw StoreError.badEncoding("\(reader.remaining) bytes follow the last song")
        }
        return songs
    }

    /// Reads songs written by `encode(_:into:)` and leaves `reader` after them.
    public static func decode(from r: inout ByteReader) throws -> [Song] {
        let v = try r.byte()
        guard v == version else {
            throw StoreError.badEncoding("song data of version \(v), but this boomic reads version \(version)")
        }
        // Every table entry takes at least its length byte, every song at least 18 bytes.
        let tableCount = try r.count(atMost: r.remaining)
        var table: [String] = []
        table.reserveCapacity(tableCount)
        for _ in 0..<tableCount { table.append(try r.string()) }
        let listCount = try r.count(atMost: r.remaining)
        var lists: [[String]] = []
        lists.reserveCapacity(listCount)
        for _ in 0..<listCount {
            let n = try r.count(atMost: r.remaining)
            var list: [String] = []
            list.reserveCapacity(n)
            for _ in 0..<n { list.append(try shared(&r, table)) }
            lists.append(list)
        }
        let count = try r.count(atMost: r.remaining / 18)
        var songs: [Song] = []
        songs.reserveCapacity(count)
        for _ in 0..<count { songs.append(try decodeSong(&r, table, lists)) }
        return songs
    }

    @inline(__always)
    private static func shared<E>(_ r: inout ByteReader, _ table: [E]) throws -> E {
        let at = r.offset
        let i = try r.varint()
        guard i < UInt64(table.count) else {
            throw StoreError.badEncoding("a reference at byte \(at) is past the table's \(table.count) entries")
        }
        return table[Int(i)]
    }

    private static func decodeSong(_ r: inout ByteReader, _ table: [String], _ lists: [[String]]) throws -> Song {
        let id = try r.uuid()
        let at = r.offset
        let bits = try r.varint()
        guard bits & ~Bit.all == 0 else {
            throw StoreError.badEncoding("a song at byte \(at) has fields this boomic does not know")
        }
        var s = Song(id: SongID(id), path: try r.string())
        @inline(__always) func has(_ bit: Bit) -> Bool { bits & bit.mask != 0 }
        @inline(__always) func shared() throws -> String { try Self.shared(&r, table) }
        @inline(__always) func sharedList() throws -> [String] { try Self.shared(&r, lists) }

        if has(.size) { s.size = try r.int() }
        if has(.mtime) { s.mtime = try r.int() }
        if has(.fingerprint) { s.fingerprint = try r.string() }
        s.missing = has(.missing)
        if has(.added) { s.added = try r.double() }
        if has(.title) { s.title = try r.string() }
        if has(.artists) { s.artists = try sharedList() }
        if has(.album) { s.album = try shared() }
        if has(.albumartist) { s.albumartist = try shared() }
        if has(.track) { s.track = try r.int() }
        if has(.tracktotal) { s.tracktotal = try r.int() }
        if has(.disc) { s.disc = try r.int() }
        if has(.disctotal) { s.disctotal = try r.int() }
        if has(.year) { s.year = try r.int() }
        if has(.date) { s.date = try shared() }
        if has(.genre) { s.genre = try shared() }
        if has(.composer) { s.composer = try shared() }
        s.compilation = has(.compilation)
        if has(.comment) { s.comment = try r.string() }
        if has(.replaygainTrackGain) { s.replaygainTrackGain = try r.double() }
        if has(.replaygainTrackPeak) { s.replaygainTrackPeak = try r.double() }
        if has(.replaygainAlbumGain) { s.replaygainAlbumGain = try r.double() }
        if has(.replaygainAlbumPeak) { s.replaygainAlbumPeak = try r.double() }
        if has(.mbTrackID) { s.mbTrackID = try r.string() }
        if has(.mbAlbumID) { s.mbAlbumID = try shared() }
        if has(.mbArtistID) { s.mbArtistID = try shared() }
        if has(.mbAlbumArtistID) { s.mbAlbumArtistID = try shared() }
        if has(.mbReleaseGroupID) { s.mbReleaseGroupID = try shared() }
        if has(.duration) { s.duration = try r.double() }
        if has(.samplerate) { s.samplerate = try r.int() }
        if has(.bitdepth) { s.bitdepth = try r.int() }
        if has(.channels) { s.channels = try r.int() }
        if has(.bitrate) { s.bitrate = try r.int() }
        if has(.format) { s.format = try shared() }
        if has(.tags) { s.tags = try sharedList() }
        if has(.rating) { s.rating = try r.int() }
        if has(.playcount) { s.playcount = try r.int() }
        s.favorite = has(.favorite)
        if has(.art) { s.art = try shared() }
        if has(.fileValues) { s.fileValues = try (0..<r.count(atMost: r.remaining)).map { _ in try r.string() } }
        return s
    }
}
