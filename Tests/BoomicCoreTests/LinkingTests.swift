import Testing
@testable import BoomicCore

/// The linking the transaction function does (DESIGN §1): albums and artists are indexes over
/// songs, so a song moves between them as its tags change and empty ones disappear.
@Suite("Album and artist linking")
struct LinkingTests {
    static let kindOfBlue = AlbumKey(artist: "miles davis", title: "kind of blue")

    static func modify(_ basis: DataBasis, _ id: Int, _ assignments: FieldAssignment...) -> DataBasis {
        let after = basis.applying(EditGeneration.modify(basis, songs: [songID(id)], set: assignments))
        expectConsistent(after, "after modify")
        return after
    }

    @Test("a song whose album artist changes moves to the right album; the album it left keeps its other songs")
    func albumArtistChange() {
        let db = library([facts("/m/1.flac", artists: ["Miles Davis"], album: "Kind of Blue"),
                          facts("/m/2.flac", artists: ["Miles Davis"], album: "Kind of Blue")])
        #expect(db.albums == [Self.kindOfBlue: [songID(1), songID(2)]])

        let after = Self.modify(db, 1, FieldAssignment(field: .albumartist, value: .string("Bill Evans")))
        #expect(after.albums == [Self.kindOfBlue: [songID(2)],
                                 AlbumKey(artist: "bill evans", title: "kind of blue"): [songID(1)]])
        #expect(after.artists["bill evans"] == [songID(1)])
        #expect(after.artists["miles davis"] == [songID(1), songID(2)], "still a track artist of song 1")
    }

    @Test("an album left with no songs disappears, and so does an artist")
    func emptyAlbumDisappears() {
        let db = library([facts("/m/1.flac", artists: ["Miles Davis"], album: "Kind of Blue"),
                          facts("/m/2.flac", artists: ["Nina Simone"], album: "Pastel Blues")])
        let moved = Self.modify(db, 2, FieldAssignment(field: .album, value: .string("Kind of Blue")),
                                FieldAssignment(field: .artists, value: .strings(["Miles Davis"])))
        #expect(moved.albums == [Self.kindOfBlue: [songID(1), songID(2)]])
        #expect(moved.artists.keys.sorted() == ["miles davis"])

        let removed = moved.applying(EditGeneration.remove(moved, songs: [songID(1), songID(2)]))
        #expect(removed.albums.isEmpty && removed.artists.isEmpty && removed.paths.isEmpty)
        #expect(removed == .empty)
    }

    @Test("a song with no album is in no album; setting one files it")
    func noAlbum() {
        let db = library([facts("/m/1.flac", artists: ["Björk"])])
        #expect(db.albums.isEmpty)
        #expect(db.artists["bjork"] == [songID(1)])
        let after = Self.modify(db, 1, FieldAssignment(field: .album, value: .string("Homogenic")))
        #expect(after.albums == [AlbumKey(artist: "bjork", title: "homogenic"): [songID(1)]])
        #expect(Self.modify(after, 1, FieldAssignment(field: .album, value: .null)).albums.isEmpty)
    }

    @Test("multi-valued artists index the song under each artist, and the first one files the album")
    func multiValuedArtists() {
        let db = library([facts("/m/1.flac", artists: ["Miles Davis", "John Coltrane"], album: "Kind of Blue")])
        #expect(db[songID(1)]?.artist == "Miles Davis; John Coltrane")
        #expect(db.artists == ["miles davis": [songID(1)], "john coltrane": [songID(1)]])
        #expect(db.albums.keys.sorted() == [Self.kindOfBlue])

        let after = Self.modify(db, 1, FieldAssignment(field: .artists, value: .strings(["John Coltrane"])))
        #expect(after.artists == ["john coltrane": [songID(1)]])
        #expect(after.albums.keys.sorted() == [AlbumKey(artist: "john coltrane", title: "kind of blue")])
    }

    @Test("compilations without an album artist file under Various Artists")
    func compilation() {
        let db = library([facts("/m/1.flac", artists: ["Nina Simone"], album: "Jazz Hits", compilation: true),
                          facts("/m/2.flac", artists: ["Miles Davis"], album: "Jazz Hits", compilation: true),
                          facts("/m/3.flac", artists: ["Björk"], album: "Jazz Hits", albumartist: "DJ", compilation: true)])
        #expect(db[songID(1)]?.effectiveAlbumArtist == "Various Artists")
        #expect(db.albums[AlbumKey(artist: "various artists", title: "jazz hits")] == [songID(1), songID(2)])
        #expect(db.albums[AlbumKey(artist: "dj", title: "jazz hits")] == [songID(3)], "an album artist wins")
        #expect(db.artists["various artists"] == [songID(1), songID(2)])
        #expect(db.artists["nina simone"] == [songID(1)])

        let after = Self.modify(db, 1, FieldAssignment(field: .compilation, value: .bool(false)))
        #expect(after.albums[AlbumKey(artist: "nina simone", title: "jazz hits")] == [songID(1)])
        #expect(after.albums[AlbumKey(artist: "various artists", title: "jazz hits")] == [songID(2)])
    }

    @Test("album and artist names meet across case and accents", arguments: [
        ("Björk", "bjork"), ("BJÖRK", "Bjork"), ("Sigur Rós", "sigur ros"), ("Beyoncé", "BEYONCE"),
    ])
    func folding(a: String, b: String) {
        let db = library([facts("/m/1.flac", artists: [a], album: "Homogenic"),
                          facts("/m/2.flac", artists: [b], album: "HOMOGENIC")])
        #expect(db.albums.count == 1)
        #expect(db.albums.values.first == [songID(1), songID(2)])
        #expect(db.artists.count == 1)
        #expect(Fold.key(a) == Fold.key(b))
    }

    @Test("tags index songs; a tag nobody carries any more disappears")
    func tagIndex() {
        let db = library([facts("/m/1.flac"), facts("/m/2.flac")])
        let tagged = db.applying(EditGeneration.tag(db, songs: [songID(1), songID(2)], add: ["#Jazz", "instruments:piano"], remove: []))
        #expect(tagged.tags == ["jazz": [songID(1), songID(2)], "instruments:piano": [songID(1), songID(2)]])
        let untagged = tagged.applying(EditGeneration.tag(tagged, songs: [songID(1)], add: [], remove: ["instruments"]))
        #expect(untagged.tags == ["jazz": [songID(1), songID(2)], "instruments:piano": [songID(2)]])
        expectConsistent(untagged, "after tagging")
    }
}
