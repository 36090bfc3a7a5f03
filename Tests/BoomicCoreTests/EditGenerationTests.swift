import Testing
@testable import BoomicCore

/// `modify` and `tag`: parsing what the user typed, and the assertions generated from it.
@Suite("Edit generation")
struct EditGenerationTests {
    @Test("FIELD=VALUE and FIELD! parse to typed assignments", arguments: [
        ("year=1969", FieldAssignment(field: .year, value: .int(1969))),
        ("Year= 1969 ", FieldAssignment(field: .year, value: .int(1969))),
        ("artist=A; B", FieldAssignment(field: .artists, value: .strings(["A", "B"]))),
        ("artists=Miles Davis;John Coltrane; ", FieldAssignment(field: .artists, value: .strings(["Miles Davis", "John Coltrane"]))),
        ("genre!", FieldAssignment(field: .genre, value: .null)),
        ("genre=", FieldAssignment(field: .genre, value: .null)),
        ("title=Jóga", FieldAssignment(field: .title, value: .string("Jóga"))),
        ("title=a=b", FieldAssignment(field: .title, value: .string("a=b"))),
        ("title=Wow!", FieldAssignment(field: .title, value: .string("Wow!"))),
        ("comp=yes", FieldAssignment(field: .compilation, value: .bool(true))),
        ("favorite=off", FieldAssignment(field: .favorite, value: .bool(false))),
        ("rating=5", FieldAssignment(field: .rating, value: .int(5))),
        ("rating=0", FieldAssignment(field: .rating, value: .null)),
        ("track=99999", FieldAssignment(field: .track, value: .int(99_999))),
        ("year=1", FieldAssignment(field: .year, value: .int(1))),
        ("playcount=0", FieldAssignment(field: .playcount, value: .int(0))),
        ("replaygain_track_gain=-6.5 dB", FieldAssignment(field: .replaygainTrackGain, value: .double(-6.5))),
        ("replaygain_album_gain=3", FieldAssignment(field: .replaygainAlbumGain, value: .double(3))),
    ])
    func parses(text: String, expected: FieldAssignment) throws {
        #expect(try FieldAssignment.parse(text) == expected)
    }

    @Test("bad assignments are errors that say what to do", arguments: [
        ("yeer=1969", FieldError.nearKnownField("yeer", known: "year"),
         "unknown field 'yeer'; did you mean 'year'? (pass --new-field to create a field named 'yeer')"),
        ("zzzzzzzz!", FieldError.unknownField("zzzzzzzz", suggestion: nil),
         "unknown field 'zzzzzzzz'; see 'boomic ls --help' for the field names"),
        ("=1969", FieldError.malformed("=1969"),
         "'=1969' is not an assignment: write FIELD=VALUE to set a field or FIELD! to clear it"),
        ("year=abc", FieldError.badValue(field: "year", value: "abc", expected: "a whole number"),
         "'abc' is not a valid value for 'year': expected a whole number"),
        ("year=19.5", FieldError.badValue(field: "year", value: "19.5", expected: "a whole number"),
         "'19.5' is not a valid value for 'year': expected a whole number"),
        ("comp=maybe", FieldError.badValue(field: "compilation", value: "maybe", expected: "true or false"),
         "'maybe' is not a valid value for 'compilation': expected true or false"),
        ("path=/x.flac", FieldError.readOnly("path"),
         "field 'path' is read from the file and can't be modified; rescan with 'boomic import' instead"),
        ("duration!", FieldError.readOnly("duration"),
         "field 'duration' is read from the file and can't be modified; rescan with 'boomic import' instead"),
        ("tags=jazz", FieldError.badValue(field: "tags", value: "jazz", expected: "use 'boomic tag QUERY +#tag -#tag'"),
         "'jazz' is not a valid value for 'tags': expected use 'boomic tag QUERY +#tag -#tag'"),
        ("stickers=playCount=3; x", FieldError.badValue(field: "stickers", value: "x", expected: "name=value stickers, separated by ';'"),
         "'x' is not a valid value for 'stickers': expected name=value stickers, separated by ';'"),
        // Numbers a file cannot hold (and a scan would not read back) are refused here, not
        // written as something else at every `write`.
        ("year=-5", FieldError.badValue(field: "year", value: "-5", expected: "a year from 1 to 9999"),
         "'-5' is not a valid value for 'year': expected a year from 1 to 9999"),
        ("track=-3", FieldError.badValue(field: "track", value: "-3", expected: "a whole number from 1 to 99999"),
         "'-3' is not a valid value for 'track': expected a whole number from 1 to 99999"),
        ("disc=0", FieldError.badValue(field: "disc", value: "0", expected: "a whole number from 1 to 99999"),
         "'0' is not a valid value for 'disc': expected a whole number from 1 to 99999"),
        ("rating=99", FieldError.badValue(field: "rating", value: "99", expected: "a whole number of stars from 0 (none) to 5"),
         "'99' is not a valid value for 'rating': expected a whole number of stars from 0 (none) to 5"),
        ("playcount=-1", FieldError.badValue(field: "playcount", value: "-1", expected: "a whole number, 0 or more"),
         "'-1' is not a valid value for 'playcount': expected a whole number, 0 or more"),
        ("year", FieldError.malformed("year"),
         "'year' is not an assignment: write FIELD=VALUE to set a field or FIELD! to clear it"),
    ])
    func rejects(text: String, error: FieldError, message: String) {
        #expect(throws: error) { try FieldAssignment.parse(text) }
        #expect(error.errorDescription == message)
    }

    static let db = library([facts("/m/1.flac", title: "So What", artists: ["Miles Davis"], year: 1959),
                             facts("/m/2.flac", title: "Jóga", artists: ["Björk"])])

    @Test("modify patches exactly the fields that change, with old and new values")
    func modify() {
        let a = EditGeneration.modify(Self.db, songs: [songID(1), songID(2)], set: [FieldAssignment(field: .year, value: .int(1959))])
        // The file's value is remembered beside each edit (see `Song.fileValues`).
        #expect(a == [.updateSong(songID(2), [.year: FieldChange(old: .null, new: .int(1959)),
                                              .fileValues: FieldChange(old: .strings([]), new: .strings(["year=null"]))])])
        let b = EditGeneration.modify(Self.db, songs: [songID(1)], set: [
            FieldAssignment(field: .artists, value: .strings(["Miles Davis", "John Coltrane"])),
            FieldAssignment(field: .title, value: .null),
        ])
        #expect(b == [.updateSong(songID(1), [
            .artists: FieldChange(old: .strings(["Miles Davis"]), new: .strings(["Miles Davis", "John Coltrane"])),
            .title: FieldChange(old: .string("So What"), new: .null),
            .fileValues: FieldChange(old: .strings([]), new: .strings(["artists=[\"Miles Davis\"]", "title=\"So What\""])),
        ])])
    }

    @Test("an edit remembers the file's value once, and forgets it when edited back")
    func fileValues() {
        var s = Self.db[songID(1)]!
        s.edit(.title, to: .string("A"))
        s.edit(.title, to: .string("B"))
        #expect(s.fileValueMap == [.title: .string("So What")])
        s.edit(.rating, to: .int(5))
        #expect(s.fileValueMap == [.title: .string("So What")], "rating lives in the library only")
        s.edit(.title, to: .string("So What"))
        #expect(s.fileValueMap.isEmpty && s.title == "So What")
    }

    @Test("a rescan keeps library edits of fields the file did not change, and takes the ones it did")
    func threeWayRescan() {
        var s = Self.db[songID(1)]!
        s.edit(.genre, to: .string("Library Genre"))
        s.edit(.title, to: .string("Library Title"))
        var f = facts("/m/1.flac", title: "File Title", artists: ["Miles Davis"], year: 1959)
        f.size = 999
        s.merge(fileFacts: f)
        #expect(s.genre == "Library Genre", "the file's genre did not change, so the edit stays")
        #expect(s.title == "File Title", "the file's title changed, so it wins")
        #expect(s.fileValueMap == [.genre: .null], "only the kept edit is still unwritten")
    }

    @Test("a modify that changes nothing produces nothing", arguments: [
        [FieldAssignment(field: .year, value: .int(1959))],
        [FieldAssignment(field: .genre, value: .null)],
        [FieldAssignment(field: .genre, value: .string(""))],
        [FieldAssignment(field: .artists, value: .strings(["Miles Davis", ""]))],
        [FieldAssignment(field: .title, value: .string("x")), FieldAssignment(field: .title, value: .string("So What"))],
    ])
    func noOpModify(assignments: [FieldAssignment]) {
        #expect(EditGeneration.modify(Self.db, songs: [songID(1)], set: assignments) == [])
    }

    @Test("songs that are not in the library are skipped")
    func unknownSongs() {
        #expect(EditGeneration.modify(Self.db, songs: [songID(9)], set: [FieldAssignment(field: .year, value: .int(1))]) == [])
        #expect(EditGeneration.tag(Self.db, songs: [songID(9)], add: ["jazz"], remove: []) == [])
        #expect(EditGeneration.remove(Self.db, songs: [songID(9)]) == [])
    }

    @Test("tag adds and removes; removing a parent removes its children", arguments: [
        ([], ["#Jazz", "instruments:piano"], [], ["instruments:piano", "jazz"]),
        (["jazz"], ["jazz"], [], nil),
        (["jazz", "instruments:piano", "instruments:trumpet", "instrumental"], [], ["instruments"], ["instrumental", "jazz"]),
        (["instruments", "instruments:piano"], [], ["#instruments"], []),
        (["instruments:piano"], [], ["instruments:piano:grand"], nil),
        (["mood:calm"], [], ["mood:calm"], []),
        (["jazz"], [], ["rock"], nil),
        (["jazz"], ["jazz"], ["jazz"], nil),
        (["instruments:piano"], ["instruments:guitar"], ["instruments"], ["instruments:guitar"]),
    ] as [([String], [String], [String], [String]?)])
    func tag(before: [String], add: [String], remove: [String], after: [String]?) {
        var song = Self.db[songID(1)]!
        song.tags = Song.normalizedTags(before)
        let db = DataBasis(songs: [song])
        let assertions = EditGeneration.tag(db, songs: [song.id], add: add, remove: remove)
        guard let after else {
            #expect(assertions == [], "no-op tags produce nothing")
            return
        }
        #expect(assertions == [.updateSong(song.id, [.tags: FieldChange(old: .strings(song.tags), new: .strings(after))])])
    }

    @Test("remove deletes the song from the library, carrying the whole song")
    func remove() {
        #expect(EditGeneration.remove(Self.db, songs: [songID(2)]) == [.deleteSong(Self.db[songID(2)]!)])
    }

    @Test("field names: aliases resolve, typos get a suggestion", arguments: [
        ("artist", SongField.artists), ("COMP", .compilation), ("tag", .tags), ("length", .duration),
        ("mb_releasegroup", .mbReleaseGroupID), ("replaygain_track_gain", .replaygainTrackGain),
    ])
    func fieldNames(name: String, field: SongField) {
        #expect(FieldName.resolve(name) == field)
        #expect(FieldName.all.contains(name.lowercased()))
    }

    @Test("suggestions for typos", arguments: [("yeer", "year"), ("titel", "title"), ("artst", "artist"), ("gnre", "genre"), ("xyzzyplugh", nil)] as [(String, String?)])
    func suggestions(typo: String, suggestion: String?) {
        #expect(FieldName.suggestion(for: typo) == suggestion)
    }
}
