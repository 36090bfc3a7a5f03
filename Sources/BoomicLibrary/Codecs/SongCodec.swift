import BoomicCore
import BoomicStore
import Dispatch
import Foundation
import Synchronization

/// A compact binary encoding of `[Song]`, for checkpoints: opening a library decodes one.
///
/// JSON decodes about 110k records/s per core (PLATFORM §5), so 50,000 songs would take half a
/// second, five times the budget of opening a library (DESIGN §7). This format is hand-rolled
/// for speed: one pass, no keys, no reflection.
///
/// Layout (version 9), using `ByteWriter`'s primitives:
/// ```
/// version byte (9)
/// song count, chunk count, then per chunk: its song count and its byte length
/// the chunks, one after the other; each is self-contained:
///   string table: count, then each string           ← shared values (album, artist, genre, …)
///   list table: count, then each list as a count and string-table indexes   ← artists, tags
///   per song: 16-byte id, presence bitmap (varint), second bitmap (varint, `MoreBit`), path (string),
///   then each present field in `Bit` order, then in `MoreBit` order
/// ```
/// The songs are split into up to `maxChunks` chunks of at least `songsPerChunk` so that opening
/// decodes them on all cores: a chunk's place in the output and in the bytes is known before any
/// of it is read, and its own string table means two threads never share (and never contend for
/// the reference counts of) the same `String`s. Version 2 was one chunk without the header;
/// version 3 had no user fields, version 4 no artist credit, version 5 no skip count, last play
/// or bookmark, version 6 no sort names, performer, conductor, label or original date,
/// version 7 no composer sort name, work, movement, grouping, release-track or work ids,
/// stickers, ensemble or location, version 8 no second bitmap (the guessed fields' marks, a
/// track's start, end and sheet).
///
/// Absent optionals, empty arrays, `false`, and numbers equal to their default set no bit and
/// take no bytes. Values many songs share (album, genre, dates, MusicBrainz album ids, art hashes,
/// and whole `artists` and `tags` lists) are written once in a table and referenced by index, which
/// also makes decoded songs share their storage: fewer allocations and less memory with 50,000
/// songs open. Values unique to a song (path, title, fingerprint, track id, comment) are written
/// in place.
///
/// Every stored property of `Song` round-trips exactly (doubles bit for bit); a test pins the
/// number of properties, so adding one to `Song` without adding it here fails. Damaged input
/// throws `StoreError.badEncoding`, never traps.
public enum SongCodec {
    /// Bump when the layout changes, and bump the checkpoint codec's `format` with it.
    public static let version: UInt8 = 9

    /// Chunks are at least this many songs (fewer songs make one chunk): below that, a thread and
    /// a second string table cost more than they save.
    static let songsPerChunk = 8_192
    /// At most this many chunks, each with its own copy of the shared strings it uses.
    static let maxChunks = 8

    /// The presence bitmap's bit for each field, in the order fields are written.
    enum Bit: Int, CaseIterable {
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
        // The bitmap's 64 bits are all taken: the next field needs a second bitmap.
        case composerSort, work, movement, movementNumber, movementTotal, grouping, mbReleaseTrackID, mbWorkID
        case stickers, ensemble, location

        var mask: UInt64 { 1 << UInt64(rawValue) }
        static let all: UInt64 = allCases.count == 64 ? .max : (1 << UInt64(allCases.count)) - 1
    }

    /// The second bitmap's bit for each field past the first 64, written after them in this order.
    enum MoreBit: Int, CaseIterable {
        case guessed, start, end, sheet

        var mask: UInt64 { 1 << UInt64(rawValue) }
        static let all: UInt64 = allCases.count == 64 ? .max : (1 << UInt64(allCases.count)) - 1
    }

    // MARK: Encoding

    /// The songs, in the order given, as bytes `decode` reads back.
    public static func encode<C: Collection>(_ songs: C) -> [UInt8] where C.Element == Song {
        var out = ByteWriter()
        encode(songs, into: &out)
        return out.bytes
    }

    /// Appends the songs to `out`, for formats that put songs and other entities in one buffer.
    public static func encode<C: Collection>(_ songs: C, into out: inout ByteWriter) where C.Element == Song {
        encode(songs, into: &out, songsPerChunk: songsPerChunk)
    }

    /// `songsPerChunk` is a parameter so that tests can make many chunks of a few songs.
    static func encode<C: Collection>(_ songs: C, into out: inout ByteWriter, songsPerChunk: Int) where C.Element == Song {
        let all = Array(songs) // no copy when it already is one
        let total = all.count
        let chunks = chunkCount(total, songsPerChunk: songsPerChunk)
        // Even split: chunk c holds songs [c·n/k, (c+1)·n/k). Chunks are independent (each has its
        // own table), so they are encoded on all cores: a checkpoint of 50,000 songs is ~80 ms of
        // encoding on one, and `modify` writes one every 1,000 assertions.
        let ranges = (0..<chunks).map { c in (c * total / chunks)..<((c + 1) * total / chunks) }
        let encoded = Mutex<[Int: ByteWriter]>([:])
        @Sendable func work(_ c: Int) {
            let chunk = encodeChunk(all[ranges[c]])
            encoded.withLock { $0[c] = chunk }
        }
        if chunks == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: chunks, execute: work) }
        let bodies = encoded.withLock { $0 }
        out.byte(version)
        out.count(total)
        out.count(chunks)
        for c in 0..<chunks {
            out.count(ranges[c].count)
            out.count(bodies[c]!.bytes.count)
        }
        for c in 0..<chunks { out.append(contentsOf: bodies[c]!.bytes) }
    }

    /// One self-contained chunk: its string and list tables, then its songs.
    private static func encodeChunk(_ songs: ArraySlice<Song>) -> ByteWriter {
        var table = StringTable()
        var body = ByteWriter(reservingCapacity: songs.count * 200)
        for song in songs { encode(song, into: &body, table: &table) }
        var chunk = ByteWriter(reservingCapacity: body.bytes.count + table.strings.count * 16 + 64)
        chunk.count(table.strings.count)
        for s in table.strings { chunk.string(s) }
        chunk.count(table.lists.count)
        for list in table.lists {
            chunk.count(list.count)
            for s in list { chunk.count(table.index[s]!) }
        }
        chunk.append(contentsOf: body.bytes)
        return chunk
    }

    /// How many chunks `total` songs are written in.
    static func chunkCount(_ total: Int, songsPerChunk: Int = songsPerChunk) -> Int {
        min(maxChunks, max(1, total / max(1, songsPerChunk)))
    }

    /// Strings and string lists written once and referenced by their index.
    struct StringTable {
        var strings: [String] = []
        var index: [String: Int] = [:]
        var lists: [[String]] = []
        var listIndex: [[String]: Int] = [:]

        mutating func ref(_ s: String) -> Int {
            if let i = index[s] { return i }
            index[s] = strings.count
            strings.append(s)
            return strings.count - 1
        }

        mutating func ref(_ list: [String]) -> Int {
            if let i = listIndex[list] { return i }
            for s in list { _ = ref(s) }
            listIndex[list] = lists.count
            lists.append(list)
            return lists.count - 1
        }
    }

    private static func encode(_ s: Song, into w: inout ByteWriter, table: inout StringTable) {
        var bits: UInt64 = 0
        func mark(_ bit: Bit, _ present: Bool) { if present { bits |= bit.mask } }
        mark(.size, s.size != 0)
        mark(.mtime, s.mtime != 0)
        mark(.fingerprint, s.fingerprint != nil)
        mark(.missing, s.missing)
        mark(.added, s.added.bitPattern != 0) // -0.0 is not 0.0 bit for bit, so it is written
        mark(.title, s.title != nil)
        mark(.artists, !s.artists.isEmpty)
        mark(.artistCredit, s.artistCredit != nil)
        mark(.album, s.album != nil)
        mark(.albumartist, s.albumartist != nil)
        mark(.track, s.track != nil)
        mark(.tracktotal, s.tracktotal != nil)
        mark(.disc, s.disc != nil)
        mark(.disctotal, s.disctotal != nil)
        mark(.year, s.year != nil)
        mark(.date, s.date != nil)
        mark(.genre, s.genre != nil)
        mark(.composer, s.composer != nil)
        mark(.compilation, s.compilation)
        mark(.comment, s.comment != nil)
        mark(.replaygainTrackGain, s.replaygainTrackGain != nil)
        mark(.replaygainTrackPeak, s.replaygainTrackPeak != nil)
        mark(.replaygainAlbumGain, s.replaygainAlbumGain != nil)
        mark(.replaygainAlbumPeak, s.replaygainAlbumPeak != nil)
        mark(.mbTrackID, s.mbTrackID != nil)
        mark(.mbAlbumID, s.mbAlbumID != nil)
        mark(.mbArtistID, s.mbArtistID != nil)
        mark(.mbAlbumArtistID, s.mbAlbumArtistID != nil)
        mark(.mbReleaseGroupID, s.mbReleaseGroupID != nil)
        mark(.duration, s.duration != nil)
        mark(.samplerate, s.samplerate != nil)
        mark(.bitdepth, s.bitdepth != nil)
        mark(.channels, s.channels != nil)
        mark(.bitrate, s.bitrate != nil)
        mark(.format, s.format != nil)
        mark(.tags, !s.tags.isEmpty)
        mark(.rating, s.rating != nil)
        mark(.playcount, s.playcount != 0)
        mark(.favorite, s.favorite)
        mark(.art, s.art != nil)
        mark(.fileValues, !s.fileValues.isEmpty)
        mark(.userFields, !s.userFields.isEmpty)
        mark(.skipcount, s.skipcount != 0)
        mark(.lastplayed, s.lastplayed != nil)
        mark(.bookmark, s.bookmark != nil)
        mark(.bookmarkSpeed, s.bookmarkSpeed != nil)
        mark(.artistSort, s.artistSort != nil)
        mark(.albumartistSort, s.albumartistSort != nil)
        mark(.albumSort, s.albumSort != nil)
        mark(.performer, s.performer != nil)
        mark(.conductor, s.conductor != nil)
        mark(.label, s.label != nil)
        mark(.originalDate, s.originalDate != nil)
        mark(.composerSort, s.composerSort != nil)
        mark(.work, s.work != nil)
        mark(.movement, s.movement != nil)
        mark(.movementNumber, s.movementNumber != nil)
        mark(.movementTotal, s.movementTotal != nil)
        mark(.grouping, s.grouping != nil)
        mark(.mbReleaseTrackID, s.mbReleaseTrackID != nil)
        mark(.mbWorkID, s.mbWorkID != nil)
        mark(.stickers, !s.stickers.isEmpty)
        mark(.ensemble, s.ensemble != nil)
        mark(.location, s.location != nil)
        var more: UInt64 = 0
        if !s.guessed.isEmpty { more |= MoreBit.guessed.mask }
        if s.start != nil { more |= MoreBit.start.mask }
        if s.end != nil { more |= MoreBit.end.mask }
        if s.sheet != nil { more |= MoreBit.sheet.mask }

        w.uuid(s.id.uuid)
        w.varint(bits)
        w.varint(more)
        w.string(s.path)
        func shared(_ v: String?) { if let v { w.count(table.ref(v)) } }
        func sharedList(_ vs: [String]) { if !vs.isEmpty { w.count(table.ref(vs)) } }
        func own(_ v: String?) { if let v { w.string(v) } }
        func int(_ v: Int?) { if let v { w.int(v) } }
        func double(_ v: Double?) { if let v { w.double(v) } }

        if s.size != 0 { w.int(s.size) }
        if s.mtime != 0 { w.int(s.mtime) }
        own(s.fingerprint)
        if s.added.bitPattern != 0 { w.double(s.added) }
        own(s.title)
        sharedList(s.artists)
        shared(s.artistCredit) // one credit ("A & B") is often on many songs
        shared(s.album)
        shared(s.albumartist)
        int(s.track)
        int(s.tracktotal)
        int(s.disc)
        int(s.disctotal)
        int(s.year)
        shared(s.date)
        shared(s.genre)
        shared(s.composer)
        own(s.comment)
        double(s.replaygainTrackGain)
        double(s.replaygainTrackPeak)
        double(s.replaygainAlbumGain)
        double(s.replaygainAlbumPeak)
        own(s.mbTrackID)
        shared(s.mbAlbumID)
        shared(s.mbArtistID)
        shared(s.mbAlbumArtistID)
        shared(s.mbReleaseGroupID)
        double(s.duration)
        int(s.samplerate)
        int(s.bitdepth)
        int(s.channels)
        int(s.bitrate)
        shared(s.format)
        sharedList(s.tags)
        int(s.rating)
        if s.playcount != 0 { w.int(s.playcount) }
        shared(s.art)
        if !s.fileValues.isEmpty { w.count(s.fileValues.count); for v in s.fileValues { w.string(v) } }
        // A user field's entries (`mood=happy`) repeat across songs, so they go in the table.
        sharedList(s.userFields)
        if s.skipcount != 0 { w.int(s.skipcount) }
        double(s.lastplayed)
        double(s.bookmark)
        double(s.bookmarkSpeed)
        shared(s.artistSort)
        shared(s.albumartistSort)
        shared(s.albumSort)
        shared(s.performer)
        shared(s.conductor)
        shared(s.label)
        shared(s.originalDate)
        shared(s.composerSort)
        shared(s.work)
        shared(s.movement)
        int(s.movementNumber)
        int(s.movementTotal)
        shared(s.grouping)
        own(s.mbReleaseTrackID)
        shared(s.mbWorkID)
        // A client's stickers are mostly the song's own (a play count, a last play).
        if !s.stickers.isEmpty { w.count(s.stickers.count); for v in s.stickers { w.string(v) } }
        shared(s.ensemble)
        shared(s.location)
        // Guesses come in folders: the same few names (title, track; disc, album).
        sharedList(s.guessed)
        int(s.start)
        int(s.end)
        shared(s.sheet) // a sheet names every track of its image
    }
}
