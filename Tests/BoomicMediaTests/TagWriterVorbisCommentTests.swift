import BoomicCore
@testable import BoomicMedia
import BoomicTestSupport
import Foundation
import Testing

/// FLAC and Ogg files that another program tagged, written back: their Vorbis comments keep
/// their order and their keys' spelling; in a FLAC the padding takes up the change so the audio
/// does not move, and an ID3 tag in front of it stays byte for byte. Checked with mutagen, which
/// lists the comments as the file has them.
extension TagWriterTests {
    /// A FLAC tagged as foobar2000 or a hand-edited file might be: keys in mixed case, in no
    /// particular order, one the library does not know, and 8 KiB of padding.
    func foreignFLAC(padding: Int = 8192) throws -> String {
        let path = try copy("Loose Files/no tags at all.flac")
        _ = try mutagen("""
            from mutagen.flac import FLAC
            f = FLAC(sys.argv[1])
            if f.tags is None: f.add_tags()
            f.tags.clear()
            for k, v in [("title", "Old Title"), ("ARTIST", "Zed"), ("Album", "Alpha"), ("TRACKNUMBER", "3"),
                         ("MOOD", "calm"), ("comment", "c1"), ("COMMENT", "c2"), ("GENRE", "Jazz"), ("GENRE", "Fusion")]:
                f.tags.append((k, v))
            f.save(padding=lambda info: \(padding))
            """, path)
        return path
    }

    static let listComments = """
        from mutagen.flac import FLAC
        f = FLAC(sys.argv[1])
        pad = [b.length for b in f.metadata_blocks if b.code == 1]
        print(json.dumps([f"{k}={v}" for k, v in f.tags]), pad)
        """

    /// The file's bytes from `offset` on.
    func tail(_ path: String, from offset: Int) throws -> Data {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.suffix(from: data.startIndex + offset)
    }

    @Test func aFLACKeepsItsCommentsAsWrittenAndItsAudioInPlace() throws {
        let path = try foreignFLAC()
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        let audio = try tail(path, from: size - 4000)
        var song = try scan(path)
        song.title = "A Longer New Title"
        song.composer = "Bach"
        song.genre = nil
        song.comment = "c1 changed"
        let outcome = try writer.write(song)
        #expect(outcome.remaining.isEmpty, "\(outcome.remaining)")
        #expect(try mutagen(Self.listComments, path) == #"""
            ["title=A Longer New Title", "ARTIST=Zed", "Album=Alpha", "TRACKNUMBER=3", "MOOD=calm", "comment=c1 changed", "COMMENT=c2", "COMPOSER=Bach"] [8188]

            """#)
        // The padding took the change: the file is as long, and its audio where it was.
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int == size)
        #expect(try tail(path, from: size - 4000) == audio)
        // Writing what the file already has changes nothing.
        #expect(try writer.write(try scan(path)).written.isEmpty)
    }

    /// Every field, written as in-place edits of the comments (the cover unchanged, so TagLib
    /// does not save), then cleared: read back by TagLib as the song, the audio the same, an
    /// unknown key kept, and nothing left to write the second time.
    @Test(arguments: ["Miles Quartet/Blue Sketches/01 So Modal.flac", "Various Artists/Night Drive/02 Ночной город.flac",
                      "Edge Case Orchestra/Strange Titles/02 Rise ∕ Fall 🌅.flac", "Free Software Choir/Open Voices/01 Vorbis Dawn.ogg"])
    func everyFieldIsEditedInPlaceThenCleared(_ sample: String) throws {
        let path = try copy(sample)
        _ = try mutagen("import mutagen\nf = mutagen.File(sys.argv[1]); f['mood'] = 'Calm'; f.save()", path)
        let original = try scan(path)
        let audio = try decoded(path)
        var new = try edited(original)
        new.art = original.art
        let outcome = try writer.write(new)
        #expect(outcome.didWrite && outcome.remaining.isEmpty, "\(outcome.remaining)")
        try expectTags(of: path, equal: new)
        #expect(try decoded(path) == audio)
        #expect(try mutagen("import mutagen\nprint(mutagen.File(sys.argv[1])['mood'])", path) == "['Calm']\n")
        #expect(!(try writer.write(try scan(path))).didWrite)
        var empty = cleared(new)
        empty.art = original.art
        empty.size = outcome.stamp.size; empty.mtime = outcome.stamp.mtime
        #expect(try writer.write(empty).remaining.isEmpty)
        try expectTags(of: path, equal: empty)
        #expect(try decoded(path) == audio)
        let left = "import mutagen\nprint([e for e in mutagen.File(sys.argv[1]).tags if e[0] != 'METADATA_BLOCK_PICTURE'])"
        #expect(try mutagen(left, path) == "[('mood', 'Calm')]\n")
    }

    @Test func commentsThatOutgrowThePaddingMoveTheAudioWhole() throws {
        let path = try foreignFLAC(padding: 10)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        let audio = try tail(path, from: size - 4000)
        var song = try scan(path)
        song.title = String(repeating: "Much longer ", count: 10)
        let outcome = try writer.write(song)
        #expect(outcome.remaining.isEmpty)
        #expect(try mutagen(Self.listComments, path) == #"""
            ["title=\#(song.title!)", "ARTIST=Zed", "Album=Alpha", "TRACKNUMBER=3", "MOOD=calm", "comment=c1", "COMMENT=c2", "GENRE=Jazz", "GENRE=Fusion"] [8192]

            """#)
        let grown = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        #expect(try tail(path, from: grown - 4000) == audio)
        #expect(AudioComparison.difference(try TagFile(path: Repo.samples + "/Loose Files/no tags at all.flac"), try TagFile(path: path)) == nil)
    }

    /// Ogg Vorbis and Opus, tagged by hand or by another program: the comment packet keeps its
    /// entries' order and spelling and what follows them (mutagen's padding), so the file
    /// keeps its size but for the change.
    @Test(arguments: ["ogg", "opus"])
    func anOggFileKeepsItsCommentsAsWritten(_ kind: String) throws {
        let path = dir.file("\(UUID().uuidString).\(kind)")
        let wav = Repo.samples + "/Field Recordist/Backyard Sessions/01 Morning Birds.wav"
        try Tool.run(kind == "ogg" ? ["oggenc", "-Q", "-o", path, wav] : ["opusenc", "--quiet", wav, path])
        _ = try mutagen("""
            import mutagen
            f = mutagen.File(sys.argv[1]); f.tags.clear()
            for k, v in [("title", "Old"), ("Artist", "A1"), ("Artist", "A2"), ("custom", "c"), ("GENRE", "Folk")]:
                f.tags.append((k, v))
            f.save(padding=lambda info: 500)
            """, path)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        var song = try scan(path)
        song.title = "New"
        song.album = "Album"
        song.genre = nil
        let outcome = try writer.write(song)
        #expect(outcome.remaining.isEmpty, "\(outcome.remaining)")
        let list = "import mutagen\nprint([f'{k}={v}' for k, v in mutagen.File(sys.argv[1]).tags])"
        #expect(try mutagen(list, path) == "['title=New', 'Artist=A1', 'Artist=A2', 'custom=c', 'ALBUM=Album']\n")
        let grown = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        #expect(grown - size == ("New".count - "Old".count) + (4 + "ALBUM=Album".count) - (4 + "GENRE=Folk".count))
    }

    /// The block list of a FLAC, as metaflac names the blocks, with each padding's length.
    func blocks(_ path: String) throws -> String {
        try mutagen("""
            from mutagen.flac import FLAC
            print(" ".join(f"{type(b).__name__}{'=' + str(b.length) if b.code == 1 else ''}" for b in FLAC(sys.argv[1]).metadata_blocks))
            """, path)
    }

    /// A FLAC without comments (no block, as the sample; or none in it, as `flac` makes one):
    /// the block comes after STREAMINFO, or is filled in, and the padding pays for it.
    @Test func aFLACWithoutCommentsGetsThemInItsPadding() throws {
        let path = try copy("Loose Files/no tags at all.flac")
        try Tool.run(["metaflac", "--add-padding=8192", path])
        #expect(try blocks(path) == "StreamInfo SeekTable Padding=8192\n")
        var song = try scan(path)
        song.title = "Now Titled"
        #expect(try writer.write(song).remaining.isEmpty)
        #expect(try blocks(path) == "StreamInfo VCFLACDict SeekTable Padding=8154\n")
        // The block: "Boomic" and one entry, 34 bytes, and its header.
        #expect(try mutagen(Self.listComments, path) == #"["TITLE=Now Titled"] [8154]"# + "\n")
        song = try scan(path)
        song.title = nil
        _ = try writer.write(song)
        #expect(try mutagen(Self.listComments, path) == "[] [8174]\n")
    }

    /// A FLAC whose tags TagLib reads from an ID3v1 tag, its comments holding nothing TagLib
    /// counts (an empty DESCRIPTION): once written, the comments hold every field, since
    /// TagLib reads them from then on.
    @Test func aFLACTaggedInID3OnlyGetsEveryFieldInItsComments() throws {
        let path = try foreignFLAC()
        _ = try mutagen("""
            from mutagen.flac import FLAC
            f = FLAC(sys.argv[1]); f.tags.clear(); f.tags.append(("DESCRIPTION", "")); f.save()
            with open(sys.argv[1], "ab") as out:
                out.write(b"TAG" + b"V1 Title".ljust(30, b"\\0") + b"V1 Artist".ljust(30, b"\\0") + b"V1 Album".ljust(30, b"\\0")
                          + b"2000" + b"\\0" * 30 + bytes([17]))
            """, path)
        var song = try scan(path)
        #expect(song.artists == ["V1 Artist"] && song.album == "V1 Album" && song.year == 2000)
        song.title = "New"
        #expect(try writer.write(song).remaining.isEmpty)
        let back = try scan(path)
        #expect(back.title == "New" && back.artists == ["V1 Artist"] && back.album == "V1 Album" && back.year == 2000 && back.genre == "Rock")
    }

    /// A FLAC whose tags are in an ID3v2 tag in front and which has no comments: its first
    /// write gives the comments every key TagLib read from the ID3 tag, the library's or not
    /// (lyrics, ISRC, a TXXX), since TagLib reads the comments from then on.
    @Test func aFLACTaggedInID3KeepsTheKeysTheLibraryDoesNotKnow() throws {
        let path = try copy("Loose Files/no tags at all.flac")
        _ = try mutagen("""
            from mutagen.id3 import ID3, TIT2, TPE1, TSRC, TXXX, USLT
            t = ID3()
            for f in [TIT2(encoding=3, text="T"), TPE1(encoding=3, text="A"), TSRC(encoding=3, text="USXX10000001"),
                      TXXX(encoding=3, desc="FOO", text="bar"), USLT(encoding=3, lang="eng", desc="", text="la la")]:
                t.add(f)
            t.save(sys.argv[1])
            """, path)
        let before = try TagFile(path: path).properties()
        #expect(before["ISRC"] == ["USXX10000001"] && before["FOO"] == ["bar"] && before["LYRICS"] == ["la la"])
        var song = try scan(path)
        song.title = "New"
        #expect(try writer.write(song).remaining.isEmpty)
        let after = try TagFile(path: path).properties()
        #expect(after["TITLE"] == ["New"] && after["ARTIST"] == ["A"])
        #expect(after["ISRC"] == ["USXX10000001"] && after["FOO"] == ["bar"] && after["LYRICS"] == ["la la"], "\(after)")
    }

    /// A value that is not UTF-8 (Latin-1, from an old tagger) reads as nothing, to TagLib and
    /// so to the library: an edit of another field leaves its entry as it is.
    @Test func aValueThatIsNotUTF8StaysWhenAnotherFieldIsEdited() throws {
        let path = try foreignFLAC()
        _ = try mutagen("""
            d = bytearray(open(sys.argv[1], "rb").read())
            i = d.find(b"Old Title"); d[i:i+9] = b"Caf\\xe9 Titl"
            open(sys.argv[1], "wb").write(d)
            """, path)
        var song = try scan(path)
        song.album = "Other Album"
        #expect(try writer.write(song).remaining.isEmpty)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: Data("title=Caf".utf8) + Data([0xE9]) + Data(" Titl".utf8)) != nil)
    }

    /// A second VORBIS_COMMENT block (not allowed, but met): readers take the first, which the
    /// write edits; the second stays as it was (TagLib's save deleted it).
    @Test func aSecondCommentBlockStays() throws {
        let path = try foreignFLAC()
        // mutagen keeps one comment block: the second goes in by hand, after the first.
        _ = try mutagen("""
            d = bytearray(open(sys.argv[1], "rb").read())
            at = 4
            while True:
                kind, n = d[at] & 0x7F, int.from_bytes(d[at+1:at+4], "big")
                if kind == 4: break
                at += 4 + n
            body = (2).to_bytes(4, "little") + b"v2" + (1).to_bytes(4, "little") + (12).to_bytes(4, "little") + b"TITLE=second"
            end = at + 4 + n
            d[end:end] = bytes([4]) + len(body).to_bytes(3, "big") + body
            open(sys.argv[1], "wb").write(d)
            """, path)
        var song = try scan(path)
        song.title = "First"
        _ = try writer.write(song)
        let both = """
            from mutagen.flac import FLAC
            print([[f"{k}={v}" for k, v in b] for b in FLAC(sys.argv[1]).metadata_blocks if b.code == 4])
            """
        #expect(try mutagen(both, path).contains("['TITLE=second']"))
        #expect(try scan(path).title == "First")
    }

    /// A new cover is edited in too: the front cover's PICTURE block (or, in Ogg, its
    /// METADATA_BLOCK_PICTURE entry) is replaced where it was, a back cover stays, and the
    /// comments keep their order (TagLib's path re-sorted them whenever the cover changed).
    @Test(arguments: ["flac", "ogg"])
    func aNewCoverIsEditedInWithTheComments(_ kind: String) throws {
        let path = kind == "flac" ? try foreignFLAC() : dir.file("\(UUID().uuidString).ogg")
        if kind == "ogg" {
            try Tool.run(["oggenc", "-Q", "-o", path, Repo.samples + "/Field Recordist/Backyard Sessions/01 Morning Birds.wav"])
        }
        _ = try mutagen("""
            import base64, mutagen
            from mutagen.flac import Picture
            def pic(kind, data):
                p = Picture(); p.type = kind; p.mime = "image/png"; p.data = data; p.width = p.height = 32; p.depth = 24; return p
            f = mutagen.File(sys.argv[1])
            if sys.argv[1].endswith(".flac"):
                f.clear_pictures(); f.add_picture(pic(4, b"back")); f.add_picture(pic(3, b"front"))
            else:
                f.tags.clear()
                for k, v in [("title", "Old"), ("Artist", "A")]: f.tags.append((k, v))
                f["metadata_block_picture"] = [base64.b64encode(pic(k, d).write()).decode() for k, d in [(4, b"back"), (3, b"front")]]
            f.save()
            """, path)
        let keys = "import mutagen\nprint([k for k, v in mutagen.File(sys.argv[1]).tags if k.lower() != 'metadata_block_picture'])"
        let before = try mutagen(keys, path)
        var song = try scan(path)
        song.art = try storedCover()
        song.title = "New"
        #expect(try writer.write(song).remaining.isEmpty)
        #expect(try mutagen(keys, path) == before)
        let pictures = """
            import base64, mutagen
            from mutagen.flac import Picture
            f = mutagen.File(sys.argv[1])
            ps = f.pictures if sys.argv[1].endswith(".flac") else [Picture(base64.b64decode(v)) for v in f.get("metadata_block_picture", [])]
            print([(p.type, len(p.data)) for p in ps])
            """
        #expect(try mutagen(pictures, path) == "[(4, 4), (3, 308)]\n")
        #expect(try scan(path).art == song.art)
    }

    @Test func anID3TagInFrontOfAFLACStaysAsItWas() throws {
        let path = try foreignFLAC()
        // Some rippers put an ID3v2 tag before `fLaC`; TagLib rewrote it on every save (TCON
        // `(17)Rock` as `Rock`, TYER moved to the end).
        _ = try mutagen("""
            from mutagen.id3 import ID3, TIT2, TYER, TCON
            t = ID3()
            for f in [TYER(encoding=1, text="2001"), TCON(encoding=1, text="(17)Rock"), TIT2(encoding=1, text="id3 title")]:
                t.add(f)
            t.save(sys.argv[1], v2_version=3, padding=lambda info: 7)
            """, path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let id3Length = try #require(FLACMetadata.markerOffset(head: Array(before.prefix(10))))
        var song = try scan(path)
        #expect(song.title == "Old Title")
        song.title = "New"
        _ = try writer.write(song)
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(after.prefix(id3Length) == before.prefix(id3Length))
        #expect(try scan(path).title == "New")
    }
}
