import BoomicTestSupport
import Foundation
import Testing

/// `boomic migrate mpd` on what Debian's mpd made: stickers set and playlists saved with mpc,
/// read while that mpd still runs.
@Suite(.serialized, .enabled(if: ReferenceMPD.available && RunningServer.mpcAvailable, "needs Debian's mpd and mpc (scripts/setup installs them)"))
struct MigrateMPDTests {
    static let modal = "Miles Quartet/Blue Sketches/01 So Modal.flac"
    static let grey = "Miles Quartet/Blue Sketches/02 Blue in Grey.flac"
    static let dusk = "Miles Quartet/Blue Sketches/03 Flamenco Dusk.flac"
    static let wav = "Loose Files/no tags at all.wav"
    static let mp3 = "Loose Files/no tags at all.mp3"

    /// A music folder of two sample folders, scanned by a running mpd.
    static func musicAndMPD() throws -> (Sandbox, ReferenceMPD) {
        let box = try Sandbox(samples: false)
        for folder in ["Miles Quartet", "Loose Files"] {
            try FileManager.default.createDirectory(atPath: box.music, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Repo.samples + "/" + folder, toPath: box.music + "/" + folder)
        }
        let mpd = try ReferenceMPD(music: box.music, in: box.root)
        try mpd.waitForDatabase(songs: 6)
        return (box, mpd)
    }

    static func mpc(_ mpd: ReferenceMPD, _ arguments: String...) throws {
        let run = try ChildProcess.run("/usr/bin/mpc", ["--host", "127.0.0.1", "--port", String(mpd.port)] + arguments,
                                       environment: ["MPD_HOST": nil, "MPD_PORT": nil])
        try #require(run.succeeded, "\(run)")
    }

    /// The paths of a playlist, in order, as `playlist export` writes them.
    static func entries(_ box: Sandbox, _ name: String) throws -> [String] {
        let run = try box.boomic("playlist", "export", name)
        try #require(run.succeeded, "\(run)")
        return run.lines.filter { !$0.hasPrefix("#") }.map { String($0.dropFirst(box.music.count + 1)) }
    }

    static func stickers(_ box: Sandbox, _ uri: String) throws -> [String: String] {
        let all = try #require(try JSONSerialization.jsonObject(with: Data(box.listing().utf8)) as? [[String: Any]])
        let song = try #require(all.first { ($0["path"] as? String) == box.music + "/" + uri })
        return song["stickers"] as? [String: String] ?? [:]
    }

    @Test func stickersAndPlaylistsComeInOnceAndUndoTakesThemBack() throws {
        let (box, mpd) = try Self.musicAndMPD()
        try Self.mpc(mpd, "update", "--wait")
        for (uri, name, value) in [(Self.modal, "rating", "7"), (Self.modal, "playcount", "12"), (Self.modal, "favorite", "1"),
                                   (Self.modal, "playCount", "3"), (Self.modal, "lastPlayed", "1700000000"),
                                   (Self.grey, "rating", "10"), (Self.dusk, "rating", "x"), (Self.wav, "rating", "6")] {
            try Self.mpc(mpd, "sticker", uri, "set", name, value)
        }
        try Self.mpc(mpd, "add", "Miles Quartet")
        try Self.mpc(mpd, "add", Self.wav)
        try Self.mpc(mpd, "add", Self.modal)
        try Self.mpc(mpd, "save", "Evening")
        try Self.mpc(mpd, "clear")
        try Self.mpc(mpd, "add", Self.mp3)
        try Self.mpc(mpd, "save", "Mix")
        let conf = box.root + "/mpd/mpd.conf", lists = box.root + "/mpd/playlists"
        // Written by hand: an #EXTM3U header, an absolute path, a stream, spaces around an entry.
        try "#EXTM3U\n#EXTINF:2,x\n\(box.music)/\(Self.dusk)\nhttp://radio.example/stream\n  \(Self.grey)  \n"
            .write(toFile: lists + "/Hand.m3u", atomically: true, encoding: .utf8)
        // Boomic never sees the WAV; and has a Mix of its own.
        try FileManager.default.removeItem(atPath: box.file(Self.wav))
        try box.succeed("import", box.music)
        try box.succeed("playlist", "new", "Mix", "Blue in Grey")
        let before = try box.listing(), seqBefore = try box.historyCount()

        // mpd still runs and holds its sticker database: it is only read.
        let run = try box.boomic("migrate", "mpd", conf)
        #expect(run.succeeded, "\(run)")
        #expect(run.stdout == "Migrated from \(conf): 6 stickers carried, 2 songs changed, 2 playlists made "
                + "(transaction \(seqBefore + 1); it sets play counts, so 'boomic undo --plays' takes it back).\n")
        #expect(run.errorLines == [
            "skipped 1 sticker of 1 song not in the library ('\(Self.wav)'); 'boomic import \(box.music)' brings them in",
            "skipped sticker rating=x on '\(Self.dusk)': rating takes 0 to 10",
            "playlist 'Evening': left out 1 entry not in the library (\(box.music)/\(Self.wav))",
            "playlist 'Hand': left out 1 entry not in the library (http://radio.example/stream)",
            "skipped playlist 'Mix': a playlist named 'Mix' already exists; --replace gives it MPD's entries",
        ])
        let modal = try box.song("path:" + Self.modal), grey = try box.song("path:" + Self.grey), dusk = try box.song("path:" + Self.dusk)
        #expect(modal.rating == 4 && modal.playcount == 12 && modal.favorite == true)
        #expect(try Self.stickers(box, Self.modal) == ["lastPlayed": "1700000000", "playCount": "3"])
        #expect(grey.rating == 5 && dusk.rating == nil)
        #expect(try Self.entries(box, "Evening") == [Self.modal, Self.grey, Self.dusk, Self.modal])
        #expect(try Self.entries(box, "Hand") == [Self.dusk, Self.grey])
        #expect(try Self.entries(box, "Mix") == [Self.grey])
        #expect(try box.history().first?.kind == "migrate")

        // Again: nothing twice, nothing committed.
        let again = try box.boomic("migrate", "mpd", conf)
        #expect(again.succeeded && again.stdout.contains("nothing new"), "\(again)")
        #expect(try box.historyCount() == seqBefore + 1)

        // --replace gives Mix MPD's entries.
        let replaced = try box.boomic("migrate", "mpd", "--replace", conf)
        #expect(replaced.succeeded && replaced.stdout.contains("1 replaced"), "\(replaced)")
        #expect(try Self.entries(box, "Mix") == [Self.mp3])

        // Undo: the play counts make it a `--plays` undo; then the library is as it was.
        let plain = try box.boomic("undo", "2", "-y")
        #expect(!plain.succeeded && plain.stderr.contains("--plays"), "\(plain)")
        try box.succeed("undo", "--plays", "2", "-y")
        #expect(try box.listing() == before)
        #expect(try Self.entries(box, "Mix") == [Self.grey])
        #expect(!(try box.boomic("playlist", "export", "Evening")).succeeded)
    }

    @Test func theJSONReportListsEverythingAndADryRunChangesNothing() throws {
        let (box, mpd) = try Self.musicAndMPD()
        try Self.mpc(mpd, "sticker", Self.grey, "set", "rating", "3")
        try Self.mpc(mpd, "sticker", Self.wav, "set", "rating", "6")
        try FileManager.default.removeItem(atPath: box.file(Self.wav))
        try box.succeed("import", box.music)
        let count = try box.historyCount()
        let run = try box.boomic("migrate", "mpd", "--dry-run", "--json", box.root + "/mpd/mpd.conf")
        #expect(run.succeeded && run.stderr.isEmpty, "\(run)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["dry_run"] as? Bool == true && report["transaction"] == nil)
        #expect(report["songs_changed"] as? Int == 1 && report["stickers_carried"] as? Int == 1)
        #expect(report["not_in_library"] as? [String] == [Self.wav])
        let config = try #require(report["config"] as? [String: Any])
        #expect(config["music_directory"] as? String == box.music)
        #expect(config["sticker_file"] as? String == box.root + "/mpd/sticker.sql")
        #expect(try box.historyCount() == count)
        #expect(try box.song("path:" + Self.grey).rating == nil)
    }

    @Test func aLibraryWithoutMPDsMusicIsToldToImportItFirst() throws {
        let (box, mpd) = try Self.musicAndMPD()
        try Self.mpc(mpd, "sticker", Self.grey, "set", "rating", "3")
        try FileManager.default.createDirectory(atPath: box.root + "/other", withIntermediateDirectories: true)
        try box.succeed("import", box.root + "/other")
        let run = try box.boomic("migrate", "mpd", box.root + "/mpd/mpd.conf")
        #expect(run.status == 1)
        #expect(run.stderr == "Error: the library has no song in MPD's music_directory \(box.music); run 'boomic import \(box.music)' first, then migrate\n")
    }
}

/// Which mpd.conf `boomic migrate mpd` reads, and how: MPD's search order and path rules, and
/// one line for a file it cannot use.
@Suite(.serialized)
struct MigrateMPDConfigTests {
    static func report(_ box: Sandbox, _ env: [String: String?], _ extra: String...) throws -> [String: Any] {
        let run = try box.boomic(["migrate", "mpd", "--dry-run", "--json"] + extra, environment: env)
        try #require(run.succeeded && run.stderr.isEmpty, "\(run)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return try #require(report["config"] as? [String: Any])
    }

    @Test func theConfigIsFoundInMPDsOrderAndReadAsMPDReadsIt() throws {
        let box = try Sandbox(samples: false)
        let home = box.root + "/home", xdg = box.root + "/config"
        let fm = FileManager.default
        for dir in [home + "/.mpd", xdg + "/mpd", home + "/empty"] { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        try box.succeed("init", home + "/empty")
        try """
            # the first MPD reads
            music_directory  "~/music 1"   # a comment
            include "more.conf"
            include_optional "conf.d/*.conf"
            audio_output {
                type "null"
                name "a \\"quoted\\" name"
            }
            """.write(toFile: xdg + "/mpd/mpd.conf", atomically: true, encoding: .utf8)
        try #"sticker_file "$XDG_CONFIG_HOME/mpd/sticker.sql""# .write(toFile: xdg + "/mpd/more.conf", atomically: true, encoding: .utf8)
        try #"music_directory "$HOME/music 2""#.write(toFile: home + "/.mpdconf", atomically: true, encoding: .utf8)
        try #"music_directory "/music 3""#.write(toFile: home + "/.mpd/mpd.conf", atomically: true, encoding: .utf8)
        let env: [String: String?] = ["HOME": home, "XDG_CONFIG_HOME": xdg]

        var config = try Self.report(box, env)
        #expect(config["file"] as? String == xdg + "/mpd/mpd.conf")
        #expect(config["music_directory"] as? String == home + "/music 1")
        #expect(config["sticker_file"] as? String == xdg + "/mpd/sticker.sql")
        #expect(config["playlist_directory"] == nil)
        try fm.removeItem(atPath: xdg + "/mpd/mpd.conf")
        config = try Self.report(box, env)
        #expect(config["file"] as? String == home + "/.mpdconf" && config["music_directory"] as? String == home + "/music 2")
        try fm.removeItem(atPath: home + "/.mpdconf")
        config = try Self.report(box, env)
        #expect(config["file"] as? String == home + "/.mpd/mpd.conf" && config["music_directory"] as? String == "/music 3")
        // Without XDG_CONFIG_HOME, ~/.config is the first place.
        try fm.createDirectory(atPath: home + "/.config/mpd", withIntermediateDirectories: true)
        try #"music_directory "/music 4""#.write(toFile: home + "/.config/mpd/mpd.conf", atomically: true, encoding: .utf8)
        config = try Self.report(box, ["HOME": home, "XDG_CONFIG_HOME": nil])
        #expect(config["music_directory"] as? String == "/music 4")
        // A file given wins.
        config = try Self.report(box, env, home + "/.mpd/mpd.conf")
        #expect(config["music_directory"] as? String == "/music 3")
    }

    @Test func aFileItCannotUseIsOneLine() throws {
        let box = try Sandbox(samples: false)
        try FileManager.default.createDirectory(atPath: box.root + "/m", withIntermediateDirectories: true)
        try box.succeed("init", box.root + "/m")
        func error(_ conf: String?) throws -> String {
            let path = box.root + "/test.conf"
            if let conf { try conf.write(toFile: path, atomically: true, encoding: .utf8) }
            let run = try box.boomic("migrate", "mpd", conf == nil ? box.root + "/nope.conf" : path)
            #expect(run.status == 1 && run.stdout.isEmpty, "\(run)")
            #expect(run.errorLines.count == 1, "\(run)")
            return run.stderr
        }
        #expect(try error(nil) == "Error: cannot open \(box.root)/nope.conf: No such file or directory\n")
        #expect(try error("music_directory \"/m\nport \"6600\"\n") == "Error: \(box.root)/test.conf is not an mpd.conf MPD would read: line 1: Missing closing '\"'\n")
        #expect(try error("port \"6600\"\n") .contains("sets no music_directory"))
        #expect(try error("music_directory \"music\"\n").contains("music_directory \"music\": not an absolute path"))
        // A sticker_file that is an SQLite database, but not MPD's sticker database.
        let other = box.root + "/other.sqlite"
        let made = try ChildProcess.run("/usr/bin/python3", ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('create table song(uri)'); c.commit()", other])
        try #require(made.succeeded, "\(made)")
        let wrong = try error("music_directory \"\(box.root)/m\"\nsticker_file \"\(other)\"\n")
        #expect(wrong.contains("is not MPD's sticker database"), "\(wrong)")
        let text = try error("music_directory \"\(box.root)/m\"\nsticker_file \"\(box.root)/test.conf\"\n")
        #expect(text.hasPrefix("Error: cannot read MPD's sticker database: \(box.root)/test.conf is not an SQLite database"), "\(text)")
    }
}
