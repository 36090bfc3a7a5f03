import BoomicCore
@testable import BoomicMedia
import BoomicTestSupport
import Foundation
import Testing

/// What a write must leave alone in files other programs tagged: the values the library keeps
/// one of (a second COMMENT, a comment in another language), and the fields of the tags beside
/// the one Boomic reads (ID3v1, APE on an MP3) that the edit did not touch. Checked with
/// mutagen's view of the raw tags.
extension TagWriterTests {
    /// Runs a mutagen script on `path` (`sys.argv[1]`) and returns its standard output.
    func mutagen(_ script: String, _ path: String) throws -> String {
        try Tool.run(["/usr/bin/python3", "-c", "import sys, json\n" + script, path])
    }

    @Test func commentsInOtherLanguagesStay() throws {
        let path = try copy("Loose Files/no tags at all.mp3")
        _ = try mutagen("""
            from mutagen.id3 import ID3, COMM, TIT2
            t = ID3()
            t.add(TIT2(encoding=3, text="T"))
            t.add(COMM(encoding=3, lang="eng", desc="", text="english comment"))
            t.add(COMM(encoding=3, lang="deu", desc="", text="deutscher Kommentar"))
            t.add(COMM(encoding=0, lang="eng", desc="iTunNORM", text=" 0000044E 00000000"))
            t.save(sys.argv[1], v2_version=3)
            """, path)
        var song = try scan(path)
        #expect(song.comment == "english comment")
        song.comment = "C2"
        _ = try writer.write(song)
        let comments = """
            from mutagen.id3 import ID3
            print(json.dumps(sorted(f"{f.lang}|{f.desc}|{f.text[0]}" for f in ID3(sys.argv[1]).getall("COMM"))))
            """
        #expect(try mutagen(comments, path) == #"["deu||deutscher Kommentar", "eng|iTunNORM| 0000044E 00000000", "eng||C2"]"# + "\n")
        song = try scan(path)
        #expect(song.comment == "C2")
        song.comment = nil
        _ = try writer.write(song)
        #expect(try mutagen(comments, path) == #"["eng|iTunNORM| 0000044E 00000000"]"# + "\n")
    }

    @Test func aSecondVorbisCommentStays() throws {
        let path = try copy("Loose Files/no tags at all.flac")
        _ = try mutagen("""
            from mutagen.flac import FLAC
            f = FLAC(sys.argv[1]); f["COMMENT"] = ["c1", "c2"]; f.save()
            """, path)
        var song = try scan(path)
        #expect(song.comment == "c1")
        song.comment = "C2"
        _ = try writer.write(song)
        let read = "from mutagen.flac import FLAC\nprint(json.dumps(FLAC(sys.argv[1]).get('COMMENT')))"
        #expect(try mutagen(read, path) == #"["C2", "c2"]"# + "\n")
        song = try scan(path)
        song.comment = "c1"  // an undo, written back
        _ = try writer.write(song)
        #expect(try mutagen(read, path) == #"["c1", "c2"]"# + "\n")
    }

    /// An ID3v1.1 tag beside ID3v2 whose TRCK is missing: an album edit changes the v1 album
    /// and nothing else (its track number and empty comment stay).
    @Test func anID3v1TagChangesOnlyInTheEditedField() throws {
        let path = try copy("Loose Files/no tags at all.mp3")
        _ = try mutagen("""
            from mutagen.id3 import ID3, TIT2, TALB, COMM
            t = ID3()
            t.add(TIT2(encoding=1, text="V2 Title")); t.add(TALB(encoding=1, text="V2 Album"))
            t.add(COMM(encoding=1, lang="eng", desc="", text="v2 comment"))
            t.save(sys.argv[1], v2_version=3, v1=0)
            with open(sys.argv[1], "ab") as f:  # after: mutagen would fill it from the ID3v2 tag
                f.write(b"TAG" + b"V1 Title".ljust(30, b"\\0") + b"V1 Artist".ljust(30, b"\\0") + b"V1 Album".ljust(30, b"\\0")
                        + b"1987" + b"".ljust(28, b"\\0") + b"\\0" + bytes([3, 17]))
            """, path)
        var song = try scan(path)
        #expect(song.album == "V2 Album")
        song.album = "A2"
        _ = try writer.write(song)
        let v1 = """
            data = open(sys.argv[1], "rb").read()[-128:]
            assert data[:3] == b"TAG"
            field = lambda a, b: data[a:b].rstrip(b"\\0").decode("latin-1")
            print(json.dumps([field(3, 33), field(33, 63), field(63, 93), field(93, 97), field(97, 125), data[125], data[126]]))
            """
        let tag = try mutagen(v1, path)
        #expect(tag == #"["V1 Title", "V1 Artist", "A2", "1987", "", 0, 3]"# + "\n")
    }

    @Test func anAPETagBesideID3v2IsUpdatedToo() throws {
        let path = try copy("Loose Files/no tags at all.mp3")
        _ = try mutagen("""
            from mutagen.id3 import ID3, TIT2
            from mutagen.apev2 import APEv2
            t = ID3(); t.add(TIT2(encoding=3, text="Id3 Title")); t.save(sys.argv[1], v2_version=4)
            a = APEv2(); a["Title"] = "Ape Title"; a["Artist"] = "Ape Artist"; a.save(sys.argv[1])
            """, path)
        var song = try scan(path)
        #expect(song.title == "Id3 Title")
        song.title = "T3"
        _ = try writer.write(song)
        let read = """
            from mutagen.apev2 import APEv2
            from mutagen.id3 import ID3
            a = APEv2(sys.argv[1])
            print(json.dumps([str(ID3(sys.argv[1])["TIT2"]), str(a["Title"]), str(a["Artist"])]))
            """
        #expect(try mutagen(read, path) == #"["T3", "T3", "Ape Artist"]"# + "\n")
    }
}
