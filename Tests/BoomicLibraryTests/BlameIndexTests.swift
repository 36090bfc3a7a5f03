import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicStore

/// `blame` on a real library reads each song's own history from the song → transactions index:
/// no transaction body is decoded but the updates of the user's own fields, so a 30 MB import
/// explains the fields it set without being read.
@Suite struct BlameIndexTests {
    static let client = LibrarySession.Client(command: "test", version: "0")

    @Test func blameDecodesNoBodyButUpdatesOfUserFields() throws {
        try withTemporaryDirectory("boomic-blame") { root in
            let dir = root + "/library"
            let lib = try LibrarySession.open(at: dir, create: true, client: Self.client)
            let songs = (0..<4).map { i in
                var s = Song(id: SongID(UUID()), path: "/music/\(i).flac")
                s.title = "Song \(i)"
                s.artists = ["Artist"]
                s.album = "Album"
                return s
            }
            try lib.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "import") }
            try lib.commit(kind: .edit, message: nil) { b in
                (EditGeneration.modify(b, songs: [songs[0].id], set: [try FieldAssignment.parse("genre=Jazz")]), "genre")
            }
            try lib.commit(kind: .edit, message: nil) { b in
                (EditGeneration.modify(b, songs: [songs[1].id], set: [try FieldAssignment.parse("mood=calm", newField: true)]), "mood")
            }
            let ids = Set(songs.map(\.id))
            let before = try lib.blame(ids, fields: SongField.allCases, userFields: ["mood"])
            // Opening starts from this checkpoint, so the library opens without the import's body.
            #expect(try lib.transactor.checkpoint() == 3)
            lib.close()
            #expect(before.fields[songs[0].id]?[.genre]?.seq == 2 && before.fields[songs[0].id]?[.title]?.seq == 1)
            #expect(before.userFields[songs[1].id]?["mood"]?.seq == 3 && before.userFields[songs[2].id]?["mood"]?.seq == 1)

            // The import's body replaced by one no build can read, its checksum made to match:
            // a read of it fails, so blame must not read it.
            let body = "{}"
            let c = try SQLiteConnection(path: dir + "/" + LibrarySession.logName)
            try c.statement("UPDATE log SET body = ?, checksum = ? WHERE seq = 1").run(.text(body), .text(Checksum.string(of: body)))
            c.close()
            let reopened = try LibrarySession.open(at: dir, create: false, client: Self.client)
            defer { reopened.close() }
            #expect(throws: StoreError.self) { try reopened.entry(seq: 1) }
            let after = try reopened.blame(ids, fields: SongField.allCases, userFields: ["mood"])
            #expect(after.fields == before.fields)
            #expect(after.userFields == before.userFields)
        }
    }
}
