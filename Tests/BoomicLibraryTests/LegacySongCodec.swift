import BoomicCore
import BoomicStore
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicLibrary

/// The hand-written decoder and field switch the field table replaced, copied as they were
/// (commit d53ed03), so `FieldPathBenchmark` times the table's loops against them in one
/// process, turn about: on a machine shared with other builds only a ratio measured so means
/// anything.
enum LegacySongCodec {
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

    enum MoreBit: Int, CaseIterable {
        case guessed, start, end, sheet

        var mask: UInt64 { 1 << UInt64(rawValue) }
        static let all: UInt64 = allCases.count == 64 ? .max : (1 << UInt64(allCases.count)) - 1
    }

    @inline(__always)
    static func shared<E>(_ r: inout ByteReader, _ table: [E]) throws -> E {
        let i = try r.varint()
        guard i < UInt64(table.count) else { throw StoreError.badEncoding("a reference past the table") }
        return table[Int(i)]
    }

    /// The songs of a one-chunk encoding.
    static func decode(_ bytes: [UInt8]) throws -> [Song] {
        try bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            _ = try r.byte()
            let total = try r.count(atMost: r.remaining)
            let chunks = try r.count(atMost: r.remaining)
            precondition(chunks == 1)
            _ = try r.count(atMost: total)
            _ = try r.count(atMost: r.remaining)
            var table: [String] = []
            for _ in 0..<(try r.count(atMost: r.remaining)) { table.append(try r.string()) }
            var lists: [[String]] = []
            for _ in 0..<(try r.count(atMost: r.remaining)) {
                let n = try r.count(atMost: r.remaining)
                lists.append(try (0..<n).map { _ in try shared(&r, table) })
            }
            var songs: [Song] = []
            songs.reserveCapacity(total)
            for _ in 0..<total { songs.append(try decodeSong(&r, table, lists)) }
            return songs
        }
    }

    static func decodeSong(_ r: inout ByteReader, _ table: [String], _ lists: [[String]]) throws -> Song {
        let id = try r.uuid()
        let at = r.offset
        let bits = try r.varint()
        guard bits & ~LegacySongCodec.Bit.all == 0 else {
            throw StoreError.badEncoding("a song at byte \(at) has fields this boomic does not know")
        }
        let more = try r.varint()
        guard more & ~LegacySongCodec.MoreBit.all == 0 else {
            throw StoreError.badEncoding("a song at byte \(at) has fields this boomic does not know")
        }
        var s = Song(id: SongID(id), path: try r.string())
        @inline(__always) func has(_ bit: LegacySongCodec.Bit) -> Bool { bits & bit.mask != 0 }
        @inline(__always) func shared() throws -> String { try LegacySongCodec.shared(&r, table) }
        @inline(__always) func sharedList() throws -> [String] { try LegacySongCodec.shared(&r, lists) }

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
        if more & LegacySongCodec.MoreBit.guessed.mask != 0 { s.guessed = try sharedList() }
        if more & LegacySongCodec.MoreBit.start.mask != 0 { s.start = try r.int() }
        if more & LegacySongCodec.MoreBit.end.mask != 0 { s.end = try r.int() }
        if more & LegacySongCodec.MoreBit.sheet.mask != 0 { s.sheet = try shared() }
        return s
    }

    static func value(_ field: SongField, in song: Song) -> FieldValue {
        switch field {
        case .path: return .string(song.path)
        case .size: return .int(song.size)
        case .mtime: return .int(song.mtime)
        case .fingerprint: return opt(song.fingerprint)
        case .missing: return .bool(song.missing)
        case .added: return .double(song.added)
        case .title: return opt(song.title)
        case .artists: return .strings(song.artists)
        case .artistCredit: return opt(song.artistCredit)
        case .album: return opt(song.album)
        case .albumartist: return opt(song.albumartist)
        case .artistSort: return opt(song.artistSort)
        case .albumartistSort: return opt(song.albumartistSort)
        case .albumSort: return opt(song.albumSort)
        case .performer: return opt(song.performer)
        case .conductor: return opt(song.conductor)
        case .label: return opt(song.label)
        case .originalDate: return opt(song.originalDate)
        case .composerSort: return opt(song.composerSort)
        case .work: return opt(song.work)
        case .movement: return opt(song.movement)
        case .movementNumber: return opt(song.movementNumber)
        case .movementTotal: return opt(song.movementTotal)
        case .grouping: return opt(song.grouping)
        case .ensemble: return opt(song.ensemble)
        case .location: return opt(song.location)
        case .track: return opt(song.track)
        case .tracktotal: return opt(song.tracktotal)
        case .disc: return opt(song.disc)
        case .disctotal: return opt(song.disctotal)
        case .year: return opt(song.year)
        case .date: return opt(song.date)
        case .genre: return opt(song.genre)
        case .composer: return opt(song.composer)
        case .compilation: return .bool(song.compilation)
        case .comment: return opt(song.comment)
        case .replaygainTrackGain: return opt(song.replaygainTrackGain)
        case .replaygainTrackPeak: return opt(song.replaygainTrackPeak)
        case .replaygainAlbumGain: return opt(song.replaygainAlbumGain)
        case .replaygainAlbumPeak: return opt(song.replaygainAlbumPeak)
        case .mbTrackID: return opt(song.mbTrackID)
        case .mbAlbumID: return opt(song.mbAlbumID)
        case .mbArtistID: return opt(song.mbArtistID)
        case .mbAlbumArtistID: return opt(song.mbAlbumArtistID)
        case .mbReleaseGroupID: return opt(song.mbReleaseGroupID)
        case .mbReleaseTrackID: return opt(song.mbReleaseTrackID)
        case .mbWorkID: return opt(song.mbWorkID)
        case .duration: return opt(song.duration)
        case .samplerate: return opt(song.samplerate)
        case .bitdepth: return opt(song.bitdepth)
        case .channels: return opt(song.channels)
        case .bitrate: return opt(song.bitrate)
        case .format: return opt(song.format)
        case .start: return opt(song.start)
        case .end: return opt(song.end)
        case .sheet: return opt(song.sheet)
        case .tags: return .strings(song.tags)
        case .rating: return opt(song.rating)
        case .playcount: return .int(song.playcount)
        case .favorite: return .bool(song.favorite)
        case .art: return opt(song.art)
        case .fileValues: return .strings(song.fileValues)
        case .userFields: return .strings(song.userFields)
        case .stickers: return .strings(song.stickers)
        case .guessed: return .strings(song.guessed)
        case .skipcount: return .int(song.skipcount)
        case .lastplayed: return opt(song.lastplayed)
        case .bookmark: return opt(song.bookmark)
        case .bookmarkSpeed: return opt(song.bookmarkSpeed)
        }
    }

    private static func opt(_ s: String?) -> FieldValue { s.map(FieldValue.string) ?? .null }
    private static func opt(_ i: Int?) -> FieldValue { i.map(FieldValue.int) ?? .null }
    private static func opt(_ d: Double?) -> FieldValue { d.map(FieldValue.double) ?? .null }
}
