@testable import BoomicMPD
import BoomicCore
import BoomicTestSupport
import Testing

/// `search any WORD`'s byte search gives exactly what the query matcher gives, song for song,
/// on text that is ASCII or not, with several artists, missing fields and CRs.
@Suite struct AnyFieldTextTests {
    static func library() -> DataBasis {
        var ids = SplitMix64(seed: 11)
        func song(_ path: String, _ edit: (inout Song) -> Void = { _ in }) -> Song {
            var s = Song(id: SongID(ids.uuid()), path: path)
            edit(&s)
            return s
        }
        return DataBasis(songs: [
            song("/music/Jazz/So What.flac") { $0.title = "So What"; $0.artists = ["Miles Davis", "John Coltrane"]; $0.album = "Kind of Blue"; $0.genre = "Jazz" },
            song("/music/Rock/Ace.flac") { $0.title = "Ace of Spades"; $0.artists = ["Motörhead"]; $0.album = "Ace" },
            song("/music/Folk/Björk.mp3") { $0.title = "Jóga"; $0.artists = ["Björk"] },
            song("/music/CR/line.mp3") { $0.title = "one\r\ntwo"; $0.composer = "Carriage" },
            song("/music/Bare/untitled.mp3"),
            song("/music/Comp/x.flac") { $0.title = "Mixed"; $0.artistCredit = "Various feat. Someone"; $0.albumartist = "VA"; $0.composer = "SOMEONE Else" },
            song("/elsewhere/outside.flac") { $0.title = "So What (outside)" },
            song("/music/Gone/missing.flac") { $0.title = "So What (missing)"; $0.missing = true },
            song("/music/Classical/fifth.flac") {
                $0.title = "Allegro"; $0.year = 1808; $0.track = 7; $0.performer = "Wiener Phil; Kleiber"; $0.work = "Symphony No. 5"
                $0.movementNumber = 3; $0.label = "DG"; $0.mbTrackID = "abc-123"; $0.comment = "Live"; $0.composerSort = "Beethoven, L"
            },
            song("/music/Dated/day.flac") { $0.title = "Day"; $0.year = 1959; $0.date = "1959-08-17"; $0.disc = 2 },
        ])
    }

    @Test(arguments: ["so what", "SO WHAT", "davis; john", "s; j", "blue", "jazz/so", "music", ".flac", "ace",
                      "o", "björk", "bjork", "jóga", "joga", "two", "\r", "someone", "feat", "va", "zzz", "/", "; ",
                      "1808", "1959-08", "7", "3", "2", "kleiber", "l; k", "symphony", "dg", "abc-1", "live", "beethoven"])
    func theByteSearchIsTheMatchersAnswer(word: String) {
        let basis = Self.library()
        let tree = MusicTree(folders: ["/music"], songs: basis.songs.values)
        let filter = MPDFilter.tag(nil, .init(word, .anywhere))
        let matcher = QueryMatcher(try! filter.query(foldCase: true, absolutePath: tree.path(for:)))
        let expected = Set(basis.songs.values.filter { tree.contains($0) && matcher.matches($0) }.map(\.id))
        guard let needle = filter.anyFieldNeedle(foldCase: true) else {
            // Not ASCII: the general path answers; nothing to compare.
            #expect(!word.utf8.allSatisfy { $0 < 0x80 } || word.contains("\r"))
            return
        }
        let text = AnyFieldText(basis: basis, inTree: tree.membership())
        let got = Set(text.songs(containing: needle) + text.others.filter { basis[$0].map(matcher.matches) ?? false })
        #expect(got == expected, "\(word)")
    }

    /// MPD's `any` is every tag's values and not the file name (which `file` and `base` test):
    /// a word only a path holds finds nothing, a year, a performer, a work or an id finds its song.
    @Test func anyIsTheTagsNotThePath() throws {
        let basis = Self.library()
        let tree = MusicTree(folders: ["/music"], songs: basis.songs.values)
        func found(_ word: String) throws -> Set<String> {
            let matcher = QueryMatcher(try MPDFilter.tag(nil, .init(word, .anywhere)).query(foldCase: true, absolutePath: tree.path(for:)))
            return Set(basis.songs.values.filter { tree.contains($0) && matcher.matches($0) }.compactMap(\.title))
        }
        #expect(try found("untitled").isEmpty && found("classical").isEmpty)
        #expect(try found("1808") == ["Allegro"] && found("kleiber") == ["Allegro"] && found("symphony") == ["Allegro"])
        #expect(try found("abc-123") == ["Allegro"] && found("1959") == ["Day"])
    }
}
