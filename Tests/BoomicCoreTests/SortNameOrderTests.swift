import Foundation
import Testing
@testable import BoomicCore

/// Songs sort by the files' sort names where they have them (beets' smart artist sort): The
/// Beatles come under B, in the browsing order and when sorting by artist or album artist.
@Suite struct SortNameOrderTests {
    static func song(_ title: String, artist: String, artistSort: String? = nil, albumartist: String? = nil,
                     albumartistSort: String? = nil, album: String, albumSort: String? = nil) -> Song {
        var s = Song(id: SongID(UUID()), path: "/m/\(title).flac")
        s.title = title; s.artists = [artist]; s.artistSort = artistSort; s.albumartist = albumartist
        s.albumartistSort = albumartistSort; s.album = album; s.albumSort = albumSort
        return s
    }

    static let songs = [
        song("Cream song", artist: "Cream", album: "Thunder"),
        song("Beatles song", artist: "The Beatles", artistSort: "Beatles, The", album: "The White Album", albumSort: "White Album, The"),
        song("Beatles early", artist: "The Beatles", artistSort: "Beatles, The", album: "Help!"),
        song("Tull song", artist: "Jethro Tull", albumartist: "The Tull Band", albumartistSort: "Tull Band, The", album: "Aqualung"),
        song("ABBA song", artist: "ABBA", album: "Arrival"),
    ]

    @Test func browsingOrderUsesSortNames() {
        let titles = SongOrder([]).sorted(Self.songs.shuffled()).map(\.title)
        #expect(titles == ["ABBA song", "Beatles early", "Beatles song", "Cream song", "Tull song"])
    }

    @Test func sortingByArtistOrAlbumUsesSortNames() {
        let byArtistDown = SongOrder([SortKey(field: .artists, ascending: false)]).sorted(Self.songs).map(\.title)
        #expect(byArtistDown == ["Tull song", "Cream song", "Beatles early", "Beatles song", "ABBA song"])
        let byAlbum = SongOrder([SortKey(field: .album, ascending: true)]).sorted(Self.songs).map(\.title)
        #expect(byAlbum == ["Tull song", "ABBA song", "Beatles early", "Cream song", "Beatles song"])
    }
}
