import BoomicTestSupport
import Testing
@testable import BoomicCore

/// What Boomic guesses from where a file lies: the name readers, then the generation's laws on
/// many random layouts (a tag in the file always wins; guessing twice guesses nothing; the
/// user's value is never guessed over; a rescan keeps a guess until the file holds the tag).
@Suite("Guess generation")
struct GuessGenerationTests {
    @Test("disc folder names", arguments: [
        ("CD1", 1), ("cd 2", 2), ("Disc 2", 2), ("DISK2", 2), ("disc-3", 3), ("Disc_4", 4), ("Disc.5", 5),
        ("CD2 - Bonus", 2), ("Disc 1: Live", 1), ("cd 12 (Remixes)", 12), ("CD01", 1),
    ])
    func discFolders(name: String, disc: Int) {
        #expect(NameGuess.discNumber(folderName: name) == disc)
    }

    @Test("names that are not disc folders", arguments: [
        "Discography", "CDs", "Disco 2", "CD", "Disc", "CD2x", "CD 0", "CD 1000", "Album", "1 CD", "My CD2",
    ])
    func notDiscFolders(name: String) {
        #expect(NameGuess.discNumber(folderName: name) == nil)
    }

    @Test("album titles with a disc suffix", arguments: [
        ("Foo (CD1)", "Foo", 1), ("Foo [Disc 2]", "Foo", 2), ("Foo - CD 2", "Foo", 2), ("Foo Disc 1", "Foo", 1),
        ("Foo, disk 3", "Foo", 3), ("Foo (cd 2) ", "Foo", 2), ("Best Of (Live) (CD2)", "Best Of (Live)", 2),
    ])
    func albumSuffixes(album: String, stripped: String, disc: Int) {
        let got = NameGuess.albumWithoutDisc(album)
        #expect(got?.album == stripped)
        #expect(got?.disc == disc)
    }

    @Test("album titles without one", arguments: [
        "Foo", "Disc 1", "(CD1)", "Foo (Live)", "Foo CD2x", "Foo (CD1 Bonus)", "Discotheque", "Foo Discs 2",
    ])
    func noAlbumSuffix(album: String) {
        #expect(NameGuess.albumWithoutDisc(album) == nil)
    }

    @Test func albumFolders() {
        #expect(NameGuess.albumFolder("Album (1999)") == ("Album", 1999))
        #expect(NameGuess.albumFolder("Album [2003]") == ("Album", 2003))
        #expect(NameGuess.albumFolder("Album (Live)") == ("Album (Live)", nil))
        #expect(NameGuess.albumFolder("(1999)") == ("(1999)", nil))
        #expect(NameGuess.albumFolder("Album (99)") == ("Album (99)", nil))
    }

    typealias F = NameGuess.NameFields

    @Test("file names: one pattern per folder, as beets' fromfilename")
    func fileNames() {
        // NN - Title: `Artist - Title` fits every name but both parts vary, so it gives
        // nothing, and `NN Title` reads them; 311 is a track there.
        #expect(NameGuess.fromFileNames(["01 - Foo", "02 - Bar", "311 - Amber"])
            == [F(track: 1, title: "Foo"), F(track: 2, title: "Bar"), F(track: 311, title: "Amber")])
        // Artist - Title: the equal part is the artist.
        #expect(NameGuess.fromFileNames(["311 - Amber", "311 - Down"])
            == [F(artist: "311", title: "Amber"), F(artist: "311", title: "Down")])
        #expect(NameGuess.fromFileNames(["Amber - 311", "Down - 311"])
            == [F(artist: "311", title: "Amber"), F(artist: "311", title: "Down")])
        // Alone, a number before the dash is a track (beets would take it for the artist).
        #expect(NameGuess.fromFileNames(["03 - Third Song"]) == [F(track: 3, title: "Third Song")])
        #expect(NameGuess.fromFileNames(["Band - Song"]) == [F(artist: "Band", title: "Song")])
        #expect(NameGuess.fromFileNames(["03. Third Song", "04. Fourth"])
            == [F(track: 3, title: "Third Song"), F(track: 4, title: "Fourth")])
        #expect(NameGuess.fromFileNames(["03 Third Song", "04 Fourth"])
            == [F(track: 3, title: "Third Song"), F(track: 4, title: "Fourth")])
        #expect(NameGuess.fromFileNames(["1-03 Third", "2-01 First"])
            == [F(disc: 1, track: 3, title: "Third"), F(disc: 2, track: 1, title: "First")])
        #expect(NameGuess.fromFileNames(["01 - Band - Song", "02 - Band - Other"])
            == [F(track: 1, artist: "Band", title: "Song"), F(track: 2, artist: "Band", title: "Other")])
        #expect(NameGuess.fromFileNames(["Song by Band", "Other by Band"])
            == [F(artist: "Band", title: "Song"), F(artist: "Band", title: "Other")])
        // Track only; the whole name is no title (beets' last pattern is left out).
        #expect(NameGuess.fromFileNames(["track 5", "track 6"]) == [F(track: 5), F(track: 6)])
        #expect(NameGuess.fromFileNames(["Intro", "03 - Song"]) == [F(), F()])
        #expect(NameGuess.fromFileNames(["no tags at all", "no tags at all"]) == [F(), F()])
        #expect(NameGuess.fromFileNames([]) == [])
    }

    // MARK: The generation on examples

    static let root = "/m"

    func basis(_ files: [FileFacts]) -> DataBasis { library(files) }

    func guessed(_ b: DataBasis, roots: [String] = [root]) -> DataBasis {
        b.applying(GuessGeneration.guesses(basis: b, songs: Array(b.songs.keys), musicFolders: roots).assertions)
    }

    func song(_ b: DataBasis, _ path: String) -> Song { b.songs.values.first { $0.path == path }! }

    @Test func discFoldersGiveDiscAndTotal() {
        var files = [
            facts("/m/A/Foo/CD1/01.flac", title: "One", artists: ["A"], album: "Foo"),
            facts("/m/A/Foo/CD2 - Bonus/01.flac", title: "Two", artists: ["A"], album: "Foo"),
            facts("/m/A/Foo/Disc 3/01.flac", title: "Three", artists: ["A"], album: "Foo"),
        ]
        files[0].track = 1
        files[1].track = 1
        files[2].track = 1
        files[2].disc = 7 // a tag in the file wins
        let b = guessed(basis(files))
        let one = song(b, "/m/A/Foo/CD1/01.flac"), two = song(b, "/m/A/Foo/CD2 - Bonus/01.flac")
        let three = song(b, "/m/A/Foo/Disc 3/01.flac")
        #expect(one.disc == 1 && one.disctotal == 3 && one.guessed == ["disc", "disctotal"])
        #expect(two.disc == 2 && two.disctotal == 3)
        #expect(three.disc == 7 && three.disctotal == 3 && three.guessed == ["disctotal"])
        #expect(b.albums.count == 1)
    }

    /// A disc folder that appears later raises the guessed total of the discs already there,
    /// though only the new song was imported.
    @Test func aNewDiscFolderRaisesTheGuessedTotal() {
        var one = facts("/m/A/Foo/CD1/01.flac", title: "One", artists: ["A"], album: "Foo")
        one.track = 1
        let first = guessed(basis([one]))
        #expect(song(first, "/m/A/Foo/CD1/01.flac").disctotal == 1)
        var two = facts("/m/A/Foo/CD2/01.flac", title: "Two", artists: ["A"], album: "Foo")
        two.track = 1
        let added = first.applying([.addSong(two.song(id: songID(9), added: 2_000))])
        let after = added.applying(GuessGeneration.guesses(basis: added, songs: [songID(9)], musicFolders: [Self.root]).assertions)
        #expect(song(after, "/m/A/Foo/CD1/01.flac").disctotal == 2)
        #expect(song(after, "/m/A/Foo/CD2/01.flac").disc == 2 && song(after, "/m/A/Foo/CD2/01.flac").disctotal == 2)
    }

    /// `play --album` plays the discs as one album, disc then track.
    @Test func discFoldersPlayInDiscThenTrackOrder() {
        var files: [FileFacts] = []
        for (folder, track) in [("CD2", 1), ("CD1", 2), ("CD2", 2), ("CD1", 1)] {
            var f = facts("/m/A/Foo/\(folder)/0\(track).flac", title: "\(folder) \(track)", artists: ["A"], album: "Foo")
            f.track = track
            files.append(f)
        }
        let b = guessed(basis(files))
        let first = song(b, "/m/A/Foo/CD2/02.flac")
        #expect(Browse.wholeAlbums(of: [first], in: b).map { $0.title! } == ["CD1 1", "CD1 2", "CD2 1", "CD2 2"])
    }

    @Test func albumSuffixesBecomeOneAlbum() {
        let b = guessed(basis([
            facts("/m/A/Foo (CD1)/01.flac", title: "One", artists: ["A"], album: "Foo (CD1)"),
            facts("/m/A/Foo (CD2)/01.flac", title: "Two", artists: ["A"], album: "Foo [Disc 2]"),
        ]))
        #expect(b.albums.count == 1)
        let two = song(b, "/m/A/Foo (CD2)/01.flac")
        #expect(two.album == "Foo" && two.disc == 2 && two.guessed == ["album", "disc"])
        #expect(two.fileValueMap[.album] == .string("Foo [Disc 2]"))
    }

    @Test func untaggedRipTakesNamesAndFolders() {
        let b = guessed(basis([
            facts("/m/Artist/Album (1999)/01 - First Song.flac"),
            facts("/m/Artist/Album (1999)/02 - Second Song.flac"),
            facts("/m/Artist/Album (1999)/03 - Third Song.flac"),
        ]))
        let s = song(b, "/m/Artist/Album (1999)/03 - Third Song.flac")
        #expect(s.title == "Third Song" && s.track == 3 && s.album == "Album" && s.year == 1999 && s.albumartist == "Artist")
        #expect(s.guessed == ["album", "albumartist", "title", "track", "year"])
        // A music folder itself names nothing: a folder right in it is no `Artist/Album`.
        let top = guessed(basis([facts("/m/Album/01 - A.flac"), facts("/m/Album/02 - B.flac")]))
        #expect(song(top, "/m/Album/01 - A.flac").title == "A")
        #expect(song(top, "/m/Album/01 - A.flac").album == nil && song(top, "/m/Album/01 - A.flac").albumartist == nil)
        // Under a disc folder, the album is the folder above it.
        let discs = guessed(basis([facts("/m/X/Y (2001)/CD2/1-03 Song.flac")]))
        let d = song(discs, "/m/X/Y (2001)/CD2/1-03 Song.flac")
        #expect(d.album == "Y" && d.year == 2001 && d.albumartist == "X" && d.disc == 2 && d.track == 3)
    }

    @Test func aTaggedFileTakesNoFolderNames() {
        let b = guessed(basis([facts("/m/Artist/Album/01 - Song.flac", artists: ["Real"])]))
        let s = song(b, "/m/Artist/Album/01 - Song.flac")
        #expect(s.title == "Song" && s.track == 1 && s.album == nil && s.albumartist == nil && s.artists == ["Real"])
    }

    @Test func editingAGuessTakesItsMark() {
        let b = guessed(basis([facts("/m/A/B/01 - Song.flac"), facts("/m/A/B/02 - Other.flac")]))
        let id = song(b, "/m/A/B/01 - Song.flac").id
        let edited = b.applying(EditGeneration.modify(b, songs: [id], set: [FieldAssignment(field: .title, value: .string("Mine"))]))
        #expect(edited[id]!.guessed == ["album", "albumartist", "track"])
        // Guessing again leaves the user's value.
        #expect(GuessGeneration.guesses(basis: edited, songs: [id], musicFolders: [Self.root]).assertions.isEmpty)
    }

    // MARK: Laws on random layouts

    static let folderNames = ["CD1", "CD 2", "Disc 3", "disc-4", "CD2 - Bonus", "Album", "Album (1999)", "Foo [2004]",
                              "Bonus", "Artist", "311"]
    static let fileNames = ["01 - Song", "02 - Other", "311 - Amber", "03. Third", "04 Fourth", "1-05 Fifth",
                            "Band - Tune", "Tune by Band", "track 7", "Intro", "01 - Band - Song - live"]
    static let albums: [String?] = [nil, "Foo", "Foo (CD1)", "Foo [Disc 2]", "Foo - CD 2", "Foo Disc 1", "Bar"]

    func randomLibrary(_ rng: inout SplitMix64) -> DataBasis {
        var files: [FileFacts] = []
        for _ in 0..<Int.random(in: 1...14, using: &rng) {
            let depth = Int.random(in: 0...3, using: &rng)
            let folders = (0..<depth).map { _ in Self.folderNames.randomElement(using: &rng)! }
            let path = ([Self.root] + folders + [Self.fileNames.randomElement(using: &rng)! + ".flac"]).joined(separator: "/")
            guard !files.contains(where: { $0.path == path }) else { continue }
            var f = facts(path)
            if Bool.random(using: &rng) { f.title = "T" }
            if Bool.random(using: &rng) { f.artists = ["A"] }
            f.album = Self.albums.randomElement(using: &rng)!
            if Int.random(in: 0..<3, using: &rng) == 0 { f.track = Int.random(in: 1...20, using: &rng) }
            if Int.random(in: 0..<3, using: &rng) == 0 { f.disc = Int.random(in: 1...3, using: &rng) }
            if Int.random(in: 0..<4, using: &rng) == 0 { f.year = 1980 }
            files.append(f)
        }
        return library(files)
    }

    @Test func lawsOnRandomLayouts() {
        let guessable: Set<SongField> = [.title, .track, .artists, .album, .albumartist, .year, .disc, .disctotal]
        for seed in Seeds.list(200, from: 0x6E55) {
            var rng = SplitMix64(seed: seed)
            let before = randomLibrary(&rng)
            let (assertions, _) = GuessGeneration.guesses(basis: before, songs: Array(before.songs.keys), musicFolders: [Self.root])
            let after = before.applying(assertions)
            for (id, old) in before.songs {
                let new = after[id]!
                for f in SongField.allCases where f.value(in: old) != f.value(in: new) {
                    // Only guessable fields, each marked, and (but the album's disc suffix) only
                    // those the file lacks: a tag in the file always wins.
                    #expect(guessable.contains(f) || f == .fileValues || f == .guessed, "\(Seeds.replay(seed)): \(f) at \(old.path)")
                    if guessable.contains(f) {
                        #expect(new.guessed.contains(f.rawValue), "\(Seeds.replay(seed)): \(f) unmarked at \(old.path)")
                        #expect(FileView(old).lacks(f) || f == .album, "\(Seeds.replay(seed)): \(f) held by the file at \(old.path)")
                        #expect(new.fileValueMap[f] == f.value(in: old), "\(Seeds.replay(seed)): \(f)'s file value lost")
                    }
                }
                // Guessing again guesses nothing.
            }
            #expect(GuessGeneration.guesses(basis: after, songs: Array(after.songs.keys), musicFolders: [Self.root]).assertions.isEmpty,
                    "\(Seeds.replay(seed)): a second guess changed something")
            for (id, new) in after.songs {
                // A rescan of the unchanged file keeps every guess…
                var rescanned = new
                rescanned.merge(fileFacts: fileFacts(of: before[id]!))
                #expect(rescanned == new, "\(Seeds.replay(seed)): a rescan lost a guess at \(new.path)")
                // …and a file that gains a guessed tag wins, its mark gone.
                guard let field = new.guessed.first.flatMap(SongField.init(rawValue:)), field != .album else { continue }
                var tagged = fileFacts(of: before[id]!)
                switch field {
                case .title: tagged.title = "From the file"
                case .track: tagged.track = 42
                case .disc: tagged.disc = 9
                case .disctotal: tagged.disctotal = 9
                case .artists: tagged.artists = ["From the file"]
                case .albumartist: tagged.albumartist = "From the file"
                case .year: tagged.year = 1901
                default: continue
                }
                var gained = new
                gained.merge(fileFacts: tagged)
                #expect(!gained.guessed.contains(field.rawValue), "\(Seeds.replay(seed)): \(field) still marked")
                #expect(field.value(in: gained) != field.value(in: new), "\(Seeds.replay(seed)): \(field) kept the guess over the file")
            }
        }
    }

    /// What a scan of the song's file reads (the song before any edit or guess).
    func fileFacts(of s: Song) -> FileFacts {
        var f = facts(s.path, size: s.size, mtime: s.mtime, title: s.title, artists: s.artists, album: s.album,
                      albumartist: s.albumartist, year: s.year)
        f.track = s.track
        f.disc = s.disc
        f.disctotal = s.disctotal
        return f
    }
}
