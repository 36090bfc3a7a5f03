import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// Stars and ratings of songs, albums and artists (`AnnotationGeneration`), the annotation
/// entity through the transaction function, and the provenance of API changes.
@Suite struct AnnotationTests {
    static let files = [
        facts("/m/1.flac", title: "Fairest", artists: ["Nico"], album: "Chelsea Girl"),
        facts("/m/2.flac", title: "These Days", artists: ["Nico"], album: "Chelsea Girl"),
        facts("/m/3.flac", title: "Janitor", artists: ["Nico", "Cale"], album: "The End"),
        facts("/m/4.flac", title: "Alone", artists: ["Cale"]),
    ]
    static let album = AnnotationKey.album(musicBrainzID: nil, albumArtist: "NICO", title: "chelsea girl")
    static let nico = AnnotationKey.artist(musicBrainzID: nil, name: "Nico")

    @Test func anOldLogsProvenanceDecodesUnchangedAndANewOneSaysWho() throws {
        // A transaction as the log of an earlier build holds it: no user, no client.
        let old = #"{"assertions":[],"id":"00000000-0000-4000-8000-000000000001","kind":"edit","label":"modify year=1 (1 song)","provenance":{"command":"boomic modify year=1","version":"0.9"},"timestamp":5}"#
        let t = try JSONDecoder().decode(Transaction.self, from: Data(old.utf8))
        #expect(t.provenance == Transaction.Provenance(command: "boomic modify year=1", version: "0.9"))
        #expect(t.provenance.user == nil && t.provenance.client == nil && t.provenance.byLine == "")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(t), as: UTF8.self) == old, "re-encoded byte for byte: nothing new is written")
        var api = t
        api.provenance = .init(command: "star", version: "1", user: "anna", client: "Symfonium")
        let back = try JSONDecoder().decode(Transaction.self, from: encoder.encode(api))
        #expect(back.provenance.user == "anna" && back.provenance.client == "Symfonium")
        #expect(back.provenance.byLine == " by anna via Symfonium")
        #expect(Transaction.Provenance(user: "a\nb").byLine == #" by a\nb"#, "a label stays one line")
    }

    @Test func keysFollowMusicBrainzIDsElseFoldedNames() {
        let basis = library(Self.files)
        #expect(AnnotationKey.album(of: basis[songID(1)]!) == Self.album, "case and accents folded")
        #expect(AnnotationKey.album(of: basis[songID(4)]!) == nil, "no album, no key")
        var s = basis[songID(1)]!
        s.mbAlbumID = " 0A1B "
        #expect(AnnotationKey.album(of: s) == .album(musicBrainzID: "0a1b", albumArtist: "x", title: "y"))
        s.mbAlbumID = "a; b"
        #expect(AnnotationKey.album(of: s) == Self.album, "several ids name no one album: by name")
        #expect(AnnotationKey.artist(musicBrainzID: "", name: "NICO") == Self.nico)
    }

    @Test func starringSongsAlbumsAndArtistsAndClearing() throws {
        var basis = library(Self.files)
        let a = AnnotationGeneration.star(songs: [songID(1), songID(1), songID(9)], true, on: basis)
        #expect(a == [.updateSong(songID(1), [.favorite: FieldChange(old: .bool(false), new: .bool(true))])], "once, unknown skipped")
        basis = basis.applying(a + AnnotationGeneration.star([Self.album, Self.nico], at: 100, on: basis))
        #expect(basis[songID(1)]!.favorite)
        #expect(basis.annotations[Self.album] == Annotation(starred: 100))
        #expect(AnnotationGeneration.star([Self.album], at: 200, on: basis) == [], "starred again: keeps its date, no change")
        basis = basis.applying(try AnnotationGeneration.rate([Self.album], 4, on: basis))
        #expect(basis.annotations[Self.album] == Annotation(starred: 100, rating: 4))
        basis = basis.applying(AnnotationGeneration.star([Self.album], at: nil, on: basis))
        #expect(basis.annotations[Self.album] == Annotation(rating: 4))
        basis = basis.applying(try AnnotationGeneration.rate([Self.album], 0, on: basis))
        #expect(basis.annotations[Self.album] == nil, "an annotation saying nothing is not kept")
        basis = basis.applying(try AnnotationGeneration.rate(songs: [songID(2)], 5, on: basis))
        #expect(basis[songID(2)]!.rating == 5)
        basis = basis.applying(try AnnotationGeneration.rate(songs: [songID(2)], 0, on: basis))
        #expect(basis[songID(2)]!.rating == nil, "0 clears")
        #expect(throws: AnnotationError.badRating(6)) { try AnnotationGeneration.rate(songs: [songID(2)], 6, on: basis) }
        #expect(throws: AnnotationError.badRating(-1)) { try AnnotationGeneration.rate([Self.nico], -1, on: basis) }
    }

    @Test func theAnnotationAssertionRoundTripsThroughTheLogsJSON() throws {
        let a = Assertion.annotation(Self.album, EntityChange(old: nil, new: Annotation(starred: 1.5, rating: 3)))
        let data = try JSONEncoder().encode(a)
        #expect(try JSONDecoder().decode(Assertion.self, from: data) == a)
        #expect(String(decoding: data, as: UTF8.self).contains(#""annotation""#))
        #expect(a.inverse.inverse == a && a.entity == .annotation(Self.album))
    }

    /// star∘unstar and unstar∘star leave the basis as it was, for any songs, albums and artists
    /// neither starred before; undo of a star (applying its inverse) is the identity too.
    @Test func starThenUnstarIsTheIdentity() throws {
        for seed in Seeds.list(40, from: 3600) {
            var rng = SplitMix64(seed: seed)
            let basis = Histories.all[Int(seed % UInt64(Histories.all.count))].head
            let ids = Array(basis.songs.keys.sorted().filter { _ in rng.chance(0.4) })
            let keys = ids.compactMap { basis[$0].flatMap(AnnotationKey.album(of:)) }
                + ids.compactMap { basis[$0]?.artist.map { AnnotationKey.artist(musicBrainzID: nil, name: $0) } }
            let fresh = basis.applying(AnnotationGeneration.star(songs: ids, false, on: basis)
                                       + AnnotationGeneration.star(keys, at: nil, on: basis))
            let starred = fresh.applying(AnnotationGeneration.star(songs: ids, true, on: fresh)
                                         + AnnotationGeneration.star(keys, at: 7, on: fresh))
            let back = starred.applying(AnnotationGeneration.star(songs: ids, false, on: starred)
                                        + AnnotationGeneration.star(keys, at: nil, on: starred))
            #expect(back == fresh, "seed \(seed)")
            let star = AnnotationGeneration.star(songs: ids, true, on: basis) + AnnotationGeneration.star(keys, at: 9, on: basis)
            #expect(basis.applying(star).applying(star.reversed().map(\.inverse)) == basis, "seed \(seed): undo∘star")
            #expect(basis.applying(star).diff(to: basis).count == star.count, "seed \(seed)")
        }
    }

    // MARK: Renames

    @Test func aWholeAlbumRenamedByModifyCarriesItsStar() throws {
        var basis = library(Self.files)
        basis = basis.applying(AnnotationGeneration.star([Self.album, Self.nico], at: 5, on: basis))
        let rename = EditGeneration.modify(basis, songs: [songID(1), songID(2)], set: [try FieldAssignment.parse("album=Chelsea Girls")])
        let carried = AnnotationGeneration.carried(rename, on: basis)
        let after = basis.applying(carried)
        let renamed = AnnotationKey.album(musicBrainzID: nil, albumArtist: "Nico", title: "Chelsea Girls")
        #expect(after.annotations[Self.album] == nil && after.annotations[renamed] == Annotation(starred: 5))
        #expect(after.annotations[Self.nico] == Annotation(starred: 5), "the artist did not change")
        #expect(after.applying(carried.reversed().map(\.inverse)) == basis, "undo takes back rename and move together")

        // Half the album renamed: which one the star meant cannot be told; it stays.
        let half = EditGeneration.modify(basis, songs: [songID(1)], set: [try FieldAssignment.parse("album=Other")])
        #expect(AnnotationGeneration.carried(half, on: basis) == half)

        // An artist renamed on every song that names them.
        let artist = EditGeneration.modify(basis, songs: [songID(1), songID(2), songID(3)], set: [try FieldAssignment.parse("artist=Nico Päffgen")])
        let moved = basis.applying(AnnotationGeneration.carried(artist, on: basis))
        #expect(moved.annotations[Self.nico] == nil)
        #expect(moved.annotations[.artist(musicBrainzID: nil, name: "nico päffgen")] == Annotation(starred: 5))
    }

    @Test func aKeyByMusicBrainzIDSurvivesARenameUntouched() throws {
        var files = Self.files
        files[0].mbAlbumID = "aa"; files[1].mbAlbumID = "aa"
        var basis = library(files)
        let key = AnnotationKey.album(musicBrainzID: "AA", albumArtist: nil, title: "")
        basis = basis.applying(AnnotationGeneration.star([key], at: 5, on: basis))
        let rename = EditGeneration.modify(basis, songs: [songID(1), songID(2)], set: [try FieldAssignment.parse("album=X")])
        #expect(AnnotationGeneration.carried(rename, on: basis) == rename)
        #expect(AnnotationKey.album(of: basis.applying(rename)[songID(1)]!) == key)
    }

    @Test func aRenameOntoAStarredAlbumKeepsThatAlbumsStar() throws {
        var basis = library(Self.files)
        let end = AnnotationKey.album(musicBrainzID: nil, albumArtist: "Nico", title: "The End")
        basis = basis.applying(AnnotationGeneration.star([Self.album], at: 5, on: basis))
        basis = basis.applying(AnnotationGeneration.star([end], at: 6, on: basis))
        let merge = EditGeneration.modify(basis, songs: [songID(1), songID(2)], set: [try FieldAssignment.parse("album=The End")])
        #expect(AnnotationGeneration.carried(merge, on: basis) == merge)
    }
}
