@testable import BoomicHTTP
import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// The playlist calls over Boomic's playlists: each change one transaction of kind `playlist`
/// with the right songs, naming the user and the client; ids are opaque and survive a rename.
@Suite(.serialized)
struct PlaylistEndpointTests {
    static func playlist(_ answer: [String: Any]) throws -> [String: Any] {
        try #require(answer["playlist"] as? [String: Any], "\(answer)")
    }

    static func entries(_ playlist: [String: Any]) -> [String] {
        (playlist["entry"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func createUpdateDeleteAreOneTransactionEach() async throws {
        let f = try await AnnotationFixture()
        var head = f.session.head
        let created = try Self.playlist(try await f.json("createPlaylist", "name=Road%20Trip&songId=\(f.id(2))&songId=\(f.id(0))&songId=\(f.id(2))"))
        let id = try #require(created["id"] as? String)
        #expect(id.hasPrefix("pl-") && !id.contains("Road"), "\(id)")
        #expect(Self.entries(created) == [f.id(2), f.id(0), f.id(2)] && created["songCount"] as? Int == 3 && created["name"] as? String == "Road Trip")
        // Entries are songs as the browsing answers give them: with their album's and artist's ids.
        let first = try #require((created["entry"] as? [[String: Any]])?.first)
        #expect((first["albumId"] as? String)?.hasPrefix("al-") == true && (first["artistId"] as? String)?.hasPrefix("ar-") == true
                && first["mediaType"] as? String == "song", "\(first)")
        #expect(f.session.head == head + 1)
        let t = try f.last
        #expect(t.kind == .playlist && t.provenance.user == "anna" && t.provenance.client == "Symfonium"
            && t.label == "playlist new Road Trip by anna via Symfonium", "\(t.label)")
        let (_, stored) = try #require(f.session.basis.playlist(named: "road trip"))
        #expect(stored.songs == [f.songs[2], f.songs[0], f.songs[2]])
        head = f.session.head

        // Rename, remove the first and last entries, add one: one transaction.
        #expect(try await f.code("updatePlaylist", "playlistId=\(id)&name=Long%20Drive&songIndexToRemove=0&songIndexToRemove=2&songIdToAdd=\(f.id(1))",
                                 as: AnnotationFixture.ben) == nil)
        #expect(f.session.head == head + 1)
        #expect(try f.last.provenance.user == "ben" && f.last.provenance.client == "DSub" && f.last.kind == .playlist)
        let updated = try Self.playlist(try await f.json("getPlaylist", "id=\(id)"))
        #expect(updated["name"] as? String == "Long Drive" && Self.entries(updated) == [f.id(0), f.id(1)], "\(updated)")
        let all = try #require((try await f.json("getPlaylists", "")["playlists"] as? [String: Any])?["playlist"] as? [[String: Any]])
        #expect(all.count == 1 && all[0]["id"] as? String == id && all[0]["songCount"] as? Int == 2 && all[0]["entry"] == nil)

        // createPlaylist with playlistId replaces the songs.
        head = f.session.head
        let replaced = try Self.playlist(try await f.json("createPlaylist", "playlistId=\(id)&songId=\(f.id(2))"))
        #expect(Self.entries(replaced) == [f.id(2)] && f.session.head == head + 1)

        // An index past the end changes nothing.
        head = f.session.head
        #expect(try await f.code("updatePlaylist", "playlistId=\(id)&songIndexToRemove=5") == 70)
        #expect(f.session.head == head)

        try f.undo()
        #expect(f.session.basis.playlists.values.first?.songs == [f.songs[0], f.songs[1]], "undo takes the replacement back")

        #expect(try await f.code("deletePlaylist", "id=\(id)") == nil)
        #expect(f.session.basis.playlists.isEmpty && f.session.head == head + 2)
        #expect(try f.last.label == "playlist rm Long Drive by anna via Symfonium")
        try f.undo()
        #expect(f.session.basis.playlists.count == 1)
        await f.stop()
    }

    /// Names are unique, as `boomic playlist` wants them: a taken name is error 0 and changes nothing.
    @Test func namesAreUnique() async throws {
        let f = try await AnnotationFixture()
        let first = try Self.playlist(try await f.json("createPlaylist", "name=Long%20Drive"))
        #expect(try await f.code("createPlaylist", "name=x") == nil)
        let head = f.session.head
        #expect(try await f.code("createPlaylist", "name=LONG%20drive") == 0)
        #expect(try await f.code("updatePlaylist", "playlistId=\(try #require(first["id"] as? String))&name=X") == 0)
        #expect(f.session.head == head && f.session.basis.playlists.count == 2)
        await f.stop()
    }

    @Test func unknownAndHostilePlaylistIdsAre70() async throws {
        let f = try await AnnotationFixture()
        let head = f.session.head
        for id in ["pl-\(UUID().uuidString)", "Road Trip", "../../etc/passwd", "pl-", "pl-../../../../../../../etc/passwd00", f.id(0)] {
            let q = "id=\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            #expect(try await f.code("getPlaylist", q) == 70, "\(id)")
            #expect(try await f.code("deletePlaylist", q) == 70, "\(id)")
            #expect(try await f.code("updatePlaylist", "playlistId=\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&name=x") == 70)
            #expect(try await f.code("createPlaylist", "playlistId=\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)") == 70)
        }
        #expect(try await f.code("createPlaylist", "name=x&songId=../x") == 70)
        #expect(try await f.code("createPlaylist", "") == 10)
        #expect(f.session.head == head)
        await f.stop()
    }
}
