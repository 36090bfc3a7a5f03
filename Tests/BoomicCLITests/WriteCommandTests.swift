import BoomicTestSupport
import Foundation
import Testing

/// `boomic write` and `modify --write` (DESIGN §1 "Nothing the user owns is lost"): only files
/// that differ are written, a dry run writes nothing, rollback then write gives the old tags back,
/// read-only and changed files are skipped while the others are written, and `kill -9` at any
/// moment leaves each file its old or its new self. Always on the sandbox's copy of `Samples/`.
@Suite struct WriteCommandTests {
    static let miles = "Miles Quartet/Blue Sketches/"

    /// Every audio file of the sandbox's music copy, sorted.
    static func audioFiles(_ box: Sandbox) -> [String] {
        let fm = FileManager.default
        return (fm.subpaths(atPath: box.music) ?? []).filter { p in
            ["flac", "mp3", "wav", "ogg"].contains((p as NSString).pathExtension)
                && !(p as NSString).lastPathComponent.hasPrefix(".")
        }.sorted().map { box.music + "/" + $0 }
    }

    static func contents(_ paths: [String]) -> [String: Data] {
        Dictionary(uniqueKeysWithValues: paths.map { ($0, FileManager.default.contents(atPath: $0) ?? Data()) })
    }

    /// Tags as mutagen sees them, per file: frame or comment keys to their texts (pictures as
    /// MD5s), so that two dumps compare the meaning, not the bytes.
    static func mutagenDump(_ paths: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: [String: [String]]] {
        let script = """
            import sys, json, base64, hashlib, mutagen
            from mutagen.id3 import ID3
            from mutagen.flac import Picture
            out = {}
            for path in sys.argv[1:]:
                f = mutagen.File(path)
                d = {}
                if f is not None and f.tags is not None:
                    if isinstance(f.tags, ID3):
                        for key, fr in f.tags.items():
                            if hasattr(fr, 'text'): d[key] = [str(x) for x in fr.text]
                            elif hasattr(fr, 'data'): d[key] = [hashlib.md5(fr.data).hexdigest()]
                            else: d[key] = [repr(fr)]
                    else:
                        for key in set(k.lower() for k in f.tags.keys()):
                            if key == 'metadata_block_picture':
                                d[key] = [hashlib.md5(Picture(base64.b64decode(v)).data).hexdigest() for v in f.tags[key]]
                            else:
                                d[key] = list(f.tags[key])
                    for p in getattr(f, 'pictures', None) or []:
                        d['picture:%d' % p.type] = [hashlib.md5(p.data).hexdigest()]
                out[path] = d
            print(json.dumps(out))
            """
        let run = try ChildProcess.run(systemPython, ["-c", script] + paths)
        try #require(run.succeeded, "\(run)", sourceLocation: sourceLocation)
        return try decodeJSON([String: [String: [String]]].self, run.stdout, sourceLocation: sourceLocation)
    }

    /// `flac -t` on every FLAC of `paths` at once. (Without --no-preserve-modtime, flac 1.4.2
    /// copies each FLAC's mtime, cut to whole seconds, onto a `.wav` of the same name beside it,
    /// even when only testing.)
    static func expectFLACsDecode(_ paths: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let flacs = paths.filter { $0.hasSuffix(".flac") }
        guard !flacs.isEmpty else { return }
        let run = try ChildProcess.run("/usr/bin/flac", ["-t", "-s", "--no-preserve-modtime"] + flacs)
        #expect(run.succeeded, "\(run)", sourceLocation: sourceLocation)
    }

    /// The songs' values without their ids, as a fresh import of the files would give them.
    static func freshImport(_ box: Sandbox) throws -> [SongRecord] {
        let library = box.root + "/fresh-\(UUID().uuidString.prefix(6))"
        defer { try? FileManager.default.removeItem(atPath: library) }
        let imported = try box.bare(["--library", library, "import", box.music])
        try #require(imported.succeeded && imported.stderr.isEmpty, "\(imported)")
        let listed = try box.bare(["--library", library, "ls", "--json"])
        try #require(listed.succeeded, "\(listed)")
        return try SongRecord.decode(listed.stdout).map { var r = $0; r.id = ""; return r }.sorted { $0.path < $1.path }
    }

    // MARK: Nothing to write, dry runs

    @Test func afterAnImportThereIsNothingToWrite() throws {
        let box = try Sandbox()
        try box.importSamples()
        let files = Self.audioFiles(box)
        let before = Self.contents(files)
        let run = try box.succeed("write", "-y")
        #expect(run.stdout == "Every file already holds the library's tags.\n")
        #expect(Self.contents(files) == before)
        #expect(try box.historyCount() == 1)
    }

    @Test func dryRunShowsEveryChangeAndWritesNothing() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "album:Blue Sketches", "genre=Bebop", "comment=Take two", "-y")
        let files = Self.audioFiles(box)
        let before = Self.contents(files)
        let history = try box.history()

        let run = try box.succeed("write", "--dry-run", "album:Blue")
        var expected: [String] = []
        for name in ["01 So Modal", "02 Blue in Grey", "03 Flamenco Dusk"] {
            expected += ["~ \(box.file(Self.miles + name + ".flac"))", "    genre: Jazz → Bebop", "    comment: ∅ → Take two"]
        }
        #expect(run.lines == expected + ["Dry run: 3 files would be written."])
        #expect(Self.contents(files) == before, "a dry run changed a file")
        #expect(try box.history() == history)
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.file(Self.miles)).count == 3)
    }

    // MARK: Reversible

    /// modify --write, rollback, write: every file reads as it did before (through mutagen and
    /// through a fresh import), the audio is untouched, and a rescan finds nothing changed.
    @Test func rollbackThenWriteGivesBackTheOriginalTags() throws {
        let box = try Sandbox()
        try box.importSamples()
        let files = Self.audioFiles(box)
        let tagsBefore = try Self.mutagenDump(files)
        let importBefore = try Self.freshImport(box)
        let md5Before = try ChildProcess.run("/usr/bin/metaflac", ["--show-md5sum"] + files.filter { $0.hasSuffix(".flac") })

        let modified = try box.succeed("modify", "genre=Bebop", "comment=Take two", "composer=Someone Else", "-y", "--write")
        #expect(modified.lines.last == "Wrote tags into \(files.count) files (transaction 3).", "\(modified)")
        let tagsWritten = try Self.mutagenDump(files)
        for f in files where !f.hasSuffix(".wav") {
            let d = try #require(tagsWritten[f])
            #expect((d["genre"] ?? d["TCON"]) == ["Bebop"], "\(f): \(d)")
        }
        #expect(try Self.freshImport(box).allSatisfy { $0.genre == "Bebop" && $0.comment == "Take two" && $0.composer == "Someone Else" })
        #expect(try box.succeed("import").stdout.hasPrefix("Nothing changed:"), "the write was recorded")

        try box.succeed("rollback", "1", "-y")
        let restored = try box.succeed("write", "-y")
        #expect(restored.lines.last == "Wrote tags into \(files.count) files (transaction 5).", "\(restored)")
        #expect(try Self.freshImport(box) == importBefore)
        let tagsAfter = try Self.mutagenDump(files)
        for f in files where !f.hasSuffix(".wav") { // mutagen cannot read RIFF INFO; TagLib adds an ID3 chunk
            #expect(tagsAfter[f] == tagsBefore[f], "\(f)")
        }
        try Self.expectFLACsDecode(files)
        let md5After = try ChildProcess.run("/usr/bin/metaflac", ["--show-md5sum"] + files.filter { $0.hasSuffix(".flac") })
        #expect(md5After.stdout == md5Before.stdout && !md5After.stdout.isEmpty)
        let rescan = try box.succeed("import")
        let shown = try box.boomic("show", "HEAD").stdout
        #expect(rescan.stdout.hasPrefix("Nothing changed:"), "\(rescan)\n\(shown)")
        #expect(try box.succeed("write").stdout == "Every file already holds the library's tags.\n")
        #expect(try box.history().prefix(2).map(\.kind) == ["write", "rollback"])
    }

    /// The recipe of Documentation/history.md: `undo` takes back the edit (a write record is
    /// not an undo step), and `write` puts the old tags back without --force.
    @Test func undoTheEditAndItsWriteThenWrite() throws {
        let box = try Sandbox()
        try box.importSamples()
        let files = ["01 So Modal", "02 Blue in Grey", "03 Flamenco Dusk"].map { box.file(Self.miles + $0 + ".flac") }
        let before = try Self.mutagenDump(files)
        try box.succeed("modify", "album:Blue Sketches", "genre=Bebop", "title=Same", "-y", "--write")
        #expect(try Self.mutagenDump(files).values.allSatisfy { $0["genre"] == ["Bebop"] && $0["title"] == ["Same"] })
        try box.succeed("undo", "-y")
        #expect(try box.history().first?.label.hasPrefix("undo 2 ") == true, "undo skips the write record and takes back the modify (transaction 2)")
        let run = try box.succeed("write", "-y")
        #expect(run.lines.contains("    title: Same → So Modal"), "\(run)")
        #expect(try Self.mutagenDump(files) == before)
    }

    /// A tagger's spelling of a number stays: track `03` edited is `07`, and after the undo the
    /// file says `03` again, in a FLAC and in an MP3's `TRCK 03/12`.
    @Test func aZeroPaddedNumberKeepsItsPaddingThroughAnEditAndItsUndo() throws {
        let box = try Sandbox()
        try box.importSamples()
        let flac = Self.miles + "01 So Modal.flac"
        let mp3 = try #require(Self.audioFiles(box).first { $0.hasSuffix(".mp3") })
        try box.retag(flac, ["tracknumber": "03"])
        try box.retag(String(mp3.dropFirst(box.file("").count)), ["tracknumber": "03/12"])
        try box.succeed("import")
        let before = try Self.mutagenDump([box.file(flac), mp3])
        try box.succeed("modify", "track:3", "track=7", "-y", "--write")
        let edited = try Self.mutagenDump([box.file(flac), mp3])
        #expect(edited[box.file(flac)]?["tracknumber"] == ["07"], "\(edited)")
        #expect(edited[mp3]?["TRCK"] == ["07/12"], "\(edited)")
        try box.succeed("undo", "-y")
        try box.succeed("write", "-y")
        #expect(try Self.mutagenDump([box.file(flac), mp3]) == before)
    }

    /// Once written, an edit is the file's value: another tagger changing the field back is a
    /// change of the file that a rescan takes (the library forgets what the file said before).
    @Test func aRescanAfterAWriteTakesLaterChangesOfTheFile() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "album:Blue Sketches", "genre=Bebop", "-y", "--write")
        try box.retag(Self.miles + "01 So Modal.flac", ["genre": "Jazz"])
        try box.succeed("import")
        #expect(try box.song("title:So Modal").genre == "Jazz")
        #expect(try box.song("title:Blue in Grey").genre == "Bebop")
    }

    // MARK: Files that are skipped

    @Test func aReadOnlyFileIsSkippedAndTheOthersWritten() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "album:Blue Sketches", "genre=Bebop", "-y")
        let locked = box.file(Self.miles + "03 Flamenco Dusk.flac")
        #expect(chmod(locked, 0o444) == 0)
        let lockedBytes = FileManager.default.contents(atPath: locked)

        let run = try box.boomic("write", "-y")
        #expect(run.status == 1 && !run.signaled, "\(run)")
        #expect(run.errorLines == [
            "skipped \(locked): the file is read-only; make it writable (chmod u+w) to write its tags",
            "Error: 1 file was not written; see the messages above",
        ])
        #expect(run.lines.last == "Wrote tags into 2 files (transaction 3).")
        #expect(FileManager.default.contents(atPath: locked) == lockedBytes)
        let tags = try Self.mutagenDump(["01 So Modal", "02 Blue in Grey", "03 Flamenco Dusk"].map { box.file(Self.miles + $0 + ".flac") })
        #expect(tags.values.map { $0["genre"] ?? [] }.sorted { $0.joined() < $1.joined() } == [["Bebop"], ["Bebop"], ["Jazz"]])
        #expect(try box.history().first?.label == "write tags into 2 files")
    }

    @Test func aFileChangedOnDiskIsNotWrittenWithoutForce() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "album:Blue Sketches", "genre=Bebop", "-y")
        let changed = Self.miles + "01 So Modal.flac"
        try box.retag(changed, ["title": "Retitled Elsewhere"])

        let run = try box.boomic("write", "-y")
        #expect(run.status == 1, "\(run)")
        #expect(run.errorLines.first == "skipped \(box.file(changed)): changed on disk since the library last read it; run 'boomic import' to read it, or 'boomic write --force' to overwrite it")
        #expect(run.lines.last == "Wrote tags into 2 files (transaction 3).")
        let kept = try #require(try Self.mutagenDump([box.file(changed)])[box.file(changed)])
        #expect(kept["title"] == ["Retitled Elsewhere"] && kept["genre"] == ["Jazz"])

        let forced = try box.succeed("write", "--force", "-y")
        #expect(forced.lines.contains("    title: Retitled Elsewhere → So Modal"))
        let written = try #require(try Self.mutagenDump([box.file(changed)])[box.file(changed)])
        #expect(written["title"] == ["So Modal"] && written["genre"] == ["Bebop"])
    }

    /// Another tagger changed a file in place and put its size and time back (Mp3tag's and
    /// foobar2000's "preserve file time"): the stamp alone says nothing changed, but the file no
    /// longer holds what the library read, and writing would undo that change.
    @Test func aFileRetaggedKeepingItsSizeAndTimeIsNotWrittenWithoutForce() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "album:Blue Sketches", "genre=Bebop", "-y")
        let changed = box.file(Self.miles + "02 Blue in Grey.flac")
        let before = try FileManager.default.attributesOfItem(atPath: changed)
        let script = """
            import os, sys
            from mutagen.flac import FLAC
            st = os.stat(sys.argv[1])
            f = FLAC(sys.argv[1]); f["TITLE"] = "Retitled Elsewhere"; f.save()  # into the padding
            os.utime(sys.argv[1], ns=(st.st_atime_ns, st.st_mtime_ns))
            """
        let run0 = try ChildProcess.run(systemPython, ["-c", script, changed])
        try #require(run0.succeeded, "\(run0)")
        let after = try FileManager.default.attributesOfItem(atPath: changed)
        try #require(after[.size] as? Int == before[.size] as? Int && after[.modificationDate] as? Date == before[.modificationDate] as? Date,
                     "the retag changed the file's size or time: the test needs it not to")

        let run = try box.boomic("write", "-y")
        #expect(run.status == 1, "\(run)")
        #expect(run.errorLines.first?.hasPrefix("skipped \(changed): its title (Retitled Elsewhere) is not what the library last read") == true,
                "\(run)")
        #expect(try Self.mutagenDump([changed])[changed]?["title"] == ["Retitled Elsewhere"])

        try box.succeed("write", "--force", "-y")
        #expect(try Self.mutagenDump([changed])[changed]?["title"] == ["Blue in Grey"])
    }

    @Test func missingSongsAreSkippedWithAMessage() throws {
        let box = try Sandbox()
        try box.importSamples()
        let gone = box.file(Self.miles + "02 Blue in Grey.flac")
        try FileManager.default.removeItem(atPath: gone)
        try box.succeed("import")
        let run = try box.boomic("modify", "album:Blue Sketches", "genre=Bebop", "-y", "--write")
        #expect(run.succeeded, "\(run)")
        #expect(run.errorLines == ["skipped \(gone): the file was missing at the last scan"])
        #expect(run.lines.last == "Wrote tags into 2 files (transaction 4).")
    }

    @Test func modeAndOwnerSurviveTheCommand() throws {
        let box = try Sandbox()
        try box.importSamples()
        let path = box.file(Self.miles + "01 So Modal.flac")
        #expect(chmod(path, 0o604) == 0 && chown(path, 4321, 8765) == 0)
        try box.succeed("import")
        try box.succeed("modify", "title:So Modal", "title=Modal", "-y", "--write")
        var st = stat()
        #expect(stat(path, &st) == 0)
        #expect(st.st_mode & 0o7777 == 0o604 && st.st_uid == 4321 && st.st_gid == 8765)
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.file(Self.miles)).count == 3, "no temporary file is left")
    }

    // MARK: kill -9

    /// Copies of the sample FLACs: `copies` × 22 files, really copied (a rename over a hard link
    /// would be safe too, but each file should be its own).
    static func flacTree(_ box: Sandbox, copies: Int) throws -> [String] {
        let fm = FileManager.default
        let flacs = Self.audioFiles(box).filter { $0.hasSuffix(".flac") && !$0.contains("no tags") }
        var out: [String] = []
        for i in 0..<copies {
            for f in flacs {
                let target = "\(box.root)/tree/copy \(i)/" + f.dropFirst(box.music.count + 1)
                try fm.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try fm.copyItem(atPath: f, toPath: target)
                out.append(target)
            }
        }
        return out
    }

    /// Kills `boomic write` of a few hundred files at random moments. After each kill every file
    /// is byte for byte its old self, or carries the new comment, and every file decodes; the
    /// next run carries on, and a run to the end leaves no temporary file.
    @Test func killedWriteLeavesEachFileOldOrNew() throws {
        var rng = SplitMix64.fromEnvironment()
        let box = try Sandbox()
        let files = try Self.flacTree(box, copies: 12)
        let tree = box.root + "/tree"
        try box.succeed("import", tree)
        let old = Self.contents(files)
        try box.succeed("modify", "comment=Written by boomic", "-y")
        // How long a whole write takes is not known before one runs; a dry run reads every file.
        let reading = try Fault.timed { try box.succeed("write", "--dry-run") }

        var killed = 0, midway = 0
        for k in 0..<8 {
            // Until one kill has hit, within the dry run's time: the write reads every file as
            // the dry run does and writes some too, so it is still running then, under any load.
            let delay = 0.02 + rng.unit() * max(0.3, reading * (killed == 0 ? 1 : 4))
            let hit = try Fault.kill(box, ["write", "-y"], after: delay).hit
            if hit { killed += 1 }
            let tags = try Self.mutagenDump(files)
            var written = 0
            for f in files where FileManager.default.contents(atPath: f) != old[f] {
                written += 1
                #expect(tags[f]?["comment"] == ["Written by boomic"], "kill \(k) after \(delay) s: \(f) is neither old nor new")
            }
            try Self.expectFLACsDecode(files)
            _ = try CrashSafetyTests.reopen(box)
            if !hit { break }
            if written > 0 && written < files.count { midway += 1 }
        }
        let last = try box.succeed("write", "-y")
        #expect(last.lines.last?.hasPrefix("Wrote tags into") ?? false || last.stdout == "Every file already holds the library's tags.\n", "\(last)")
        #expect(try Self.mutagenDump(files).values.allSatisfy { $0["comment"] == ["Written by boomic"] })
        let leftovers = (FileManager.default.subpaths(atPath: tree) ?? []).filter { ($0 as NSString).lastPathComponent.hasPrefix(".") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
        try Self.expectFLACsDecode(files)
        print("WriteCommandTests.kill: seed \(rng.seed), \(files.count) files, dry run \(reading) s, \(killed) kills hit a running write, \(midway) of them with some files written")
        #expect(killed > 0, "no kill hit a running write; the test proved nothing")
    }
}
