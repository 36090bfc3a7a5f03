import BoomicCore
import BoomicMPD
import BoomicTestSupport
import Foundation
import Testing

/// MPD's filters, both grammars, and what they select through the library's query evaluator.
@Suite struct MPDFilterTests {
    typealias Test = MPDFilter.StringTest

    static func parse(_ args: String..., substrings: Bool = false) throws -> MPDFilter {
        try MPDFilter.parse(args[...], substrings: substrings)
    }

    @Test func expressions() throws {
        #expect(try Self.parse("(artist == 'Miles Davis')") == .tag(.artist, Test("Miles Davis")))
        #expect(try Self.parse(#"(ALBUM contains "Blue")"#) == .tag(.album, Test("Blue", .anywhere)))
        #expect(try Self.parse("(title starts_with_ci 'so')") == .tag(.title, Test("so", .prefix, foldCase: true)))
        #expect(try Self.parse("(any !contains 'x')") == .tag(nil, Test("x", .anywhere, negated: true)))
        #expect(try Self.parse("(genre =~ '^Jazz$')") == .tag(.genre, Test("^Jazz$", .regex)))
        #expect(try Self.parse("(date != '')") == .tag(.date, Test("", negated: true)))
        #expect(try Self.parse("(!(artist == 'x'))") == .not(.tag(.artist, Test("x"))))
        #expect(try Self.parse("((artist == 'a') AND (album == 'b') AND (base 'Jazz'))")
                == .and([.tag(.artist, Test("a")), .tag(.album, Test("b")), .base("Jazz")]))
        #expect(try Self.parse("((artist == 'a'))") == .tag(.artist, Test("a")))
        #expect(try Self.parse("(file == 'Jazz/a.flac')") == .file(Test("Jazz/a.flac")))
        #expect(try Self.parse("(modified-since '1700000000')") == .modifiedSince(1_700_000_000))
        #expect(try Self.parse("(added-since '2026-11-01T00:00:00Z')") == .addedSince(1_793_491_200))
        #expect(try Self.parse("(AudioFormat =~ '44100:*:2')") == .audioFormat("44100:*:2", mask: true))
        #expect(try Self.parse("(prio >= 42)") == .priority(atLeast: 42))
    }

    @Test func tagValuePairs() throws {
        #expect(try Self.parse("artist", "Miles") == .tag(.artist, Test("Miles")))
        #expect(try Self.parse("Artist", "Miles", substrings: true) == .tag(.artist, Test("Miles", .anywhere)))
        #expect(try Self.parse("any", "blue", "base", "Jazz")
                == .and([.tag(nil, Test("blue")), .base("Jazz")]))
        #expect(try Self.parse("modified-since", "2026-01-01") == .modifiedSince(1_767_225_600))
    }

    @Test(arguments: [
        ["(artist == 'a'"], ["(artist = 'a')"], ["(nosuchtag == 'a')"], ["((artist == 'a') OR (album == 'b'))"],
        ["(artist == 'a') x"], ["(artist == a)"], ["(!artist == 'a')"], ["(prio >= x)"], ["artist"],
        ["nosuchtag", "x"], ["(modified-since 'yesterday')"], [],
    ])
    func badFiltersAreArgumentErrors(args: [String]) {
        #expect { try MPDFilter.parse(args[...], substrings: false) } throws: { ($0 as? MPDError)?.code == .argument }
    }

    // MARK: what they select

    static let songs: [Song] = {
        var ids = SplitMix64(seed: 11)
        func song(_ path: String, _ fill: (inout Song) -> Void) -> Song {
            var s = Song(id: SongID(ids.uuid()), path: "/music/" + path)
            fill(&s)
            return s
        }
        return [
            song("Jazz/So What.flac") { $0.title = "So What"; $0.artists = ["Miles Davis"]; $0.album = "Kind of Blue"; $0.albumartist = "Miles Davis"; $0.samplerate = 44_100; $0.bitdepth = 16; $0.channels = 2 },
            song("Jazz/Blue in Green.flac") { $0.title = "Blue in Green"; $0.artists = ["Miles Davis", "Bill Evans"]; $0.album = "Kind of Blue"; $0.samplerate = 96_000; $0.bitdepth = 24; $0.channels = 2 },
            song("Rock/Björk.mp3") { $0.title = "Jóga"; $0.artists = ["Björk"]; $0.album = "Homogenic"; $0.samplerate = 44_100; $0.channels = 2 },
        ]
    }()

    static func titles(_ filter: String, search: Bool = false) throws -> [String] {
        let query = try MPDFilter.parse([filter], substrings: search).query(foldCase: search) { rel in
            rel.hasPrefix("/") || rel.contains("..") ? nil : rel.isEmpty ? "/music" : "/music/" + rel
        }
        let matcher = QueryMatcher(query)
        return songs.filter(matcher.matches).compactMap(\.title)
    }

    @Test func theyFindWhatMPDWouldFind() throws {
        #expect(try Self.titles("(artist == 'Miles Davis')") == ["So What", "Blue in Green"])
        #expect(try Self.titles("(artist == 'miles davis')") == [])                   // find: case counts
        #expect(try Self.titles("(artist == 'miles davis')", search: true) == ["So What", "Blue in Green"])
        #expect(try Self.titles("(artist eq_ci 'MILES DAVIS')") == ["So What", "Blue in Green"])
        #expect(try Self.titles("(artist contains 'Evans')") == ["Blue in Green"])
        #expect(try Self.titles("(artist contains 'evans')") == [])
        // search folds case, not accents, as Debian's MPD 0.23 (with ICU) does.
        #expect(try Self.titles("(artist contains 'BJÖRK')", search: true) == ["Jóga"])
        #expect(try Self.titles("(artist contains 'bjork')", search: true) == [])
        #expect(try Self.titles("(artist contains 'ö')", search: true) == ["Jóga"])
        #expect(try Self.titles("(title contains '')", search: true) == ["So What", "Blue in Green", "Jóga"])
        #expect(try Self.titles("(composer contains '')", search: true) == ["So What", "Blue in Green", "Jóga"])
        #expect(try Self.titles("(title starts_with 'Blue')") == ["Blue in Green"])
        #expect(try Self.titles("(title =~ '^So.*')") == ["So What"])
        // AlbumArtist falls back to Artist when a song has none.
        #expect(try Self.titles("(albumartist == 'Miles Davis')") == ["So What", "Blue in Green"])
        #expect(try Self.titles("(albumartist == 'Björk')") == ["Jóga"])
        // Empty only where the fallback is empty too (checked against MPD 0.23.12).
        #expect(try Self.titles("(albumartist == '')") == [])
        #expect(try Self.titles("(albumartist != '')") == ["So What", "Blue in Green", "Jóga"])
        // Sort tags Boomic does not keep read as MPD falls back: ArtistSort as Artist.
        #expect(try Self.titles("(artistsort == 'Björk')") == ["Jóga"])
        #expect(try Self.titles("(albumsort == 'Homogenic')") == ["Jóga"])
        #expect(try Self.titles("(!(album == 'Kind of Blue'))") == ["Jóga"])
        #expect(try Self.titles("(album != 'Kind of Blue')") == ["Jóga"])
        #expect(try Self.titles("((album == 'Kind of Blue') AND (title contains 'Green'))") == ["Blue in Green"])
        #expect(try Self.titles("(base 'Jazz')") == ["So What", "Blue in Green"])
        #expect(try Self.titles("(base '../etc')") == [])
        #expect(try Self.titles("(file == 'Rock/Björk.mp3')") == ["Jóga"])
        #expect(try Self.titles("(AudioFormat == '96000:24:2')") == ["Blue in Green"])
        #expect(try Self.titles("(AudioFormat =~ '44100:*:*')") == ["So What", "Jóga"])
        #expect(try Self.titles("(any contains 'green')", search: true) == ["Blue in Green"])
        // An empty pattern matches every song, with the tag or without; a bad one is an error.
        #expect(try Self.titles("(album =~ '')") == ["So What", "Blue in Green", "Jóga"])
        #expect(try Self.titles("(! (album == 'Homogenic'))") == ["So What", "Blue in Green"])
        #expect { try Self.titles("(artist =~ '[')") } throws: { ($0 as? MPDError)?.message.hasPrefix("Error in regex") == true }
    }
}
