import BoomicCore
import Foundation
import Testing

/// The user's own fields, as beets' flexible attributes (issue 9, item 2.14). The laws on
/// random histories (replay, flatten, diff, rollback, undo, JSON) cover them through
/// `HistoryGenerator`; these are the rules of naming, typing and matching.
@Suite("User fields")
struct UserFieldTests {
    static let db: DataBasis = {
        var a = Song(id: songID(1), path: "/m/a.flac"); a.title = "A"; a.year = 1969
        var b = Song(id: songID(2), path: "/m/b.flac"); b.title = "B"
        var c = Song(id: songID(3), path: "/m/c.flac"); c.title = "C"
        a.setUserField("mood", to: "Happy"); a.setUserField("bpm", to: "120")
        b.setUserField("mood", to: "sad"); b.setUserField("bpm", to: "90")
        return DataBasis(songs: [a, b, c])
    }()

    static func find(_ args: String...) throws -> [Int] {
        try db.songs(matching: QueryParser.parse(args, userFields: db.userFieldNames)).map { s in (1...3).first { songID($0) == s.id }! }
    }

    @Test func aNewNameCreatesAField() throws {
        let a = try FieldAssignment.parse("Occasion=Live", userFields: [])
        #expect(a == FieldAssignment(userField: "occasion", value: "Live"))
        let after = Self.db.applying(EditGeneration.modify(Self.db, songs: [songID(3)], set: [a]))
        #expect(after[songID(3)]?.userField("occasion") == "Live")
        #expect(after.userFieldNames == ["mood", "bpm", "occasion"])
        // Clearing the last one removes the field.
        let cleared = try FieldAssignment.parse("occasion!", userFields: after.userFieldNames)
        #expect(after.applying(EditGeneration.modify(after, songs: [songID(3)], set: [cleared])) == Self.db)
    }

    @Test("names close to a known one need --new-field; bad names are errors", arguments: [
        ("yeer=1969", FieldError.nearKnownField("yeer", known: "year")),
        ("moood=x", FieldError.nearKnownField("moood", known: "mood")),
        ("skipcount=x", FieldError.badValue(field: "skipcount", value: "x", expected: "a whole number")),
        ("skipcont=1", FieldError.nearKnownField("skipcont", known: "skipcount")),
        ("user_fields=x", FieldError.badValue(field: "user_fields", value: "x", expected: "set each of your fields by its name, e.g. mood=happy")),
        ("nosuch!", FieldError.unknownField("nosuch", suggestion: nil)),
        ("9zzzzzz=x", FieldError.badFieldName("9zzzzzz")),
        ("ID=x", FieldError.songID),
    ])
    func refused(text: String, error: FieldError) {
        #expect(throws: error) { try FieldAssignment.parse(text, userFields: ["mood", "bpm"]) }
    }

    @Test func newFieldOverridesTheTypoCheck() throws {
        #expect(try FieldAssignment.parse("yeer=1969", userFields: [], newField: true) == FieldAssignment(userField: "yeer", value: "1969"))
    }

    @Test func queriesAndSortSeeThem() throws {
        #expect(try Self.find("mood:happy") == [1])
        #expect(try Self.find("mood:=~SAD") == [2])
        #expect(try Self.find("^mood:a") == [3])
        #expect(try Self.find("bpm:100..") == [1])
        #expect(try Self.find("bpm+") == [3, 2, 1], "numbers sort as numbers; a song without the field first")
        #expect(try Self.find("mood-") == [2, 1, 3])
        #expect(throws: QueryError.self) { try QueryParser.parse(["mood:happy"]) }
        #expect(throws: QueryError.self) { try QueryParser.parse(["moood:x"], userFields: ["mood"]) }
    }

    @Test func aRescanKeepsThem() {
        var s = Self.db[songID(1)]!
        var f = FileFacts(path: s.path, size: 9, mtime: 9)
        f.title = "Retagged"
        s.merge(fileFacts: f)
        #expect(s.title == "Retagged" && s.userField("mood") == "Happy")
        #expect(s.fileValueMap[.userFields] == nil, "never written to files")
    }

    @Test func theLogFormatReadsOldRowsAndOmitsEmptyFields() throws {
        let bare = Song(id: songID(9), path: "/m/x.flac")
        let json = String(decoding: try JSONEncoder().encode(bare), as: UTF8.self)
        #expect(!json.contains("user_fields") && !json.contains("userFields"), "rows without user fields are written as before")
        #expect(try JSONDecoder().decode(Song.self, from: Data(json.utf8)) == bare)
        let withFields = Self.db[songID(1)]!
        #expect(try JSONDecoder().decode(Song.self, from: JSONEncoder().encode(withFields)) == withFields)
    }

    @Test func entriesAreNormalised() {
        #expect(Song.normalizedUserFields(["b=2", "a=1", "b=3", "=x", "c=", "nothing"]) == ["a=1", "b=3"])
    }
}
