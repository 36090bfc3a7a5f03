import BoomicCore
import BoomicMPD
import BoomicTestSupport
import Testing

/// The library as a tree of client paths: one folder is the root; several are top-level
/// directories with unique names; a client's path never leaves the tree.
@Suite struct MusicTreeTests {
    static func songs(_ paths: [String]) -> [Song] {
        var ids = SplitMix64(seed: 3)
        return paths.map { Song(id: SongID(ids.uuid()), path: $0) }
    }

    @Test func oneFolderIsTheRoot() {
        let songs = Self.songs(["/music/Jazz/b.flac", "/music/Jazz/a.flac", "/music/top.mp3", "/elsewhere/x.mp3"])
        let tree = MusicTree(folders: ["/music/"], songs: songs)
        #expect(tree.directory("")?.directories == ["Jazz"])
        #expect(tree.directory("")?.songs.map(\.path) == ["/music/top.mp3"])
        #expect(tree.directory("Jazz")?.songs.map(\.path) == ["/music/Jazz/a.flac", "/music/Jazz/b.flac"])
        #expect(tree.uri(for: "/music/Jazz/a.flac") == "Jazz/a.flac")
        #expect(tree.uri(for: "/elsewhere/x.mp3") == nil)
        #expect(tree.path(for: "Jazz/a.flac") == "/music/Jazz/a.flac")
        #expect(tree.path(for: "") == "/music")
        for hostile in ["../etc/passwd", "/etc/passwd", "Jazz/../../etc", "./Jazz", "Jazz//a.flac", "Jazz/", "/"] {
            #expect(tree.path(for: hostile) == nil, "\(hostile)")
        }
        #expect(tree.directory("Nope") == nil)
        // MPD refuses a folder with a trailing `/`; so does the tree.
        #expect(tree.directory("Jazz/") == nil)
    }

    /// Two folders whose names differ only in Unicode form (a copy from macOS beside a Linux
    /// rip) are two folders, each with its own songs, as on disk and in MPD.
    @Test func foldersDifferingInUnicodeFormStayApart() {
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        let songs = Self.songs(["/music/\(composed)/a.flac", "/music/\(decomposed)/b.flac"])
        let tree = MusicTree(folders: ["/music"], songs: songs)
        // One order or the other (ICU collates them as equal); bytes decide here.
        #expect(tree.directory("")?.directories.map { Array($0.utf8) } == [Array(decomposed.utf8), Array(composed.utf8)])
        #expect(tree.directory(composed)?.songs.map(\.path) == ["/music/\(composed)/a.flac"])
        #expect(tree.directory(decomposed)?.songs.map(\.path) == ["/music/\(decomposed)/b.flac"])
    }

    /// Folders are listed as MPD (with ICU) lists them: ICU's root collation, then by bytes.
    @Test func foldersAreListedCaseAside() {
        let names = ["Zed", "iTunes", "foobar", "Odd", "Ärger", "abba", "Abba", "Édith", "Eagles", "日本"]
        let tree = MusicTree(folders: ["/music"], songs: Self.songs(names.map { "/music/\($0)/a.flac" }))
        #expect(tree.directory("")?.directories == ["abba", "Abba", "Ärger", "Eagles", "Édith", "foobar", "iTunes", "Odd", "Zed", "日本"])
        // As MPD 0.23.12 listed them side by side: lower case first, punctuation before digits.
        let more = ["ABC", "Abc", "abc", "~tilde", "#hash", "[brack]", "_under", "10num", "1num", "ab", "a-b", "a_b", "a b"]
        let sorted = MusicTree(folders: ["/music"], songs: Self.songs(more.map { "/music/\($0)/a.flac" }))
        #expect(sorted.directory("")?.directories == ["_under", "[brack]", "#hash", "~tilde", "10num", "1num", "a b", "a_b", "a-b", "ab", "abc", "Abc", "ABC"])
    }

    /// A folder's `Last-Modified` is its newest song's, in it or under it.
    @Test func aFolderIsAsNewAsItsNewestSong() {
        var songs = Self.songs(["/music/A/x.flac", "/music/A/Live/y.flac", "/music/A/Live/z.flac", "/music/B/w.flac"])
        for (i, seconds) in [100, 300, 200, 50].enumerated() { songs[i].mtime = seconds * 1_000_000_000 + 999 }
        let tree = MusicTree(folders: ["/music"], songs: songs)
        #expect(tree.directory("A/Live")?.modified == 300)
        #expect(tree.directory("A")?.modified == 300, "a subfolder's newer song counts")
        #expect(tree.directory("B")?.modified == 50)
        #expect(tree.directory("")?.modified == 300)
    }

    @Test func severalFoldersAreTopLevelDirectoriesWithUniqueNames() {
        let tree = MusicTree(folders: ["/a/Music", "/b/Music", "/c/Podcasts"],
                             songs: Self.songs(["/a/Music/x.flac", "/b/Music/y.flac", "/c/Podcasts/Show/1.mp3"]))
        #expect(tree.directory("")?.directories == ["Music", "Music (2)", "Podcasts"])
        #expect(tree.uri(for: "/b/Music/y.flac") == "Music (2)/y.flac")
        #expect(tree.path(for: "Music (2)/y.flac") == "/b/Music/y.flac")
        #expect(tree.path(for: "Podcasts") == "/c/Podcasts")
        #expect(tree.path(for: "Nope/x.flac") == nil)
        var walked: [String] = []
        tree.walk(from: "") { dir, _ in walked.append(dir) }
        #expect(walked == ["", "Music", "Music (2)", "Podcasts", "Podcasts/Show"])
    }
}

@Suite struct MPDResponseTests {
    @Test func aSongAsMPDPrintsIt() {
        var ids = SplitMix64(seed: 5)
        var s = Song(id: SongID(ids.uuid()), path: "/music/Jazz/So What.flac")
        s.title = "So What"
        s.artists = ["Miles Davis", "John Coltrane"]
        s.album = "Kind of Blue"
        s.track = 1
        s.year = 1959
        s.comment = "line one\r\nline two\t"
        s.label = "Ctl\u{01}Label"
        s.samplerate = 44_100
        s.bitdepth = 16
        s.channels = 2
        s.duration = 545.4321
        s.mtime = 1_700_000_000_123_456_789
        var r = MPDResponse()
        r.add(song: s, uri: "Jazz/So What.flac", tags: { var t = MPDTagSet.all; t.subtract([.album]); return t }())
        #expect(r.text == """
        file: Jazz/So What.flac
        Last-Modified: 2023-11-14T22:13:20Z
        Format: 44100:16:2
        Artist: Miles Davis
        Artist: John Coltrane
        Title: So What
        Track: 1
        Date: 1959
        Comment: line one  line two\u{20}
        Label: Ctl Label
        Time: 545
        duration: 545.432

        """)
    }

    /// A song is written into room reserved from its values' lengths; a value joined from many
    /// short ones (`a; a; …`) prints far more bytes than it holds, a name per value. One joined
    /// field at a time (others' spare room would hide a short bound), with 2,000 values: the
    /// debug build's cursor checks each write against the room, and every line must be there.
    @Test(arguments: SongField.allCases.filter(\.joinsValues))
    func manyJoinedValuesFitTheRoomReserved(_ field: SongField) throws {
        var ids = SplitMix64(seed: 6)
        var s = Song(id: SongID(ids.uuid()), path: "/music/x.flac")
        field.set(.string(Array(repeating: "a", count: 2000).joined(separator: "; ")), in: &s)
        var r = MPDResponse()
        r.add(song: s, uri: "x.flac", tags: .all)
        let lines = r.text.split(separator: "\n")
        let tag = try #require(MPDTag.allCases.first { $0.field == field || (field == .artistCredit && $0 == .artist) })
        #expect(lines.filter { $0.hasPrefix(tag.rawValue + ": ") }.count == 2000, "\(field.name)")
    }
}
