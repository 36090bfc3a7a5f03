import Foundation
import Testing
@testable import BoomicCore

/// Taglists and playlists as library entities: their generation functions, and revert and
/// rollback of their changes (the laws on random histories cover them too: see HistoryGenerator).
@Suite struct ListGenerationTests {
    static let songs = (1...4).map { Song(id: songID($0), path: "/music/\($0).flac") }
    static let db = DataBasis(songs: songs)
    static let mix = try! Taglist.parse(name: "Mix", clauses: ["+#english,#french", "-#french", "-@year(<2000)"])

    func committed(_ a: [Assertion], on b: DataBasis) -> DataBasis { b.applying(a) }

    @Test func aTaglistIsAddedFoundByFoldedNameAndRemoved() throws {
        let b = committed(try TaglistGeneration.add(Self.mix, id: ListID(uuid(100)), on: Self.db), on: Self.db)
        #expect(b.taglist(named: "mix")?.taglist == Self.mix)
        #expect(b.taglist(named: " MÍX ")?.id == ListID(uuid(100)))
        #expect(throws: ListError.exists(kind: "taglist", name: "Mix")) {
            try TaglistGeneration.add(Taglist(name: "mix", clauses: []), id: ListID(uuid(101)), on: b)
        }
        let gone = committed(try TaglistGeneration.remove("mix", on: b), on: b)
        #expect(gone.taglists.isEmpty)
        #expect(gone == Self.db)
        #expect(throws: ListError.self) { try TaglistGeneration.remove("mix", on: gone) }
    }

    @Test func editingChangesClausesAndNameAndNothingMeansNoAssertion() throws {
        let b = committed(try TaglistGeneration.add(Self.mix, id: ListID(uuid(100)), on: Self.db), on: Self.db)
        #expect(try TaglistGeneration.edit("mix", clauses: Self.mix.clauses, rename: nil, on: b) == [])
        let jazz = try Taglist.parse(name: "x", clauses: ["+#jazz"]).clauses
        let e = committed(try TaglistGeneration.edit("mix", clauses: jazz, rename: "Jazz mix", on: b), on: b)
        #expect(e.taglist(named: "jazz mix")?.taglist.clauses == jazz)
        #expect(e.taglist(named: "mix") == nil)
        // Undo is the inverse, and the diff of the two bases is the one assertion.
        #expect(b.diff(to: e).count == 1)
        #expect(e.applying(e.diff(to: b)) == b)
    }

    @Test func badNamesAreRefused() {
        #expect(throws: ListError.self) { try TaglistGeneration.add(Taglist(name: "  ", clauses: []), id: ListID(uuid(1)), on: Self.db) }
        #expect(throws: ListError.self) { try PlaylistGeneration.create("a\nb", songs: [], id: ListID(uuid(1)), on: Self.db) }
        #expect(throws: ListError.self) { try PlaylistGeneration.create(String(repeating: "x", count: 201), songs: [], id: ListID(uuid(1)), on: Self.db) }
    }

    @Test func playlistsKeepOrderAndDuplicatesAndCountFromOne() throws {
        let ids = Self.songs.map(\.id)
        var b = committed(try PlaylistGeneration.create("Road", songs: [ids[0], ids[1]], id: ListID(uuid(200)), on: Self.db), on: Self.db)
        b = committed(try PlaylistGeneration.add("road", songs: [ids[0], ids[2]], on: b), on: b)
        #expect(b.playlist(named: "road")?.playlist.songs == [ids[0], ids[1], ids[0], ids[2]])
        b = committed(try PlaylistGeneration.add("road", songs: [ids[3]], at: 1, on: b), on: b)
        #expect(b.playlist(named: "road")?.playlist.songs == [ids[3], ids[0], ids[1], ids[0], ids[2]])
        b = committed(try PlaylistGeneration.remove("road", positions: [5, 1, 1], on: b), on: b)
        #expect(b.playlist(named: "road")?.playlist.songs == [ids[0], ids[1], ids[0]])
        b = committed(try PlaylistGeneration.move("road", from: 1, to: 3, on: b), on: b)
        #expect(b.playlist(named: "road")?.playlist.songs == [ids[1], ids[0], ids[0]])
        #expect(throws: ListError.badPosition(playlist: "Road", position: 4, count: 3)) {
            try PlaylistGeneration.remove("road", positions: [4], on: b)
        }
        #expect(throws: ListError.self) { try PlaylistGeneration.move("road", from: 0, to: 1, on: b) }
        #expect(try PlaylistGeneration.move("road", from: 2, to: 2, on: b) == [])
    }

    @Test func renamingKeepsTheIdAndRefusesATakenName() throws {
        var b = committed(try PlaylistGeneration.create("A", songs: [], id: ListID(uuid(1)), on: Self.db), on: Self.db)
        b = committed(try PlaylistGeneration.create("B", songs: [], id: ListID(uuid(2)), on: b), on: b)
        #expect(throws: ListError.exists(kind: "playlist", name: "B")) { try PlaylistGeneration.rename("a", to: "b", on: b) }
        let r = committed(try PlaylistGeneration.rename("a", to: "a", on: b), on: b)  // case change only
        #expect(r.playlist(named: "A")?.playlist.name == "a")
        #expect(r.playlist(named: "a")?.id == ListID(uuid(1)))
    }

    @Test func aPlaylistKeepsEntriesOfRemovedSongsAndTheyComeBackOnUndo() throws {
        let ids = Self.songs.map(\.id)
        let b = committed(try PlaylistGeneration.create("P", songs: ids, id: ListID(uuid(1)), on: Self.db), on: Self.db)
        let removal = EditGeneration.remove(b, songs: [ids[1]])
        let after = b.applying(removal)
        #expect(after.playlist(named: "P")?.playlist.songs == ids)
        #expect(after[ids[1]] == nil)
        #expect(after.applying(removal.reversed().map(\.inverse)) == b)
    }

    @Test func revertOfAListChangeConflictsWhenItChangedSince() throws {
        let b0 = committed(try TaglistGeneration.add(Self.mix, id: ListID(uuid(1)), on: Self.db), on: Self.db)
        let edit = try TaglistGeneration.edit("mix", clauses: nil, rename: "one", on: b0)
        let b1 = committed(edit, on: b0)
        let t = Transaction(id: uuid(9), parent: nil, timestamp: 0, kind: .taglist, label: "x", assertions: edit)
        #expect(b1.applying(RevertGeneration.revert(t, on: b1, force: false).assertions) == b0)
        let b2 = committed(try TaglistGeneration.edit("one", clauses: nil, rename: "two", on: b1), on: b1)
        let r = RevertGeneration.revert(t, on: b2, force: false)
        #expect(r.assertions.isEmpty)
        #expect(r.conflicts.map(\.entity) == [.taglist(ListID(uuid(1)))])
        let forced = RevertGeneration.revert(t, on: b2, force: true)
        #expect(b2.applying(forced.assertions).taglist(named: "Mix") != nil)
    }

    @Test func listAssertionsRoundTripThroughJSON() throws {
        let a: [Assertion] = [.taglist(ListID(uuid(1)), EntityChange(old: nil, new: Self.mix)),
                              .playlist(ListID(uuid(2)), EntityChange(old: Playlist(name: "p", songs: [songID(1), songID(1)]), new: nil)),
                              .playlist(ListID(uuid(3)), EntityChange(old: Playlist(name: "a"), new: Playlist(name: "b", songs: [songID(2)])))]
        let data = try JSONEncoder().encode(a)
        #expect(try JSONDecoder().decode([Assertion].self, from: data) == a)
        #expect(String(decoding: data, as: UTF8.self).contains("\"taglist\":{"))
        #expect(throws: (any Error).self) { try JSONDecoder().decode(Assertion.self, from: Data(#"{"taglist":{"id":"00000000-0000-4000-8000-000000000001"}}"#.utf8)) }
    }

    @Test func revertNeverGivesTwoListsOneName() throws {
        // taglist add mix; taglist rm mix; taglist add MIX; revert the rm: refused, names stay unique.
        var b = committed(try TaglistGeneration.add(Self.mix, id: ListID(uuid(1)), on: Self.db), on: Self.db)
        let rm = try TaglistGeneration.remove("mix", on: b)
        b = committed(rm, on: b)
        b = committed(try TaglistGeneration.add(Taglist(name: "MIX", clauses: []), id: ListID(uuid(2)), on: b), on: b)
        let t = Transaction(id: uuid(9), parent: nil, timestamp: 0, kind: .taglist, label: "rm", assertions: rm)
        for force in [false, true] {
            let r = RevertGeneration.revert(t, on: b, force: force)
            #expect(r.assertions.isEmpty && r.conflicts.map(\.entity) == [.taglist(ListID(uuid(1)))], "force \(force)")
            #expect(r.conflicts.allSatisfy { !$0.isOverridable }, "force does not overwrite a name conflict")
            #expect(b.applying(r.assertions).invariantViolations().isEmpty)
        }
    }

    @Test func namesFoldSpacesAndRefuseInvisibleCharacters() throws {
        let b = committed(try PlaylistGeneration.create("  road   trip ", songs: [], id: ListID(uuid(1)), on: Self.db), on: Self.db)
        #expect(b.playlist(named: "Road Trip")?.playlist.name == "road trip")
        #expect(throws: ListError.self) { try PlaylistGeneration.create("road trip", songs: [], id: ListID(uuid(2)), on: b) }
        #expect(throws: ListError.self) { try PlaylistGeneration.create("mi\u{200B}x", songs: [], id: ListID(uuid(2)), on: b) }
        #expect(throws: ListError.self) { try PlaylistGeneration.create("a\tb", songs: [], id: ListID(uuid(2)), on: b) }
        let long = ListError.notFound(kind: "playlist", name: String(repeating: "x\n", count: 500), suggestion: nil).message
        #expect(!long.contains("\n") && long.count < 200, "\(long)")
    }
}
