import BoomicCore
import BoomicLibrary
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import Testing

/// The columns browsers ask for first are built off the event loops once a snapshot is
/// current: at start, and after a change to songs, for the snapshot no newer change replaced,
/// with what clients used of the snapshot before it.
@Suite struct WarmUpTests {
    @Test func columnsAreReadyBeforeAnyoneAsks() throws {
        try withTemporaryDirectory { dir in
            let session = try LibrarySession.open(at: dir, create: true, client: .init(command: "test", version: "0"))
            defer { session.close() }
            var ids = SplitMix64(seed: 5)
            let songs = (0..<50).map { i in
                var s = Song(id: SongID(ids.uuid()), path: "\(dir)/A\(i % 5)/\(i).flac")
                s.album = "Album \(i % 7)"; s.artists = ["Artist \(i % 3)"]
                return s
            }
            _ = try session.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
            let library = ServerLibrary(session: session, folders: [dir])
            let wanted: Set<String> = ["Album", "AlbumArtist", "Artist", "Date", "Genre"]
            try waitUntil("the columns built") { wanted.isSubset(of: library.snapshot.indexes.builtColumns) }
            #expect(wanted.isSubset(of: library.snapshot.indexes.builtColumns),
                    "built at start: \(library.snapshot.indexes.builtColumns)")

            // What a client used (`find album X`, `search any W`, `list composer`) is made again
            // for the snapshot after a change, before anyone asks.
            _ = library.snapshot.indexes.index(.album)
            _ = library.snapshot.indexes.anyFieldText()
            _ = library.snapshot.indexes.column(TagLevel(.composer))

            // A change to songs: the new snapshot's columns are built too, a moment later.
            let patch: SongPatch = [.album: FieldChange(old: .string(songs[0].album!), new: .string("Renamed"))]
            _ = try session.commit(kind: .edit, message: nil) { _ in ([.updateSong(songs[0].id, patch)], "edit") }
            library.refreshNow()
            let after = library.snapshot
            #expect(after.head == 2)
            try waitUntil("the columns built again, Composer too: \(after.indexes.builtColumns)") { wanted.union(["Composer"]).isSubset(of: after.indexes.builtColumns) }
            try waitUntil("the album index and the any-field text") { after.indexes.builtIndexes == [.album] && after.indexes.hasAnyFieldText }
            #expect(after.indexes.index(.album)["Renamed"] == [songs[0].id])
        }
    }
}
