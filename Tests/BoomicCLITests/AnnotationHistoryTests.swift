import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// Changes made through the HTTP API's annotation calls as the user sees them in `boomic`:
/// history says who made them, `show` names the user and the client, `undo` takes them back.
@Suite struct AnnotationHistoryTests {
    static let client = LibrarySession.Client(command: "boomic serve", version: "test")

    @Test func aStarThroughTheAPIShowsWhoInHistoryAndUndoTakesItBack() throws {
        let box = try Sandbox()
        try box.importSamples()
        let song = try box.song("title:So Modal")
        let id = try #require(UUID(uuidString: song.id).map(SongID.init))
        do {
            let lib = try LibrarySession.open(at: box.library, create: false, client: Self.client)
            defer { lib.close() }
            let album = try #require(lib.basis[id].flatMap(AnnotationKey.album(of:)))
            try AnnotationFlow.star(lib, songs: [id], others: [album], by: Caller(user: "anna", client: "Symfonium"), at: 1_795_000_000)
        }
        #expect(try box.song("title:So Modal").favorite == true)
        let history = try box.succeed("history", "-n", "1")
        #expect(history.stdout.contains("star "), "\(history)")
        #expect(history.stdout.contains("So Modal, album ") && history.stdout.hasSuffix(" by anna via Symfonium\n"), "\(history)")
        let show = try box.succeed("show", "HEAD")
        #expect(show.stdout.contains("user:     anna\n") && show.stdout.contains("client:   Symfonium\n"), "\(show)")
        #expect(show.stdout.contains("favorite: false → true") && show.stdout.contains("starred: ∅ → "), "\(show)")

        let undo = try box.boomic("undo", "-y")
        #expect(undo.succeeded, "\(undo)")
        #expect(try box.song("title:So Modal").favorite == false)
        let lib = try LibrarySession.open(at: box.library, create: false, client: Self.client)
        defer { lib.close() }
        #expect(lib.basis.annotations.isEmpty, "the album's star is taken back with the song's")
    }
}
