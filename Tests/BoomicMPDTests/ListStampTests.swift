@testable import BoomicMPD
import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// A stored playlist's `Last-Modified` is read from the snapshot a client's next command sees:
/// after its own `save`, `listplaylists` shows the new stamp at once, whether or not the change
/// feed has told the step yet (it tells late on a loaded machine).
struct ListStampTests {
    @Test func anOwnCommitMovesItsPlaylistsStampBeforeTheFeedTellsIt() throws {
        let dir = TempDir("list-stamp")
        let session = try LibrarySession.open(at: dir.path, create: true, client: .init(command: "test", version: "0"))
        defer { session.close() }
        let songs = ServerConversation.titledSongs(2, artists: 1, albums: 1, seed: 36, in: dir.path)
        _ = try session.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
        // No `follow`: the only move of the snapshot is the commit's own `refreshNow`.
        let library = ServerLibrary(session: session, folders: [dir.path])
        let started = Date(timeIntervalSince1970: 1_000)
        let mix = ListID(UUID()), other = ListID(UUID())
        _ = try session.commit(kind: .playlist, message: nil) { _ in
            ([.playlist(mix, EntityChange(old: nil, new: Playlist(name: "mix", songs: [songs[0].id])))], "save")
        }
        library.refreshNow()
        #expect(library.snapshot.basis.playlists[mix] != nil)
        #expect(library.listStamp(mix, started: started) > started, "the saved playlist's stamp moved with the snapshot")
        #expect(library.listStamp(other, started: started) == started, "an unchanged list keeps the server's start")
    }
}
