import BoomicCore
import BoomicStore
import Dispatch
import Foundation
import Synchronization

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
    ///
    /// The chunks are decoded on all cores at once, each straight into its place in the result.
    public static func decode(from r: inout ByteReader) throws -> [Song] {
        let v = try r.byte()
        guard v == version else {
            throw StoreError.badEncoding("song data of version \(v), but this boomic reads version \(version)")
        }
        // Every song takes at least 18 bytes, every chunk header two.
        let total = try r.count(atMost: r.remaining / 18)
        let chunkCount = try r.count(atMost: r.remaining / 2)
        var chunks: [Chunk] = []
        chunks.reserveCapacity(chunkCount)
        var first = 0, bytes = 0
        for _ in 0..<chunkCount {
            let n = try r.count(atMost: total - first)
            let length = try r.count(atMost: r.remaining)
            chunks.append(Chunk(first: first, count: n, offset: bytes, length: length))
            first += n
            bytes += length
        }
        guard first == total else {
            throw StoreError.badEncoding("the chunks hold \(first) songs, the header says \(total)")
        }
        let body = try r.bytes(bytes) // throws when the chunks claim more bytes than there are
        return try decode(chunks, total: total, in: body)
    }

    /// Where one chunk's songs go in the result, and where its bytes are in the body.
    struct Chunk: Sendable {
        var first: Int
        var count: Int
        var offset: Int
        var length: Int
    }

    private static func decode(_ chunks: [Chunk], total: Int, in body: UnsafeRawBufferPointer) throws -> [Song] {
        try [Song](unsafeUninitializedCapacity: total) { buffer, initialized in
            let target = Target(input: body, output: buffer)
            let failures = Mutex<[Int: StoreError]>([:])
            // One chunk (a small library) runs on this thread, without touching the thread pool.
            @Sendable func work(_ i: Int) {
                do {
                    try decodeChunk(chunks[i], target)
                } catch {
                    let e = error as? StoreError ?? .badEncoding(String(describing: error))
                    failures.withLock { $0[i] = e }
                }
            }
            if chunks.count == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: chunks.count, execute: work) }
            let failed = failures.withLock { $0 }
            if let firstFailed = failed.keys.min() {
                // Each chunk that failed has already destroyed what it made; destroy the others'.
                for (i, c) in chunks.enumerated() where failed[i] == nil && c.count > 0 {
                    (buffer.baseAddress! + c.first).deinitialize(count: c.count)
                }
                initialized = 0
                throw failed[firstFailed]!
            }
            initialized = total
        }
    }

    /// The input bytes and the result's storage, shared by the threads that decode chunks.
    ///
    /// `@unchecked Sendable` because it is only two pointers used within `decode(_:total:in:)`:
    /// the input is only read, and each chunk initializes its own range of the output (the ranges
    /// are disjoint: `decode(from:)` lays them end to end and checks they sum to the total), and
    /// `concurrentPerform` returns only after every chunk is done, before the output is read.
    private struct Target: @unchecked Sendable {
        let input: UnsafeRawBufferPointer
        let output: UnsafeMutableBufferPointer<Song>
    }

    /// Decodes one chunk into `target.output[first..<first + count]`. On error it leaves that
    /// range uninitialized (it destroys the songs it made) and throws.
    private static func decodeChunk(_ chunk: Chunk, _ target: Target) throws {
        let bytes = UnsafeRawBufferPointer(rebasing: target.input[chunk.offset..<(chunk.offset + chunk.length)])
        var r = ByteReader(bytes)
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
        // An empty result may have no storage at all; then no chunk has songs to put in it.
        let out = target.output.baseAddress.map { $0 + chunk.first }
        var made = 0
        do {
            while made < chunk.count, let out {
                (out + made).initialize(to: try decodeSong(&r, table, lists))
                made += 1
            }
            guard made == chunk.count else { throw StoreError.badEncoding("a chunk has songs but the result has no room") }
            guard r.isAtEnd else {
                throw StoreError.badEncoding("\(r.remaining) bytes follow the last song of a chunk")
            }
        } catch {
            out?.deinitialize(count: made)
            throw error
        }
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

    /// The checkpoint bits `decodeSong` reads by hand, by name: the table's bits (a test checks
    /// each against its field's `checkpoint` column). Opening a library decodes every song, and
    /// a line per field is three times as fast as the table's loop (a closure call and a switch
    /// per value; FieldPathBenchmark). A bit not here (a field added to the table since) is read
    /// by the loop, after these, so a new field needs no line here.
    enum HandBit: Int, CaseIterable {
        case size, mtime, fingerprint, missing, added
        case title, artists, artistCredit, album, albumartist, track, tracktotal, disc, disctotal, year, date
        case genre, composer, compilation, comment
        case replaygainTrackGain, replaygainTrackPeak, replaygainAlbumGain, replaygainAlbumPeak
        case mbTrackID, mbAlbumID, mbArtistID, mbAlbumArtistID, mbReleaseGroupID
        case duration, samplerate, bitdepth, channels, bitrate, format
        case tags, rating, playcount, favorite, art
        case fileValues
        case userFields
        case skipcount, lastplayed, bookmark, bookmarkSpeed
        case artistSort, albumartistSort, albumSort
        case performer, conductor, label, originalDate
        case composerSort, work, movement, movementNumber, movementTotal, grouping, mbReleaseTrackID, mbWorkID
        case stickers, ensemble, location
        // The second bitmap's.
        case guessed, start, end, sheet

        var mask: UInt64 { 1 << UInt64(rawValue & 63) }
        /// The bits of each bitmap read by hand.
        static let handled: (first: UInt64, second: UInt64) = allCases.reduce((UInt64(0), UInt64(0))) { k, bit in
            bit.rawValue < 64 ? (k.0 | bit.mask, k.1) : (k.0, k.1 | bit.mask)
        }
    }

    private static func decodeSong(_ r: inout ByteReader, _ table: [String], _ lists: [[String]]) throws -> Song {
        let id = try r.uuid()
        let at = r.offset
        let bits = try r.varint()
        guard bits & ~known.first == 0 else {
            throw StoreError.badEncoding("a song at byte \(at) has fields this boomic does not know")
        }
        let more = try r.varint()
        guard more & ~known.second == 0 else {
            throw StoreError.badEncoding("a song at byte \(at) has fields this boomic does not know")
        }
        var s = Song(id: SongID(id), path: try r.string())
        @inline(__always) func has(_ bit: HandBit) -> Bool { bits & bit.mask != 0 }
        @inline(__always) func shared() throws -> String { try Self.shared(&r, table) }
        @inline(__always) func sharedList() throws -> [String] { try Self.shared(&r, lists) }

        if has(.size) { s.size = try r.int() }
        if has(.mtime) { s.mtime = try r.int() }
        if has(.fingerprint) { s.fingerprint = try r.string() }
        s.missing = has(.missing)
        if has(.added) { s.added = try r.double() }
        if has(.title) { s.title = try r.string() }
        if has(.artists) { s.artists = try sharedList() }
        if has(.artistCredit) { s.artistCredit = try shared() }
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
        if has(.userFields) { s.userFields = try sharedList() }
        if has(.skipcount) { s.skipcount = try r.int() }
        if has(.lastplayed) { s.lastplayed = try r.double() }
        if has(.bookmark) { s.bookmark = try r.double() }
        if has(.bookmarkSpeed) { s.bookmarkSpeed = try r.double() }
        if has(.artistSort) { s.artistSort = try shared() }
        if has(.albumartistSort) { s.albumartistSort = try shared() }
        if has(.albumSort) { s.albumSort = try shared() }
        if has(.performer) { s.performer = try shared() }
        if has(.conductor) { s.conductor = try shared() }
        if has(.label) { s.label = try shared() }
        if has(.originalDate) { s.originalDate = try shared() }
        if has(.composerSort) { s.composerSort = try shared() }
        if has(.work) { s.work = try shared() }
        if has(.movement) { s.movement = try shared() }
        if has(.movementNumber) { s.movementNumber = try r.int() }
        if has(.movementTotal) { s.movementTotal = try r.int() }
        if has(.grouping) { s.grouping = try shared() }
        if has(.mbReleaseTrackID) { s.mbReleaseTrackID = try r.string() }
        if has(.mbWorkID) { s.mbWorkID = try shared() }
        if has(.stickers) { s.stickers = try (0..<r.count(atMost: r.remaining)).map { _ in try r.string() } }
        if has(.ensemble) { s.ensemble = try shared() }
        if has(.location) { s.location = try shared() }
        if more & HandBit.guessed.mask != 0 { s.guessed = try sharedList() }
        if more & HandBit.start.mask != 0 { s.start = try r.int() }
        if more & HandBit.end.mask != 0 { s.end = try r.int() }
        if more & HandBit.sheet.mask != 0 { s.sheet = try shared() }
        // Bits past the ones above, from the table (values are in bit order: the first bitmap's
        // all precede the second's, so a new field's bit in the second comes after these).
        let rest = (bits & ~HandBit.handled.first, more & ~HandBit.handled.second)
        guard rest.0 == 0 else {
            throw StoreError.badEncoding("a song at byte \(at) has a field between those read by hand")
        }
        if rest.1 != 0 { try readByTable(rest.1, from: 64, into: &s, &r, table, lists) }
        return s
    }

    /// The values of the set bits of `map` (a bitmap whose bit 0 is field bit `offset`), lowest
    /// first, through the table's accessors.
    private static func readByTable(_ map: UInt64, from offset: Int, into s: inout Song, _ r: inout ByteReader,
                                    _ table: [String], _ lists: [[String]]) throws {
        var left = map
        while left != 0 {
            let slot = slotsByBit[offset + left.trailingZeroBitCount]!
            left &= left - 1
            switch slot.access {
            case .text(_, let set): set(&s, slot.form == .sharedText ? try shared(&r, table) : try r.string())
            case .number(_, let set, _): set(&s, try r.int())
            case .decimal(_, let set, _): set(&s, try r.double())
            case .flag(_, let set): set(&s, true)
            case .list(_, let set):
                set(&s, slot.form == .sharedList
                    ? try shared(&r, lists) : try (0..<r.count(atMost: r.remaining)).map { _ in try r.string() })
            }
        }
    }
}
