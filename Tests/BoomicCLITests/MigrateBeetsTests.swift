import BoomicTestSupport
import Foundation
import Testing

/// `boomic migrate beets` against real beets libraries made here (issue 34, item 6): Debian's
/// beets 1.6 (absolute paths as bytes) and beets 2.x from PyPI in /opt/beets2 (paths relative to
/// `directory`), both installed by scripts/setup. beets imports small FLAC files as they are
/// (`import -A`, no network), a title is changed with `modify -W` (in beets' database only),
/// flexible attributes, mpdstats' play fields and an album field are set, and the album gets a
/// cover (`artpath`) through beets' own API. Then the library is migrated, twice.
@Suite(.serialized)
struct MigrateBeetsTests {
    struct Beets: Sendable {
        var beet: String
        var python: String
        var pythonPath: String?
        /// beets 2.x keeps item paths relative to `directory`.
        var relativePaths: Bool

        var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: beet) }
    }

    static let debian = Beets(beet: "/usr/bin/beet", python: "/usr/bin/python3", pythonPath: "/usr/share/beets", relativePaths: false)
    static let pypi = Beets(beet: "/opt/beets2/bin/beet", python: "/opt/beets2/bin/python", pythonPath: nil, relativePaths: true)

    /// A beets library in a sandbox: `music/Artist/Album/0N.flac`, `beets/config.yaml`, `beets/library.db`.
    struct Fixture {
        let box: Sandbox
        let beets: Beets
        var music: String { box.root + "/music" }
        var album: String { music + "/Artist/Album" }
        var config: String { box.root + "/beets" }
        var database: String { config + "/library.db" }
        var environment: [String: String?] { ["BEETSDIR": config, "HOME": box.root, "PYTHONPATH": beets.pythonPath] }

        init(_ beets: Beets, label: String = #function) throws {
            box = try Sandbox(samples: false, label)
            self.beets = beets
            try FileManager.default.createDirectory(atPath: box.root + "/music/Artist/Album", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: box.root + "/beets", withIntermediateDirectories: true)
            for (n, title) in [(1, "One"), (2, "Two"), (3, "Three")] {
                let file = album + "/0\(n).flac"
                try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", file, "synth", "0.3", "sine", String(300 * n)])
                try toolOutput(["metaflac", "--set-tag=TITLE=\(title)", "--set-tag=ARTIST=Artist", "--set-tag=ALBUM=Album",
                                "--set-tag=TRACKNUMBER=\(n)", "--set-tag=DATE=1999", file])
            }
            try Data("\u{89}PNG\r\n\u{1A}\nnot quite a picture".utf8).write(to: URL(fileURLWithPath: album + "/beets-art.png"))
            try """
                directory: \(music)
                library: library.db
                import:
                  autotag: no
                  copy: no
                  write: no
                  log:
                plugins: []
                """.write(toFile: config + "/config.yaml", atomically: true, encoding: .utf8)
        }

        /// Runs `beet ARGS…` in the sandbox's configuration; fails the test when it fails.
        @discardableResult
        func beet(_ arguments: String...) throws -> ProcessRun {
            let run = try ChildProcess.run(beets.beet, arguments, environment: environment, directory: box.root)
            #expect(run.succeeded, "\(run)")
            return run
        }

        /// Runs a Python script with beets importable.
        @discardableResult
        func python(_ script: String, _ arguments: String...) throws -> ProcessRun {
            let run = try ChildProcess.run(beets.python, ["-c", script] + arguments, environment: environment, directory: box.root)
            #expect(run.succeeded, "\(run)")
            return run
        }

        /// Imports the album as it is, then edits it the ways the issue names.
        func makeLibrary() throws {
            try beet("import", "-A", "-q", music)
            try beet("modify", "-y", "-W", "title:One", "title=Uno")
            try beet("modify", "-y", "-W", "title:Two", "mood=happy", "play_count=3", "skip_count=1", "rating=0.8",
                     "last_played=1700000000")
            try beet("modify", "-y", "-W", "-a", "album:Album", "albumtype=live", "label=A Label", "era=nineties")
            try python("""
                import sys
                from beets import config
                config.read()
                from beets.library import Library
                lib = Library(sys.argv[1], sys.argv[2])
                for a in lib.albums():
                    a.artpath = sys.argv[3].encode()
                    a.store()
                """, database, music, album + "/beets-art.png")
        }

        /// beets' own `added` of the item whose title is `title`, read with Python's sqlite3.
        func added(_ title: String) throws -> Double {
            let run = try python("import sqlite3, sys; print(repr(sqlite3.connect(sys.argv[1]).execute('select added from items where title = ?', (sys.argv[2],)).fetchone()[0]))",
                                 database, title)
            return Double(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }

        /// The database folder's files with their bytes' digest and mtime: what must not change.
        func databaseFolder() throws -> [String: String] {
            var out: [String: String] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: config) {
                let path = config + "/" + name
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                let bytes = FileManager.default.contents(atPath: path) ?? Data()
                out[name] = "\(bytes.hashValue) \(bytes.count) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
            }
            return out
        }
    }

    /// One song of `ls --json`, by title.
    static func song(_ box: Sandbox, _ title: String) throws -> [String: Any] {
        let run = try box.boomic("ls", "title:=\(title)", "--json")
        let list = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(list.count == 1, "\(run)")
        return list.first ?? [:]
    }

    /// What migration must carry, checked on both beets versions.
    static func checkCarried(_ f: Fixture) throws {
        let box = f.box
        let uno = try song(box, "Uno")
        #expect(uno["path"] as? String == f.album + "/01.flac")
        #expect(uno["albumtype"] as? String == "live" && uno["era"] as? String == "nineties")
        let added = try box.boomic("ls", "title:Two", "-f", "$added").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Double(added) == (try f.added("Two")), "beets' added is kept")
        let info = try box.boomic("info", "title:Uno")
        #expect(info.stdout.contains("title=\"One\""), "the file's title is remembered: \(info)")
        let two = try song(box, "Two")
        #expect(two["mood"] as? String == "happy")
        #expect(two["playcount"] as? Int == 3 && two["rating"] as? Int == 4)
        #expect(two["album"] as? String == "Album")
        let plays = try box.boomic("ls", "title:Two", "-f", "$skipcount $lastplayed $label")
        #expect(plays.stdout.hasPrefix("1 2023-11-14"), "\(plays)")
        #expect(plays.stdout.contains("A Label"), "\(plays)")
        // artpath is the album's cover, stored like an imported one.
        let art = try #require(two["art"] as? String, "the album's cover")
        #expect(uno["art"] as? String == art)
        let stored = try FileManager.default.contentsOfDirectory(atPath: box.library + "/art").filter { $0.hasPrefix(art) }
        #expect(stored.count == 1)
        let bytes = FileManager.default.contents(atPath: box.library + "/art/" + (stored.first ?? ""))
        #expect(bytes == FileManager.default.contents(atPath: f.album + "/beets-art.png"))
    }

    /// The second run adds nothing and commits nothing; undo takes the migration back and redo
    /// brings it again; a rescan of a file changed on disk keeps beets' values.
    static func checkAgainUndoRescan(_ f: Fixture, before: Int) throws {
        let box = f.box
        let head = try box.boomic("history", "-n", "1").stdout
        let again = try box.boomic(["migrate", "beets"], environment: f.environment)
        #expect(again.succeeded && again.stdout.hasPrefix("Nothing to migrate: 0 added, 0 updated"), "\(again)")
        #expect(try box.boomic("history", "-n", "1").stdout == head)

        let migrated = try box.listing()
        try box.succeed("undo")
        let left = try JSONSerialization.jsonObject(with: Data(try box.listing().utf8)) as? [[String: Any]] ?? []
        #expect(left.count == before, "undo takes the migration back")
        #expect(!left.contains { $0["title"] as? String == "Uno" })
        try box.succeed("redo")
        #expect(try box.listing() == migrated)

        try toolOutput(["metaflac", "--set-tag=GENRE=Rock", f.album + "/01.flac"])
        let rescan = try box.boomic("import")
        #expect(rescan.succeeded && rescan.stdout.contains("1 changed"), "\(rescan)")
        let uno = try song(box, "Uno")
        #expect(uno["genre"] as? String == "Rock", "the rescan read the file")
        #expect(uno["albumtype"] as? String == "live")
    }

    @Test(.enabled(if: debian.isInstalled, "Debian's beets (1.6) is installed by scripts/setup"))
    func beets16() throws {
        let f = try Fixture(Self.debian)
        // A file whose name is Latin-1, which beets keeps as bytes and Boomic cannot keep as text.
        try f.python("import os, shutil, sys; shutil.copy(sys.argv[1], os.fsencode(sys.argv[2]) + b'/caf\\xe9.flac')",
                     f.album + "/03.flac", f.album)
        try f.makeLibrary()
        try f.beet("modify", "-y", "-W", "title:Uno", "rating=7")
        try FileManager.default.removeItem(atPath: f.album + "/03.flac")
        let stored = try f.python("import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('select typeof(path), path from items where title = ?', ('Uno',)).fetchone())", f.database)
        #expect(stored.stdout.contains("'blob', b'/"), "beets 1.6 stores absolute paths as bytes: \(stored)")
        let untouched = try f.databaseFolder()

        let run = try f.box.boomic(["migrate", "beets"], environment: f.environment)
        #expect(run.succeeded && run.stdout.hasPrefix("Migrated from beets: 2 added, 0 updated, 0 unchanged, 2 skipped"), "\(run)")
        #expect(run.errorLines.contains("skipped \(f.album)/03.flac: no file there (beets item 3)"), "\(run)")
        #expect(run.errorLines.contains { $0.hasPrefix("skipped beets item 4: its path ") && $0.contains("caf\\xE9.flac is not UTF-8") }, "\(run)")
        #expect(run.errorLines.contains("\(f.album)/01.flac: not carried: rating=7 (mpdstats rates from 0 to 1)"), "\(run)")
        #expect(run.errorLines.count == 3, "\(run)")
        #expect(try f.databaseFolder() == untouched, "beets' database folder is left as it was")
        try Self.checkCarried(f)
        try Self.checkAgainUndoRescan(f, before: 0)
    }

    @Test(.enabled(if: pypi.isInstalled, "beets 2.x is installed in /opt/beets2 by scripts/setup"))
    func beets2() throws {
        let f = try Fixture(Self.pypi)
        // Boomic already has the first song's audio, at a path since gone: migration finds it
        // by fingerprint and moves it to beets' path, keeping its id.
        let elsewhere = f.box.root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: f.album + "/01.flac", toPath: elsewhere + "/first.flac")
        try f.box.succeed("import", elsewhere)
        let id = try #require(try Self.song(f.box, "One")["id"] as? String)
        try FileManager.default.removeItem(atPath: elsewhere + "/first.flac")
        try f.box.succeed("import")
        try f.makeLibrary()
        let stored = try f.python("import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('select path from items where title = ?', ('Uno',)).fetchone())", f.database)
        #expect(stored.stdout.contains("b'Artist/Album/01.flac'"), "beets 2.x stores paths relative to directory: \(stored)")
        let untouched = try f.databaseFolder()

        let run = try f.box.boomic(["migrate", "beets", "--json"], environment: f.environment)
        #expect(run.succeeded, "\(run)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(report["added"] as? Int == 2 && report["updated"] as? Int == 1, "\(run)")
        #expect(report["database"] as? String == f.database && report["directory"] as? String == f.music)
        #expect(report["transaction"] as? Int == 3)
        #expect(try f.databaseFolder() == untouched, "beets' database folder is left as it was")
        #expect(try Self.song(f.box, "Uno")["id"] as? String == id, "the moved song keeps its id")
        try Self.checkCarried(f)
        try Self.checkAgainUndoRescan(f, before: 1)
    }

    /// A WAL-mode database with no `-wal` beside it is read without making one (SQLite would
    /// leave a `-wal` and a `-shm` in the user's folder).
    @Test(.enabled(if: pypi.isInstalled, "beets 2.x is installed in /opt/beets2 by scripts/setup"))
    func walModeDatabase() throws {
        let f = try Fixture(Self.pypi)
        try f.beet("import", "-A", "-q", f.music)
        try f.python("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('pragma journal_mode=wal'); c.close()", f.database)
        let untouched = try f.databaseFolder()
        #expect(!untouched.keys.contains { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") })
        let run = try f.box.boomic(["migrate", "beets", f.database], environment: f.environment)
        #expect(run.succeeded && run.stdout.hasPrefix("Migrated from beets: 3 added"), "\(run)")
        #expect(try f.databaseFolder() == untouched)
    }

    /// A database whose last change is still in its `-wal` (beets running, or killed before a
    /// checkpoint) is read with it: the copy of both files made while the writer is open.
    @Test(.enabled(if: pypi.isInstalled, "beets 2.x is installed in /opt/beets2 by scripts/setup"))
    func changeStillInTheWAL() throws {
        let f = try Fixture(Self.pypi)
        try f.beet("import", "-A", "-q", f.music)
        let copy = f.box.root + "/copy"
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        try f.python("""
            import shutil, sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute('pragma journal_mode=wal')
            c.execute('pragma wal_autocheckpoint=0')
            c.execute("update items set title = 'From the WAL' where title = 'One'")
            c.commit()
            shutil.copy(sys.argv[1], sys.argv[2] + '/library.db')
            shutil.copy(sys.argv[1] + '-wal', sys.argv[2] + '/library.db-wal')
            c.close()
            """, f.database, copy)
        let database = FileManager.default.contents(atPath: copy + "/library.db")
        let run = try f.box.boomic(["migrate", "beets", copy + "/library.db"], environment: f.environment)
        #expect(run.succeeded && run.stdout.hasPrefix("Migrated from beets: 3 added"), "\(run)")
        #expect(try Self.song(f.box, "From the WAL")["path"] as? String == f.album + "/01.flac")
        #expect(FileManager.default.contents(atPath: copy + "/library.db") == database)
    }

    /// A file that is not a beets library is refused in one line.
    @Test func notABeetsLibrary() throws {
        let box = try Sandbox(samples: false)
        try box.succeed("init")
        let other = box.root + "/other.db"
        try FileManager.default.copyItem(atPath: box.library + "/library.sqlite", toPath: other)
        let run = try box.boomic("migrate", "beets", other)
        #expect(!run.succeeded && run.stdout.isEmpty, "\(run)")
        #expect(run.errorLines == ["Error: \(other) is not a beets library: it has no items table"], "\(run)")

        try Data("not a database at all, though long enough to have a header".utf8).write(to: URL(fileURLWithPath: other))
        let text = try box.boomic("migrate", "beets", other)
        #expect(!text.succeeded && text.errorLines == ["Error: \(other) is not a beets library: it is not an SQLite database"], "\(text)")
        #expect(try box.boomic("history").stdout.contains("migrate") == false)
    }
}
