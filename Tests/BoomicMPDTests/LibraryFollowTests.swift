import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicPlayback
import BoomicStation
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import Testing

/// The library's changes as idle clients hear them through the server's change feed
/// (`ServerLibrary.follow`), over a real library and a real room on the null output: a
/// Boomic-only edit tells nothing, and an edit of a queued song refreshes its entry, which the
/// room's clients hear as `playlist` (and `plchanges` lists). Serialized: each runs a player.
@Suite(.serialized) struct LibraryFollowTests {
    /// A library of three songs, a room on the null output, the feed followed as `boomic serve`
    /// follows it.
    final class Server {
        let dir = TempDir("library-follow")
        let session: LibrarySession
        let library: ServerLibrary
        let hub = IdleHub()
        let rooms: Rooms
        let following: Task<Void, Never>
        let songs: [Song]

        init() throws {
            let dir = self.dir.path
            session = try LibrarySession.open(at: dir, create: true, client: .init(command: "test", version: "0"))
            let songs = ServerConversation.titledSongs(3, artists: 1, albums: 1, seed: 35, in: dir)
            _ = try session.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
            self.songs = songs
            library = ServerLibrary(session: session, folders: [dir])
            rooms = Rooms(library: library, store: try PlayerStateStore(libraryLocation: dir), outputs: [.null],
                          sound: SoundSettings(), hub: hub, record: false, warn: { _ in })
            following = library.follow(telling: hub, gone: { [rooms] in rooms.dropEntries(of: $0) },
                                       shown: { [rooms] in rooms.refreshEntries(of: $0) })
        }

        func close() {
            following.cancel()
            rooms.quitAll()
            session.close()
        }

        /// Commits `assertions` as another front would (`boomic modify` in this process).
        func commit(_ kind: Transaction.Kind, _ assertions: (DataBasis) -> [Assertion]) throws {
            _ = try session.commit(kind: kind, message: nil) { basis in (assertions(basis), "test") }
        }

        /// What ends an `idle` for `mask` started now, once `act` has run (nil: nothing in
        /// 10 s). Awaited, not waited for on a thread: the feed's task runs on the same pool
        /// as the tests.
        func idle(for mask: Set<Subsystem>, after act: () throws -> Void) async rethrows -> Set<Subsystem>? {
            let slot = hub.makeSlot()
            defer { hub.remove(slot) }
            let (woken, wake) = AsyncStream<Void>.makeStream()
            if !slot.wait(for: mask, wake: { wake.finish() }) {
                try act()
                let deadline = Task {
                    try? await Task.sleep(for: .seconds(10))
                    wake.finish()
                }
                for await _ in woken {}
                deadline.cancel()
            }
            return slot.take()
        }
    }

    static func set(_ song: Song, _ field: SongField, _ value: FieldValue) -> Assertion {
        .updateSong(song.id, [field: FieldChange(old: field.value(in: song), new: value)])
    }

    /// `boomic tag +#x` and a bookmark tell nothing: the first change an idle client hears after
    /// them is the playlist made next (`database` would make clients reload their library).
    @Test func aBoomicOnlyEditTellsNothing() async throws {
        let server = try Server()
        defer { server.close() }
        let song = server.songs[0]
        let told = try await server.idle(for: [.database, .storedPlaylist, .sticker, .playlist]) {
            try server.commit(.tag) { _ in [Self.set(song, .tags, .strings(["x"]))] }
            try server.commit(.play) { _ in [Self.set(song, .bookmark, .double(12))] }
            try server.commit(.edit) { _ in [Self.set(song, .guessed, .strings(["title"]))] }
            try server.commit(.playlist) { _ in
                [.playlist(ListID(UUID()), EntityChange(old: nil, new: Playlist(name: "mix", songs: [song.id])))]
            }
        }
        #expect(told == [.storedPlaylist])
    }

    /// `boomic modify` of a queued song: its entry takes a new version, so the room's clients
    /// hear `playlist` and `plchanges` lists it with its new title, as MPD's queue takes a
    /// database update; a song not queued leaves the queue alone.
    @Test func anEditOfAQueuedSongRefreshesItsEntry() async throws {
        let server = try Server()
        defer { server.close() }
        let player = try #require(server.rooms.player("default"))
        let queued = server.songs[1]
        let before = try player.perform(.add([queued.id], at: .end)).queue
        let told = try await server.idle(for: [.playlist]) {
            try server.commit(.edit) { _ in [Self.set(server.songs[2], .title, .string("Not Queued"))] }
            try server.commit(.edit) { _ in [Self.set(queued, .title, .string("Retitled"))] }
        }
        #expect(told == [.playlist])
        let after = player.status.queue
        #expect(after.version == before.version + 1)
        #expect(after.changes(since: before.version).map(\.song) == [queued.id])
        #expect(server.library.snapshot.basis[queued.id]?.title == "Retitled")
    }

    /// `stored_playlist` when a taglist's songs change, also through a song's `#tag`, and not
    /// when its rules change but not its songs (a rating told next is the first news).
    @Test func aTaglistIsToldWhenItsSongsChange() async throws {
        let server = try Server()
        defer { server.close() }
        let jazz = ListID(UUID()), song = server.songs[0]
        // The new taglist's own news is awaited, or it could end the next wait in its place.
        let made = try await server.idle(for: [.storedPlaylist]) {
            try server.commit(.taglist) { _ in [.taglist(jazz, EntityChange(old: nil, new: try! Taglist.parse(name: "jazz", clauses: ["+#jazz"])))] }
        }
        #expect(made == [.storedPlaylist])
        let joined = try await server.idle(for: [.database, .storedPlaylist, .sticker]) {
            try server.commit(.tag) { _ in [Self.set(song, .tags, .strings(["jazz"]))] }
        }
        #expect(joined == [.storedPlaylist])
        let sameSongs = try await server.idle(for: [.database, .storedPlaylist, .sticker]) {
            try server.commit(.taglist) { basis in
                [.taglist(jazz, EntityChange(old: basis.taglists[jazz], new: try! Taglist.parse(name: "jazz", clauses: ["+#jazz,#bebop"])))]
            }
            try server.commit(.rating) { _ in [Self.set(song, .rating, .int(4))] }
        }
        #expect(sameSongs == [.sticker])
    }
}
