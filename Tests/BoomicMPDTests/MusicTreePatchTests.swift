import BoomicCore
import BoomicMPD
import BoomicTestSupport
import Testing

/// The server's tree holds the songs themselves, and a commit that moves none patches their new
/// values in (`MusicTree.updating`) instead of building the tree anew. The law: on random
/// histories of edits, adds, removals, moves and songs going missing, a patch either gives up
/// (nil: the caller rebuilds) or gives exactly the tree a rebuild would, directory by
/// directory, song by song, field by field.
@Suite struct MusicTreePatchTests {
    static let folders = ["/music", "/more/Music"]
    static let directories = ["/music/A", "/music/A/Live", "/music/B", "/more/Music/C", "/music", "/elsewhere"]

    /// Every directory's songs and `Last-Modified`, as comparable values.
    struct Listing: Equatable {
        var songs: [Song]
        var modified: Int
        var paths: [String] { songs.map(\.path) }
    }

    static func listing(_ tree: MusicTree) -> [String: Listing] {
        var out: [String: Listing] = [:]
        tree.walk(from: "") { uri, dir in out[uri] = Listing(songs: dir.songs, modified: dir.modified) }
        return out
    }

    @Test(arguments: Seeds.list(40, from: 9_100))
    func aPatchIsARebuildOrGivesUp(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var songs: [SongID: Song] = [:]
        var n = 0
        func newSong() -> Song {
            n += 1
            var s = Song(id: SongID(rng.uuid()), path: rng.pick(Self.directories) + "/\(n) \(rng.pick(["x", "Y", "é"])).flac")
            s.title = "t\(n)"
            s.mtime = Int(rng.next() % 1_000) * 1_000_000_000
            return s
        }
        for _ in 0..<30 { let s = newSong(); songs[s.id] = s }
        var tree = MusicTree(folders: Self.folders, songs: songs.values)
        var patched = 0, gaveUp = 0
        for step in 0..<25 {
            var changed: [Song] = []
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                guard var s = songs.values.randomElement(using: &rng) else { break }
                switch rng.next() % 10 {
                case 0:  // added
                    s = newSong()
                    songs[s.id] = s
                case 1:  // removed from the library: the caller passes it on as missing
                    songs[s.id] = nil
                    s.missing = true
                case 2:  // moved
                    s.path = rng.pick(Self.directories) + "/moved \(step).flac"
                    songs[s.id] = s
                case 3:  // gone missing, or found again
                    s.missing.toggle()
                    songs[s.id] = s
                case 4:  // written back: a new modification time
                    s.mtime += 1_000_000_000
                    songs[s.id] = s
                default:  // tags edited
                    s.title = "edit \(step)"
                    s.artists = [rng.pick(["p", "q\nr"])]
                    s.track = Int(rng.next() % 20)
                    songs[s.id] = s
                }
                changed.append(s)
            }
            let rebuilt = MusicTree(folders: Self.folders, songs: songs.values)
            if let next = tree.updating(changed) {
                let got = Self.listing(next), want = Self.listing(rebuilt)
                let wrong = Set(got.keys).union(want.keys).filter { got[$0] != want[$0] }.sorted()
                #expect(wrong.isEmpty, """
                    step \(step), \(Seeds.replay(seed)): directories differ from a rebuild: \(wrong.map { dir in
                        "\(dir): \(got[dir]?.paths ?? []) (\(got[dir]?.modified ?? -1)) against \(want[dir]?.paths ?? []) (\(want[dir]?.modified ?? -1))" })
                    """)
                patched += 1
            } else {
                gaveUp += 1
            }
            tree = rebuilt
        }
        #expect(patched > 0 && gaveUp > 0, "both cases met: \(patched) patched, \(gaveUp) rebuilt, \(Seeds.replay(seed))")
    }

    @Test func anEditIsPatchedInAndAMoveGivesUp() {
        var rng = SplitMix64(seed: 5)
        var a = Song(id: SongID(rng.uuid()), path: "/music/A/1.flac")
        let b = Song(id: SongID(rng.uuid()), path: "/music/A/2.flac")
        let tree = MusicTree(folders: ["/music"], songs: [a, b])
        a.title = "new"
        let next = tree.updating([a])
        #expect(next?.directory("A")?.songs.map(\.title) == ["new", nil])
        #expect(tree.directory("A")?.songs.map(\.title) == [nil, nil], "the old tree is untouched")
        var moved = a
        moved.path = "/music/B/1.flac"
        #expect(tree.updating([moved]) == nil)
        var gone = b
        gone.missing = true
        #expect(tree.updating([gone]) == nil)
        let added = Song(id: SongID(rng.uuid()), path: "/music/A/3.flac")
        #expect(tree.updating([added]) == nil)
        var outside = Song(id: SongID(rng.uuid()), path: "/elsewhere/x.flac")
        let withOutside = MusicTree(folders: ["/music"], songs: [a, b, outside])
        outside.title = "still outside"
        #expect(withOutside.updating([outside]) != nil, "a song outside every folder is not in the tree either way")
    }
}
