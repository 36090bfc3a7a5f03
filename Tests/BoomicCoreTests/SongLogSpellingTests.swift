import Foundation
import Testing
@testable import BoomicCore

/// The log spells every song field one way, the user's (`SongField`'s raw values), in add and
/// delete rows as in update rows; rows written before that used the Swift property names in add
/// and delete rows, and the log is never rewritten, so those are read forever.
@Suite struct SongLogSpellingTests {
    /// An add row as the code before one spelling wrote it (every field set; the Swift names).
    static let oldAddRow = #"""
        {"add":{"added":1795392887.5,"album":"Kind of Blue","albumartist":"Miles Davis","art":"0f1e2d3c4b5a6978",\#
        "artists":["Miles Davis","John Coltrane"],"bitdepth":16,"bitrate":1000,"channels":2,"comment":"2009 remaster",\#
        "compilation":false,"composer":"Miles Davis","date":"1959-08-17","disc":1,"disctotal":1,"duration":545.5,\#
        "favorite":true,"fileValues":["genre=\"Jazz\""],"fingerprint":"9b2d6f0c1a3e5d7f","format":"FLAC",\#
        "genre":"Modal Jazz","id":"5a0f3c1e-8d2b-4c6a-9e7f-1b2c3d4e5f60",\#
        "mbAlbumArtistID":"561d854a-6a28-4aa7-8c99-323e6ce46c2a","mbAlbumID":"1f1f7b7a-59d1-4b22-9f0c-2f7e1f7a7a7a",\#
        "mbArtistID":"561d854a-6a28-4aa7-8c99-323e6ce46c2a","mbReleaseGroupID":"8e8a594f-2175-3b4c-8a3b-a2b4d5f4f9c1",\#
        "mbTrackID":"0e5a1a7c-3b6d-4f5e-9a8b-7c6d5e4f3a2b","missing":false,"mtime":1700000000123456789,\#
        "path":"/music/Miles Davis/So What.flac","playcount":3,"rating":4,"replaygainAlbumGain":-7.25,\#
        "replaygainAlbumPeak":0.99,"replaygainTrackGain":-6.5,"replaygainTrackPeak":0.95,"samplerate":44100,\#
        "size":31415926,"tags":["jazz","modal"],"title":"So What","track":1,"tracktotal":5,\#
        "userFields":["mood=cool"],"year":1959}}
        """#

    /// The song `oldAddRow` describes.
    static var soWhat: Song {
        var s = Song(id: SongID(UUID(uuidString: "5a0f3c1e-8d2b-4c6a-9e7f-1b2c3d4e5f60")!),
                     path: "/music/Miles Davis/So What.flac")
        s.size = 31_415_926; s.mtime = 1_700_000_000_123_456_789; s.fingerprint = "9b2d6f0c1a3e5d7f"
        s.missing = false; s.added = 1_795_392_887.5
        s.title = "So What"; s.artists = ["Miles Davis", "John Coltrane"]; s.album = "Kind of Blue"
        s.albumartist = "Miles Davis"; s.track = 1; s.tracktotal = 5; s.disc = 1; s.disctotal = 1
        s.year = 1959; s.date = "1959-08-17"; s.genre = "Modal Jazz"; s.composer = "Miles Davis"
        s.compilation = false; s.comment = "2009 remaster"
        s.replaygainTrackGain = -6.5; s.replaygainTrackPeak = 0.95
        s.replaygainAlbumGain = -7.25; s.replaygainAlbumPeak = 0.99
        s.mbTrackID = "0e5a1a7c-3b6d-4f5e-9a8b-7c6d5e4f3a2b"; s.mbAlbumID = "1f1f7b7a-59d1-4b22-9f0c-2f7e1f7a7a7a"
        s.mbArtistID = "561d854a-6a28-4aa7-8c99-323e6ce46c2a"; s.mbAlbumArtistID = "561d854a-6a28-4aa7-8c99-323e6ce46c2a"
        s.mbReleaseGroupID = "8e8a594f-2175-3b4c-8a3b-a2b4d5f4f9c1"
        s.duration = 545.5; s.samplerate = 44100; s.bitdepth = 16; s.channels = 2; s.bitrate = 1000; s.format = "FLAC"
        s.tags = ["jazz", "modal"]; s.rating = 4; s.playcount = 3; s.favorite = true; s.art = "0f1e2d3c4b5a6978"
        s.fileValues = ["genre=\"Jazz\""]; s.userFields = ["mood=cool"]
        return s
    }

    /// The Swift names the old add and delete rows used where they differ from the user's.
    static let swiftCasedKeys: Set = ["replaygainTrackGain", "replaygainTrackPeak", "replaygainAlbumGain",
                                      "replaygainAlbumPeak", "mbTrackID", "mbAlbumID", "mbArtistID",
                                      "mbAlbumArtistID", "mbReleaseGroupID", "fileValues", "userFields"]

    static func logEncoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    /// The keys of the song object inside an add or delete row.
    static func songKeys(_ row: Data, _ kind: String) throws -> Set<String> {
        let object = try #require(JSONSerialization.jsonObject(with: row) as? [String: Any])
        return Set(try #require(object[kind] as? [String: Any]).keys)
    }

    @Test func oldAddAndDeleteRowsStillDecodeToTheSameSong() throws {
        let add = try JSONDecoder().decode(Assertion.self, from: Data(Self.oldAddRow.utf8))
        #expect(add == .addSong(Self.soWhat))
        let oldDelete = Self.oldAddRow.replacingOccurrences(of: #"{"add":"#, with: #"{"delete":"#)
        #expect(try JSONDecoder().decode(Assertion.self, from: Data(oldDelete.utf8)) == .deleteSong(Self.soWhat))
        // The fewest keys the old code wrote: every non-optional field, no optional one.
        let bare = #"{"add":{"added":0,"artists":[],"compilation":false,"favorite":false,"fileValues":[],"#
            + #""id":"5a0f3c1e-8d2b-4c6a-9e7f-1b2c3d4e5f60","missing":false,"mtime":0,"path":"/m/x.flac","#
            + #""playcount":0,"size":0,"tags":[]}}"#
        #expect(try JSONDecoder().decode(Assertion.self, from: Data(bare.utf8))
                == .addSong(Song(id: Self.soWhat.id, path: "/m/x.flac")))
    }

    @Test func newAddAndDeleteRowsUseTheUsersNamesOnly() throws {
        // Every field set, the artist credit too (a field newer than the old spelling).
        var full = Self.soWhat
        full.artistCredit = "Miles Davis & John Coltrane"
        full.skipcount = 2; full.lastplayed = 1_795_000_000; full.bookmark = 754.5; full.bookmarkSpeed = 1.5
        full.artistSort = "Davis, Miles"; full.albumartistSort = "Davis, Miles"; full.albumSort = "Kind of Blue"
        full.performer = "Bill Evans (piano)"; full.conductor = "Nobody"; full.label = "Columbia"; full.originalDate = "1959-08-17"
        full.composerSort = "Davis, Miles"; full.work = "So What"; full.movement = "Head"; full.movementNumber = 1
        full.movementTotal = 3; full.grouping = "Modal"; full.mbReleaseTrackID = "rt"; full.mbWorkID = "w1; w2"
        full.stickers = ["playCount=3"]; full.ensemble = "Quintet"; full.location = "Hackensack"
        full.guessed = ["disc", "title"]
        full.start = 588; full.end = 1176; full.sheet = "/m/Kind of Blue.cue"
        for (kind, assertion) in [("add", Assertion.addSong(full)), ("delete", .deleteSong(full))] {
            let row = try Self.logEncoder().encode(assertion)
            let text = String(decoding: row, as: UTF8.self)
            let keys = try Self.songKeys(row, kind)
            #expect(keys == Set(["id"] + SongField.allCases.map(\.rawValue)), "\(text)")
            #expect(keys.isDisjoint(with: Self.swiftCasedKeys), "\(text)")
            for name in ["file_values", "mb_trackid", "replaygain_track_gain", "user_fields"] {
                #expect(text.contains(#""\#(name)":"#), "\(text)")
            }
            #expect(try JSONDecoder().decode(Assertion.self, from: row) == assertion)
        }
        // Empty and absent values are left out as before.
        let bare = try Self.logEncoder().encode(Assertion.addSong(Song(id: Self.soWhat.id, path: "/m/x.flac")))
        #expect(try Self.songKeys(bare, "add") == ["added", "artists", "compilation", "favorite", "file_values", "id",
                                                   "missing", "mtime", "path", "playcount", "size", "tags"])
    }

    /// One source of truth: every stored property is a `SongField` (the Swift name is the case's),
    /// and each one alone survives the log's JSON under its user's name.
    @Test func everyStoredPropertyHasASongFieldAndRoundTripsUnderItsName() throws {
        #expect(Set(Song.storedPropertyNames) == Set(["id"] + SongField.allCases.map { String(describing: $0) }))
        let bare = Song(id: Self.soWhat.id, path: "/m/x.flac")
        for f in SongField.allCases {
            var s = bare
            let value: FieldValue = switch f.kind {
            case .string: .string("value")
            case .int: .int(7)
            case .double: .double(2.5)
            case .bool: .bool(true)
            case .strings:
                switch f {
                case .userFields: .strings(["mood=happy"])
                case .stickers: .strings(["playCount=3"])
                case .fileValues: .strings([#"title="x""#])
                default: .strings(["one"])
                }
            }
            f.set(value, in: &s)
            #expect(s != bare, "\(f) was set")
            let row = try Self.logEncoder().encode(Assertion.addSong(s))
            #expect(try Self.songKeys(row, "add").contains(f.rawValue), "\(f): \(String(decoding: row, as: UTF8.self))")
            #expect(try JSONDecoder().decode(Assertion.self, from: row) == .addSong(s), "\(f)")
        }
    }
}
