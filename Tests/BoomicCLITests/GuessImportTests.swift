import BoomicTestSupport
import Foundation
import Testing

/// What an import guesses from where files lie (DESIGN §1, Documentation/import.md), on real
/// files made here: an untagged rip named `NN - Title` in `Artist/Album (1999)/`, and a two-disc
/// album in `CD1/`, `CD2/` without disc tags, its `cover.jpg` in the album folder above. The
/// guesses are a transaction of their own after the import's.
@Suite struct GuessImportTests {
    static let rip = "Artist/Album (1999)"
    static let double = "Band/Double (2001)"

    /// A FLAC of a tone (its own frequency, so its own fingerprint) with no tags at all, then
    /// the `tags` given (`TITLE=…`).
    static func flac(_ path: String, frequency: Int, tags: [String] = []) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = try toolOutput(["sox", "-D", "-n", "-r", "44100", "-c", "2", "-b", "16", path, "synth", "0.5", "sine", String(frequency)])
        _ = try toolOutput(["metaflac", "--remove-all-tags"] + tags.map { "--set-tag=\($0)" } + [path])
    }

    static func untaggedRip(in box: Sandbox) throws {
        for (n, title) in [(1, "First Song"), (2, "Second Song"), (3, "Third Song")] {
            try flac(box.file("\(rip)/0\(n) - \(title).flac"), frequency: 300 + n * 10)
        }
    }

    /// Two disc folders, their files without disc tags and with album tags that differ only by
    /// a disc suffix, and the cover above them.
    static func twoDiscs(in box: Sandbox) throws {
        for (disc, track) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
            try flac(box.file("\(double)/CD\(disc)\(disc == 2 ? " - Bonus" : "")/0\(track).flac"), frequency: 500 + disc * 50 + track,
                     tags: ["TITLE=Disc \(disc) Track \(track)", "ARTIST=Band", "ALBUM=\(disc == 1 ? "Double (CD1)" : "Double [Disc 2]")",
                            "TRACKNUMBER=\(track)"])
        }
        try FileManager.default.copyItem(atPath: Repo.samples + "/Дмитрий Соколов/Зимняя дорога/cover.jpg",
                                         toPath: box.file("\(double)/cover.jpg"))
    }

    struct Guessed: Decodable { var title: String?; var guessed: [String]? }

    static func first(_ box: Sandbox) -> String { "path:" + box.file("\(rip)/01 - First Song.flac") }
    static func second(_ box: Sandbox) -> String { "path:" + box.file("\(rip)/02 - Second Song.flac") }
    static func third(_ box: Sandbox) -> String { "path:" + box.file("\(rip)/03 - Third Song.flac") }

    @Test func anUntaggedRipTakesItsNamesAndUndoTakesBackTheGuessesAlone() throws {
        let box = try Sandbox(samples: false)
        try Self.untaggedRip(in: box)
        let imported = try box.succeed("import", box.music)
        #expect(imported.stdout.contains("Guessed from folder and file names: 3 songs"), "\(imported)")
        let third = try box.song(Self.third(box))
        #expect(third.title == "Third Song" && third.track == 3)
        #expect(third.album == "Album" && third.year == 1999 && third.albumartist == "Artist")
        // info marks each guessed value, and --json lists them.
        let info = try box.succeed("info", Self.third(box)).stdout
        #expect(info.contains("Third Song (guessed)"), "\(info)")
        let json = try decodeJSON([Guessed].self, try box.succeed("info", "--json", Self.third(box)).stdout)
        #expect(json.first?.guessed == ["album", "albumartist", "title", "track", "year"])
        let history = try box.history()
        #expect(history.prefix(2).map(\.kind) == ["guess", "import"], "\(history)")

        // Nothing new on disk: no transaction, no guess made again.
        try box.succeed("import")
        #expect(try box.history().count == history.count)

        // undo takes back the guesses alone; a rescan of the unchanged files guesses nothing again.
        try box.succeed("undo", "-y")
        #expect(try box.songs().count == 3)
        #expect(try box.song(Self.third(box)).title == nil)
        try box.succeed("import")
        #expect(try box.song(Self.third(box)).title == nil, "a guess the user undid came back")
        try box.succeed("undo", "-y")
        #expect(try box.songs().isEmpty, "the second undo takes back the import")
    }

    @Test func aCorrectionSurvivesARescanAndATagInTheFileWins() throws {
        let box = try Sandbox(samples: false)
        try Self.untaggedRip(in: box)
        try box.succeed("import", box.music)
        try box.succeed("modify", Self.third(box), "title=Drittes Lied", "-y")
        #expect(try decodeJSON([Guessed].self, try box.succeed("info", "--json", Self.third(box)).stdout).first?.guessed
            == ["album", "albumartist", "track", "year"])
        // The file changes (another tag), still without a title: the correction stays, and
        // the guesses the file still lacks stay too.
        try box.retag("\(Self.rip)/03 - Third Song.flac", ["genre": "Rock"])
        try box.retag("\(Self.rip)/02 - Second Song.flac", ["title": "Zweites aus der Datei"])
        try box.succeed("import")
        let third = try box.song(Self.third(box))
        #expect(third.title == "Drittes Lied" && third.genre == "Rock" && third.track == 3 && third.album == "Album")
        // A file that gains the tag wins over the guess, and its mark goes.
        let second = try box.song(Self.second(box))
        #expect(second.title == "Zweites aus der Datei")
        #expect(try decodeJSON([Guessed].self, try box.succeed("info", "--json", Self.second(box)).stdout).first?.guessed
            == ["album", "albumartist", "track", "year"])
        // write puts the guesses into the files like any other value.
        try box.succeed("write", Self.first(box), "-y")
        let tags = String(decoding: try toolOutput(["metaflac", "--export-tags-to=-", box.file("\(Self.rip)/01 - First Song.flac")]),
                          as: UTF8.self)
        #expect(tags.contains("TITLE=First Song") && tags.contains("ALBUM=Album") && tags.contains("ALBUMARTIST=Artist"), "\(tags)")
    }

    @Test func twoDiscFoldersAreOneAlbumWithTheCoverAboveThem() throws {
        let box = try Sandbox(samples: false)
        try Self.twoDiscs(in: box)
        try box.succeed("import", box.music)
        let songs = try box.songs()
        #expect(songs.count == 4)
        for s in songs {
            let disc = s.path.contains("/CD1/") ? 1 : 2
            #expect(s.disc == disc && s.disctotal == 2, "\(s.path): disc \(s.disc.map(String.init) ?? "none")")
        }
        #expect(songs.allSatisfy { $0.album == "Double" })
        let albums = try box.succeed("ls", "-a").stdout
        #expect(albums.split(separator: "\n").count == 1 && albums.contains("Double"), "\(albums)")
        // The cover above the disc folders is every disc's.
        let arts = Set(songs.map(\.art))
        #expect(arts.count == 1 && arts.first! != nil, "\(arts)")

        // A cover replaced above the disc folders reaches their songs at the next rescan.
        let cover = box.file("\(Self.double)/cover.jpg")
        let picture = try Data(contentsOf: URL(fileURLWithPath: cover))
        try (picture + Data([0])).write(to: URL(fileURLWithPath: cover))
        try box.succeed("import")
        let after = Set(try box.songs().map(\.art))
        #expect(after.count == 1 && after != arts, "the replaced cover above the discs was not taken: \(after)")
    }

    @Test(.enabled(if: RunningServer.pythonMPDAvailable, "python3 is installed by scripts/setup"))
    func theServerListsTheDiscsAsOneAlbumAndServesTheCoverAbove() throws {
        let box = try Sandbox(samples: false)
        try Self.twoDiscs(in: box)
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        defer { _ = server.stop() }
        let list = try server.mpc("list", "album")
        #expect(list.stdout == "Double\n", "\(list)")
        let song = "\(Self.double)/CD2 - Bonus/01.flac"
        let out = try #require(try server.pythonJSON(ServeAlbumArtTests.script, ["albumart \(song)"]) as? [String: [String: Any]])
        let cover = try Data(contentsOf: URL(fileURLWithPath: box.file("\(Self.double)/cover.jpg")))
        let got = out["albumart \(song)"]?["hex"] as? String
        #expect(got == cover.map { String(format: "%02x", $0) }.joined(), "albumart of a disc folder's song: \(out)")
    }

    /// The untidy layouts of `Samples/` come in guessed: the rip named, the discs one album with
    /// the cover above them.
    @Test func theSamplesUntidyLayoutsComeInGuessed() throws {
        let box = try Sandbox(untidy: true)
        try box.importSamples()
        let rip = try box.songs("path:" + box.file("Untidy/Nameless Rippers"))
        #expect(rip.compactMap(\.title).sorted() == ["Opening Theme", "Second Song", "Third Song"])
        #expect(rip.allSatisfy { $0.album == "First Rip" && $0.albumartist == "Nameless Rippers" && $0.year == 1999 })
        let discs = try box.songs("path:" + box.file("Untidy/Twin Rivers"))
        #expect(discs.count == 4 && discs.allSatisfy { $0.disctotal == 2 && $0.disc == ($0.path.contains("/CD1/") ? 1 : 2) })
        #expect(Set(discs.map(\.art)).count == 1 && discs[0].art != nil)
        #expect(try box.succeed("ls", "-a", "album:Two").lines.count == 1)
    }
}
