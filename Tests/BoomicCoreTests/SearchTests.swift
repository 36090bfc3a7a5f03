import Foundation
import Testing
@testable import BoomicCore

/// A small library where every rule of the ranking shows.
private func sample() -> DataBasis {
    var files = [
        facts("/m/1.flac", title: "So What", artists: ["Miles Davis"], album: "Kind of Blue"),
        facts("/m/2.flac", title: "Blue in Green", artists: ["Miles Davis"], album: "Kind of Blue"),
        facts("/m/3.flac", title: "Milestones", artists: ["Miles Davis"], album: "Milestones"),
        facts("/m/4.flac", title: "Jóga", artists: ["Björk"], album: "Homogenic"),
        facts("/m/5.flac", title: "Formation", artists: ["Beyoncé"], album: "Lemonade"),
        facts("/m/6.flac", title: "Thunderstruck", artists: ["AC/DC"], album: "The Razors Edge"),
        facts("/m/7.flac", title: "Blue Train", artists: ["John Coltrane"], album: "Blue Train"),
        facts("/m/8.flac", title: "Don't Know Why", artists: ["Norah Jones"]),
    ]
    files[0].track = 1
    files[1].track = 3
    files[6].composer = "John Coltrane"
    return library(files)
}

private func names(_ hits: [SearchHit]) -> [String] { hits.map { "\($0.kind.rawValue):\($0.name)" } }

@Suite struct SearchTests {
    @Test(arguments: ["", "   ", "\t\n", "!!!", "— / —", "🎷"])
    func textWithoutWordsIsAnError(_ text: String) {
        #expect(throws: SearchError.noWords(text)) { try sample().search(text) }
    }

    @Test func errorsReadAsOneSentence() {
        #expect(SearchError.noWords(" ").localizedDescription
            == "nothing to search for: give some text, e.g. boomic search 'kind of blue'")
        #expect(SearchError.noWords("!!").localizedDescription
            == "nothing to search for in '!!': search looks at letters and digits, give some")
        #expect(SearchError.tooManyWords(count: 40, max: 32).localizedDescription
            == "the search text has 40 words; give at most 32")
    }

    @Test func tooManyWords() {
        let text = (0..<40).map { "w\($0)" }.joined(separator: " ")
        #expect(throws: SearchError.tooManyWords(count: 40, max: 32)) { try sample().search(text) }
        // Repeated words count once.
        #expect(throws: Never.self) { try sample().search(Array(repeating: "blue", count: 100).joined(separator: " ")) }
    }

    @Test(arguments: [("bjork", "artist:Björk"), ("BJÖRK", "artist:Björk"), ("BEYONCE", "artist:Beyoncé"),
                      ("joga", "song:Jóga"), ("acdc", "artist:AC/DC"), ("ac dc", "artist:AC/DC"),
                      ("AC/DC", "artist:AC/DC"), ("dont know why", "song:Don't Know Why"),
                      ("ｂｊｏｒｋ", "artist:Björk")])
    func foldsCaseAccentsWidthAndPunctuation(_ text: String, _ first: String) throws {
        let hits = try sample().search(text)
        #expect(names(hits).first == first)
        #expect(hits.first?.tier == .exact)
    }

    @Test func tiersThenNameMatchesThenShorterNames() throws {
        #expect(names(try sample().search("miles")) == [
            // Name prefixes, shorter first; same length: album before song.
            "album:Milestones", "song:Milestones", "artist:Miles Davis",
            // Word prefixes in other fields only: albums before songs, then shorter names first.
            "album:Kind of Blue", "song:So What", "song:Blue in Green",
        ])
        // The artist whose name matched outranks the songs that only list him, in the same tier.
        let davis = try sample().search("davis")
        #expect(names(davis).first == "artist:Miles Davis")
        #expect(davis.first?.tier == .wordPrefix && davis.first?.isNameMatch == true)
        #expect(davis.dropFirst().allSatisfy { !$0.isNameMatch })
    }

    @Test func exactBeforePrefixBeforeWordsBeforeSubstring() throws {
        let hits = try sample().search("blue train")
        #expect(names(hits) == ["album:Blue Train", "song:Blue Train"])
        #expect(hits.map(\.tier) == [.exact, .exact])
        let kind = try sample().search("kind of blue")
        #expect(names(kind) == ["album:Kind of Blue", "song:So What", "song:Blue in Green"])
        #expect(kind.map(\.tier) == [.exact, .wordPrefix, .wordPrefix])
        let inside = try sample().search("oltra")
        #expect(names(inside) == ["artist:John Coltrane", "album:Blue Train", "song:Blue Train"])
        #expect(inside.map(\.tier) == [.substring, .substring, .substring])
        #expect(inside.map(\.isNameMatch) == [true, false, false])
    }

    @Test func everyWordMustMatch() throws {
        let hits = try sample().search("blue miles")
        #expect(Set(names(hits)) == ["song:So What", "song:Blue in Green", "album:Kind of Blue"])
        #expect(try sample().search("blue nobody").isEmpty)
        // Words may match in different fields; the hit says which.
        let green = try #require(hits.first { $0.name == "Blue in Green" })
        #expect(green.matches == [.init(field: .name, text: "Blue in Green"), .init(field: .artist, text: "Miles Davis"),
                                  .init(field: .album, text: "Kind of Blue")])
    }

    @Test func albumsAndArtistsCarryWhatLsShows() throws {
        var files = [
            facts("/m/a2.flac", title: "Two", artists: ["björk"], album: "homogenic"),
            facts("/m/a1.flac", title: "One", artists: ["Björk"], album: "Homogenic"),
            facts("/m/b.flac", title: "Other", artists: ["Björk", "Thom Yorke"], album: "Vespertine"),
        ]
        files[0].track = 2
        files[1].track = 1
        let hits = try library(files).search("bjork")
        // `ls --artists` shows the least spelling; `ls -a` the first song's, by track.
        #expect(hits.first?.subject == .artist(key: "bjork", name: "Björk", albums: 2, songs: 3))
        let homogenic = try library(files).search("homogenic")
        #expect(homogenic.first?.subject == .album(AlbumKey(artist: "bjork", title: "homogenic"),
                                                   title: "Homogenic", artist: "Björk", songs: 2))
    }

    @Test func takesTaglistsAndPlaylists() throws {
        let items = [SearchItem(kind: .playlist, id: "p1", name: "Blue Monday"),
                     SearchItem(kind: .taglist, id: "t1", name: "Blue Mood"),
                     SearchItem(kind: .taglist, id: "t2", name: "Red")]
        let hits = try sample().search("blue", items: items)
        #expect(names(hits) == ["taglist:Blue Mood", "album:Blue Train", "song:Blue Train",
                                "playlist:Blue Monday", "song:Blue in Green", "album:Kind of Blue", "song:So What"])
        #expect(hits[0].subject == .taglist(id: "t1", name: "Blue Mood"))
        #expect(hits[3].subject == .playlist(id: "p1", name: "Blue Monday"))
    }

    @Test func limitKeepsTheBest() throws {
        let all = try sample().search("blue")
        for n in 0...all.count + 1 { #expect(try sample().search("blue", limit: n) == Array(all.prefix(n))) }
        #expect(try sample().search("blue", limit: -3).isEmpty)
    }

    @Test func sameLibraryInAnyOrderGivesTheSameList() throws {
        let a = sample()
        let b = DataBasis(songs: a.songs.values.sorted { $0.id > $1.id })
        for text in ["blue", "miles", "o", "e"] {
            #expect(try a.search(text) == b.search(text))
            #expect(try a.search(text) == a.search(text))
        }
    }

    @Test func untitledSongsGoByFileName() throws {
        let hits = try library([facts("/m/Some Demo.mp3", artists: ["X"])]).search("demo")
        #expect(names(hits) == ["song:Some Demo"])
    }
}
