import Foundation
import Testing
@testable import BoomicCore

/// Field values in the log: their JSON form, and the normalisation that makes equal meanings
/// compare equal whatever JSON did to the number types.
@Suite("Field values")
struct FieldValueTests {
    @Test("the JSON form is the plain JSON value", arguments: [
        ("null", FieldValue.null), ("true", .bool(true)), ("false", .bool(false)), ("0", .int(0)), ("1", .int(1)),
        ("-7", .int(-7)), ("2.5", .double(2.5)), ("\"1\"", .string("1")), ("\"true\"", .string("true")),
        ("\"Björk\"", .string("Björk")), ("[]", .strings([])), ("[\"A\",\"B\"]", .strings(["A", "B"])),
        ("1e300", .double(1e300)), ("-0.5", .double(-0.5)), ("[\"1\"]", .strings(["1"])), ("\"\"", .string("")),
    ])
    func json(text: String, value: FieldValue) throws {
        #expect(try JSONDecoder().decode(FieldValue.self, from: Data(text.utf8)) == value)
        #expect(try JSONDecoder().decode(FieldValue.self, from: JSONEncoder().encode(value)) == value)
    }

    @Test("normalising for a field gives one form per meaning", arguments: [
        (SongField.year, FieldValue.double(1969), FieldValue.int(1969)),
        (.year, .double(1969.5), .null),
        (.year, .double(1e300), .null),
        (.year, .double(-1e19), .null),
        (.duration, .int(180), .double(180)),
        (.title, .string(""), .null),
        (.title, .int(3), .null),
        (.artists, .string("Björk"), .strings(["Björk"])),
        (.artists, .string(""), .strings([])),
        (.artists, .strings(["A", "", "B"]), .strings(["A", "B"])),
        (.tags, .strings(["#Jazz", "jazz", "instruments:Piano", "#"]), .strings(["instruments:piano", "jazz"])),
        (.favorite, .int(1), .null),
        (.favorite, .bool(true), .bool(true)),
    ])
    func normalize(field: SongField, raw: FieldValue, normalized: FieldValue) {
        #expect(field.normalize(raw) == normalized)
    }

    @Test("an update decoded from JSON is normalised by field, so `3` for a double field is 3.0")
    func decodedPatchesAreNormalised() throws {
        let json = #"{"update":{"id":"00000000-0000-4000-8000-000000000001","fields":{"duration":{"old":null,"new":180},"year":{"old":1969.0,"new":1e300}}}}"#
        let a = try JSONDecoder().decode(Assertion.self, from: Data(json.utf8))
        #expect(a == .updateSong(songID(1), [.duration: FieldChange(old: .null, new: .double(180)),
                                             .year: FieldChange(old: .int(1969), new: .null)]))
    }

    @Test("every field reads back what it was set to, through value(in:) and set(_:in:)")
    func fieldsRoundTrip() {
        let h = Histories.all.max { $0.head.songs.count < $1.head.songs.count }!
        for song in h.head.songs.values {
            for f in SongField.allCases {
                var copy = Song(id: song.id, path: "")
                f.set(f.value(in: song), in: &copy)
                #expect(f.value(in: copy) == f.value(in: song), "\(f.name) of \(song.id)")
            }
            var rebuilt = Song(id: song.id, path: "")
            for f in SongField.allCases { f.set(f.value(in: song), in: &rebuilt) }
            #expect(rebuilt == song, "every stored property has a SongField")
        }
    }

    /// A query reads an image's patched song only when a patch touches a field the query reads
    /// (`DataBasis.songs(matching:)`): that holds only while setting a field changes no other.
    @Test("setting a field leaves every other field as it was")
    func settingAFieldSetsOnlyIt() {
        let songs = Array(Histories.all.max { $0.head.songs.count < $1.head.songs.count }!.head.songs.values)
        for (i, song) in songs.enumerated() {
            let donor = songs[(i + 1) % songs.count]
            for f in SongField.allCases {
                var changed = song
                f.set(f.value(in: donor), in: &changed)
                for g in SongField.allCases where g != f {
                    #expect(g.value(in: changed) == g.value(in: song), "setting \(f.name) changed \(g.name) of \(song.id)")
                }
                var cleared = song
                f.set(.null, in: &cleared)
                for g in SongField.allCases where g != f {
                    #expect(g.value(in: cleared) == g.value(in: song), "clearing \(f.name) changed \(g.name) of \(song.id)")
                }
            }
        }
    }

    @Test("a value in a message is one line, cut when long, saying how long it was")
    func briefValues() {
        #expect(FieldValue.string("Blue in Green").brief(as: .title) == "Blue in Green")
        #expect(FieldValue.string("two\nlines\r\nand").brief(as: .comment) == "two\\nlines\\nand")
        #expect(FieldValue.null.brief(as: .comment) == "∅")
        let long = FieldValue.string(String(repeating: "ab", count: 5_000))
        #expect(long.brief(as: .comment) == String(repeating: "ab", count: 30) + "… (10000 characters)")
    }
}
