import BoomicCore
import BoomicMedia
import Foundation
import Testing

/// The pure half of tag write-back: a song as keys per format, the minimal key changes, and the
/// comparison of what a file reads back. Tables, no files.
@Suite struct TagMapTests {
    static let id = SongID(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)

    /// A song with every written field set.
    static var full: Song {
        var s = Song(id: id, path: "/m/a.flac")
        s.title = "Títle"; s.artists = ["A", "B"]; s.album = "Album"; s.albumartist = "AA"
        s.artistSort = "A, The"; s.albumartistSort = "AA, The"; s.albumSort = "Album, The"
        s.performer = "P (piano)"; s.conductor = "Cond"; s.label = "Lbl"; s.originalDate = "1968-05"
        s.track = 3; s.tracktotal = 12; s.disc = 1; s.disctotal = 2
        s.year = 1969; s.date = "1969-09-26"; s.genre = "Jazz"; s.composer = "C"; s.compilation = true
        s.comment = "Nice"
        s.replaygainTrackGain = -6.5; s.replaygainTrackPeak = 0.987654
        s.replaygainAlbumGain = 1.2; s.replaygainAlbumPeak = 1
        s.mbTrackID = "t-id"; s.mbAlbumID = "al-id"; s.mbArtistID = "ar-id"; s.mbAlbumArtistID = "aa-id"
        s.mbReleaseGroupID = "rg-id"
        s.composerSort = "C, The"; s.work = "W"; s.movement = "M"; s.movementNumber = 2; s.movementTotal = 4
        s.grouping = "G"; s.mbReleaseTrackID = "rt-id"; s.mbWorkID = "w-id"; s.ensemble = "E"; s.location = "L"
        return s
    }

    @Test func writtenFieldsAreExactlyTheTagFields() {
        #expect(Set(TagMap.fields) == Set(SongField.allCases.filter(\.isTag)))
        #expect(TagMap.fields.count == Set(TagMap.fields).count)
    }

    @Test func fullSongAsVorbisComments() {
        #expect(TagMap.values(for: Self.full, format: .flac) == [
            "TITLE": ["Títle"], "ARTIST": ["A", "B"], "ALBUM": ["Album"], "ALBUMARTIST": ["AA"],
            "ARTISTSORT": ["A, The"], "ALBUMARTISTSORT": ["AA, The"], "ALBUMSORT": ["Album, The"],
            "PERFORMER": ["P (piano)"], "CONDUCTOR": ["Cond"], "LABEL": ["Lbl"], "ORIGINALDATE": ["1968-05"],
            "TRACKNUMBER": ["3"], "TRACKTOTAL": ["12"], "DISCNUMBER": ["1"], "DISCTOTAL": ["2"],
            "DATE": ["1969-09-26"], "GENRE": ["Jazz"], "COMPOSER": ["C"], "COMPILATION": ["1"],
            "COMMENT": ["Nice"],
            "REPLAYGAIN_TRACK_GAIN": ["-6.50 dB"], "REPLAYGAIN_TRACK_PEAK": ["0.987654"],
            "REPLAYGAIN_ALBUM_GAIN": ["1.20 dB"], "REPLAYGAIN_ALBUM_PEAK": ["1.000000"],
            "MUSICBRAINZ_TRACKID": ["t-id"], "MUSICBRAINZ_ALBUMID": ["al-id"],
            "MUSICBRAINZ_ARTISTID": ["ar-id"], "MUSICBRAINZ_ALBUMARTISTID": ["aa-id"],
            "MUSICBRAINZ_RELEASEGROUPID": ["rg-id"],
            "COMPOSERSORT": ["C, The"], "WORK": ["W"], "MOVEMENTNAME": ["M"], "MOVEMENT": ["2"], "MOVEMENTTOTAL": ["4"],
            "GROUPING": ["G"], "MUSICBRAINZ_RELEASETRACKID": ["rt-id"], "MUSICBRAINZ_WORKID": ["w-id"],
            "ENSEMBLE": ["E"], "LOCATION": ["L"],
        ])
    }

    /// The movement's number as each format's taggers write it: Vorbis as Picard does, MP4 in
    /// TagLib's names for ©mvi and ©mvc, ID3's MVIN and the rest with the total after a slash.
    @Test func movementNumbersPerFormat() {
        func keys(_ format: AudioFormat) -> [String: [String]] {
            TagMap.values(for: Self.full, format: format).filter { $0.key.hasPrefix("MOVEMENT") }
        }
        #expect(keys(.ogg) == ["MOVEMENTNAME": ["M"], "MOVEMENT": ["2"], "MOVEMENTTOTAL": ["4"]])
        #expect(keys(.m4a) == ["MOVEMENTNAME": ["M"], "MOVEMENTNUMBER": ["2"], "MOVEMENTCOUNT": ["4"]])
        #expect(keys(.mp3) == ["MOVEMENTNAME": ["M"], "MOVEMENTNUMBER": ["2/4"]])
        // A FLAC that another tagger gave MOVEMENTNUMBER loses it when the number is rewritten,
        // so that the two cannot disagree.
        var s = Self.full
        s.movementNumber = 3
        let changes = TagMap.changes(from: ["MOVEMENTNUMBER": ["2"], "MOVEMENTTOTAL": ["4"]], to: s, format: .flac)
        #expect(changes["MOVEMENT"] == ["3"] && changes["MOVEMENTNUMBER"] == [])
    }

    @Test(arguments: [AudioFormat.mp3, .m4a, .wav, .aiff, .wavpack, .ape, .wma])
    func slashedFormatsPutTheTotalInTheNumber(_ format: AudioFormat) {
        let v = TagMap.values(for: Self.full, format: format)
        #expect(v["TRACKNUMBER"] == ["3/12"] && v["DISCNUMBER"] == ["1/2"])
        #expect(v["TRACKTOTAL"] == nil && v["DISCTOTAL"] == nil)
    }

    @Test(arguments: [AudioFormat.flac, .ogg, .opus, .oggFLAC, .speex])
    func vorbisFormatsKeepTotalsApart(_ format: AudioFormat) {
        #expect(TagMap.numberStyle(of: format) == .separateTotals)
    }

    @Test func emptySongRemovesEveryKey() {
        let v = TagMap.values(for: Song(id: Self.id, path: "/m/a.mp3"), format: .mp3)
        #expect(v.count == 36 && v.values.allSatisfy(\.isEmpty))
    }

    @Test(arguments: [
        (3, 12, "3/12"), (3, nil, "3"), (nil, 12, "0/12"),
    ] as [(Int?, Int?, String)])
    func numberAndTotalInOneValue(_ n: Int?, _ total: Int?, _ expected: String) {
        var s = Song(id: Self.id, path: "/m/a.mp3")
        s.track = n; s.tracktotal = total
        #expect(TagMap.values(for: s, format: .mp3)["TRACKNUMBER"] == [expected])
        // And a scan reads it back as the same pair.
        let pair = TagValue.numberPair(expected)
        #expect(pair.number == n && pair.total == total)
    }

    @Test(arguments: [
        (1969, "1969-09-26", "1969-09-26"), // the full date when it agrees
        (1971, nil, "1971"),
        (1970, "1969-09-26", "1970"),       // a year edited away from the date wins
        (nil, "26.09.1969", "26.09.1969"),
        (800, nil, "0800"),                 // four digits, as a reader looks for them
    ] as [(Int?, String?, String)])
    func dateValue(_ year: Int?, _ date: String?, _ expected: String) {
        var s = Song(id: Self.id, path: "/m/a.flac")
        s.year = year; s.date = date
        #expect(TagMap.values(for: s, format: .flac)["DATE"] == [expected])
    }

    @Test(arguments: [
        (-6.5, "-6.50 dB"), (0, "0.00 dB"), (1.23, "1.23 dB"), (-6.537, "-6.537 dB"), (12.125, "12.125 dB"),
    ] as [(Double, String)])
    func gainsKeepTheirValue(_ gain: Double, _ text: String) {
        #expect(TagMap.decibels(gain) == text)
        #expect(TagValue.decibels(text) == gain)
    }

    @Test(arguments: [
        (0.987654, "0.987654"), (1, "1.000000"), (0.1234567, "0.1234567"),
    ] as [(Double, String)])
    func peaksKeepTheirValue(_ peak: Double, _ text: String) {
        #expect(TagMap.peak(peak) == text)
        #expect(TagValue.decibels(text) == peak)
    }

    // MARK: Changes

    /// Rows: the file's keys, the song's change, the format, the expected key changes.
    struct ChangeRow: CustomTestStringConvertible, Sendable {
        var name: String
        var file: [String: [String]]
        var edit: @Sendable (inout Song) -> Void
        var format: AudioFormat
        var expected: [String: [String]]
        var testDescription: String { name }
    }

    /// The song a scan of `file` gives, then `edit`ed.
    static func song(reading file: [String: [String]], _ edit: (inout Song) -> Void) -> Song {
        var facts = FileFacts(path: "/m/a", size: 1, mtime: 1)
        facts.apply(tags: file)
        var s = facts.song(id: id, added: 0)
        edit(&s)
        return s
    }

    static let changeRows: [ChangeRow] = [
        ChangeRow(name: "a file that agrees changes nothing, however it spells things",
                  file: ["TITLE": ["T"], "TRACKNUMBER": ["03"], "TRACKTOTAL": ["012"], "MOOD": ["Calm"]],
                  edit: { _ in }, format: .flac, expected: [:]),
        ChangeRow(name: "one field: only its key",
                  file: ["TITLE": ["T"], "ALBUM": ["X"], "MOOD": ["Calm"]],
                  edit: { $0.title = "New" }, format: .flac, expected: ["TITLE": ["New"]]),
        ChangeRow(name: "a cleared field removes its key; unknown keys stay",
                  file: ["TITLE": ["T"], "GENRE": ["Rock"], "CUSTOM": ["x"]],
                  edit: { $0.genre = nil }, format: .flac, expected: ["GENRE": []]),
        ChangeRow(name: "MP3 total: into TRACKNUMBER, and a TXXX total that would contradict it goes",
                  file: ["TRACKNUMBER": ["3"], "TRACKTOTAL": ["10"]],
                  edit: { $0.tracktotal = 12 }, format: .mp3,
                  expected: ["TRACKNUMBER": ["3/12"], "TRACKTOTAL": []]),
        ChangeRow(name: "FLAC number written as 3/12 by another tagger becomes 3 + TRACKTOTAL",
                  file: ["TRACKNUMBER": ["3/12"], "TOTALTRACKS": ["12"]],
                  edit: { $0.tracktotal = 13 }, format: .flac,
                  expected: ["TRACKNUMBER": ["3"], "TRACKTOTAL": ["13"], "TOTALTRACKS": []]),
        ChangeRow(name: "a tagger's zero padding is kept",
                  file: ["TRACKNUMBER": ["03"], "TRACKTOTAL": ["12"]], edit: { $0.track = 5 }, format: .flac,
                  expected: ["TRACKNUMBER": ["05"]]),
        ChangeRow(name: "a tagger's zero padding is kept, number and total, with a slash",
                  file: ["TRACKNUMBER": ["03/012"], "DISCNUMBER": ["01"]], edit: { $0.track = 11; $0.disc = 2; $0.disctotal = 2 },
                  format: .mp3, expected: ["TRACKNUMBER": ["11/012"], "DISCNUMBER": ["02/2"]]),
        ChangeRow(name: "a number longer than the padding is written whole",
                  file: ["TRACKNUMBER": ["03"]], edit: { $0.track = 123 }, format: .flac,
                  expected: ["TRACKNUMBER": ["123"]]),
        ChangeRow(name: "disc only",
                  file: ["DISCNUMBER": ["1/2"]], edit: { $0.disc = 2 }, format: .mp3,
                  expected: ["DISCNUMBER": ["2/2"]]),
        ChangeRow(name: "date: YEAR synonym goes with it",
                  file: ["DATE": ["1969"], "YEAR": ["1969"]], edit: { $0.year = 1970 }, format: .flac,
                  expected: ["DATE": ["1970"], "YEAR": []]),
        // An artist edit (`modify artist=`) clears the credit with the list.
        ChangeRow(name: "no artists: Picard's ARTISTS would stand in for them, so it goes too",
                  file: ["ARTIST": ["A feat. B"], "ARTISTS": ["A", "B"]], edit: { $0.artists = []; $0.artistCredit = nil },
                  format: .flac, expected: ["ARTIST": [], "ARTISTS": []]),
        ChangeRow(name: "new artists: Picard's ARTISTS gets the list, ARTIST the credit",
                  file: ["ARTIST": ["A feat. B"], "ARTISTS": ["A", "B"]], edit: { $0.artists = ["C", "D"]; $0.artistCredit = nil },
                  format: .flac, expected: ["ARTIST": ["C; D"], "ARTISTS": ["C", "D"]]),
        ChangeRow(name: "a new credit goes to ARTIST; the list in ARTISTS stays",
                  file: ["ARTIST": ["A feat. B"], "ARTISTS": ["A", "B"]], edit: { $0.artistCredit = "A & B" }, format: .mp3,
                  expected: ["ARTIST": ["A & B"]]),
        ChangeRow(name: "a credit cleared: ARTIST says the list",
                  file: ["ARTIST": ["A feat. B"], "ARTISTS": ["A", "B"]], edit: { $0.artistCredit = nil }, format: .flac,
                  expected: ["ARTIST": ["A; B"]]),
        ChangeRow(name: "a credit in a file without ARTISTS: the list goes to ARTISTS beside it",
                  file: ["ARTIST": ["A", "B"]], edit: { $0.artistCredit = "A feat. B" }, format: .ogg,
                  expected: ["ARTIST": ["A feat. B"], "ARTISTS": ["A", "B"]]),
        ChangeRow(name: "a title edit leaves Picard's ARTIST and ARTISTS alone",
                  file: ["ARTIST": ["A feat. B"], "ARTISTS": ["A", "B"], "TITLE": ["T"]], edit: { $0.title = "U" }, format: .mp3,
                  expected: ["TITLE": ["U"]]),
        ChangeRow(name: "a comment read from DESCRIPTION, cleared",
                  file: ["DESCRIPTION": ["liner notes"]], edit: { $0.comment = nil }, format: .ogg,
                  expected: ["DESCRIPTION": []]),
        ChangeRow(name: "a comment read from DESCRIPTION, changed: COMMENT wins on reading",
                  file: ["DESCRIPTION": ["liner notes"]], edit: { $0.comment = "new" }, format: .ogg,
                  expected: ["COMMENT": ["new"]]),
        ChangeRow(name: "compilation off",
                  file: ["COMPILATION": ["1"]], edit: { $0.compilation = false }, format: .mp3,
                  expected: ["COMPILATION": []]),
        ChangeRow(name: "a second MusicBrainz artist id stays when the first agrees",
                  file: ["MUSICBRAINZ_ARTISTID": ["a", "b"], "TITLE": ["T"]], edit: { $0.title = "U" }, format: .flac,
                  expected: ["TITLE": ["U"]]),
        ChangeRow(name: "ReplayGain written in taggers' form",
                  file: ["REPLAYGAIN_TRACK_GAIN": ["-6.5 dB"]], edit: { $0.replaygainTrackGain = -7; $0.replaygainAlbumPeak = 0.5 },
                  format: .mp3, expected: ["REPLAYGAIN_TRACK_GAIN": ["-7.00 dB"], "REPLAYGAIN_ALBUM_PEAK": ["0.500000"]]),
        ChangeRow(name: "lower-case and blank keys are read as a scan reads them",
                  file: ["title": ["T"], "GENRE": ["  "]], edit: { $0.genre = "Jazz" }, format: .flac,
                  expected: ["GENRE": ["Jazz"]]),
    ]

    @Test(arguments: changeRows)
    func keyChanges(_ row: ChangeRow) {
        let song = Self.song(reading: row.file, row.edit)
        #expect(TagMap.changes(from: row.file, to: song, format: row.format) == row.expected)
    }

    /// Applying the changes to the key map always gives a map that reads as the song.
    @Test(arguments: changeRows)
    func changedKeysReadAsTheSong(_ row: ChangeRow) {
        let song = Self.song(reading: row.file, row.edit)
        var keys = Dictionary(row.file.map { ($0.key.uppercased(), $0.value) }, uniquingKeysWith: +)
        for (k, v) in TagMap.changes(from: row.file, to: song, format: row.format) { keys[k] = v.isEmpty ? nil : v }
        #expect(TagMap.differences(between: song, fileTags: keys, fileArt: nil).isEmpty)
    }

    @Test(arguments: [AudioFormat.flac, .mp3, .wav, .ogg, .m4a])
    func fullSongIntoAnEmptyFileReadsBack(_ format: AudioFormat) {
        let changes = TagMap.changes(from: [:], to: Self.full, format: format)
        #expect(TagMap.differences(between: Self.full, fileTags: changes.filter { !$0.value.isEmpty }, fileArt: nil).isEmpty)
        // And clearing everything again removes exactly those keys.
        let empty = Song(id: Self.id, path: Self.full.path)
        #expect(TagMap.changes(from: changes, to: empty, format: format) == changes.mapValues { _ in [] })
    }

    // MARK: Differences

    @Test func differencesNameFieldFileAndLibraryValues() {
        var song = Self.song(reading: ["TITLE": ["Old"], "TRACKNUMBER": ["3/12"]]) { $0.title = "New"; $0.tracktotal = nil }
        song.art = "abc"
        let d = TagMap.differences(between: song, fileTags: ["TITLE": ["Old"], "TRACKNUMBER": ["3/12"]], fileArt: nil)
        #expect(d == [
            TagDifference(field: .title, file: .string("Old"), library: .string("New")),
            TagDifference(field: .tracktotal, file: .int(12), library: .null),
            TagDifference(field: .art, file: .null, library: .string("abc")),
        ])
    }

    @Test func libraryOnlyAndFileFactsAreNeverDifferences() {
        var song = Self.song(reading: ["TITLE": ["T"]]) { _ in }
        song.rating = 5; song.tags = ["jazz"]; song.playcount = 3; song.size = 99; song.duration = 12
        #expect(TagMap.differences(between: song, fileTags: ["TITLE": ["T"]], fileArt: nil).isEmpty)
    }
}
