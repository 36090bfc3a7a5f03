import BoomicCore
@testable import BoomicMedia
import BoomicTestSupport
import Foundation
import Testing

/// An MP3 that another program tagged, written back: the ID3v2 frames the write did not change
/// keep their bytes and places (TagLib's save re-rendered them all: `(17)Rock` became `Rock`, a
/// v2.3 tag lost its TMOO and TDAT), changed ones are rewritten where they were, new ones come
/// last, and the tag's padding takes up the change. Checked on the raw frames of the file.
extension TagWriterTests {
    /// Each frame of the file's ID3v2 tag, in order, as `ID hex-of-body`, then the tag's size.
    static let rawFrames = """
        d = open(sys.argv[1], 'rb').read()
        v = d[3]; size = (d[6] << 21) | (d[7] << 14) | (d[8] << 7) | d[9]
        at = 10
        while at + 10 < 10 + size and d[at] != 0:
            n = int.from_bytes(d[at+4:at+8], 'big') if v == 3 else (d[at+4] << 21) | (d[at+5] << 14) | (d[at+6] << 7) | d[at+7]
            print(d[at:at+4].decode(), d[at+10:at+10+n].hex())
            at += 10 + n
        print('size', size)
        """

    func id3Frames(_ path: String) throws -> [String] {
        try mutagen(Self.rawFrames, path).split(separator: "\n").map(String.init)
    }

    /// A v2.3 tag as Mp3tag or an old ripper leaves it: UTF-16 text with terminators, a genre as
    /// an ID3v1 reference, the day apart from the year, and frames of v2.4 (mood, sort names).
    func foreignMP3() throws -> String {
        let path = try copy("Loose Files/no tags at all.mp3")
        _ = try mutagen("""
            from mutagen.id3 import ID3, TIT2, TPE1, TSOP, TMOO, TYER, TDAT, TCON, TXXX, COMM
            t = ID3()
            for f in [TYER(encoding=1, text="2001"), TDAT(encoding=1, text="0503"), TCON(encoding=1, text="(17)Rock"),
                      TIT2(encoding=1, text="Old"), TPE1(encoding=1, text="The Artist"), TSOP(encoding=1, text="Artist, The"),
                      TMOO(encoding=1, text="calm"), TXXX(encoding=1, desc="CUSTOM", text="c"),
                      COMM(encoding=1, lang="eng", desc="", text="a comment")]:
                t.add(f)
            t.save(sys.argv[1], v2_version=3)
            """, path)
        return path
    }

    @Test func untouchedFramesOfAnMP3KeepTheirBytesAndPlaces() throws {
        let path = try foreignMP3()
        let before = try id3Frames(path)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        var song = try scan(path)
        song.title = "New Title"
        #expect(try writer.write(song).remaining.isEmpty)
        let after = try id3Frames(path)
        #expect(after.count == before.count)
        for (a, b) in zip(after, before) where !b.hasPrefix("TIT2") { #expect(a == b) }
        #expect(after.first { $0.hasPrefix("TIT2") } != before.first { $0.hasPrefix("TIT2") })
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int == size)
        #expect(try scan(path).title == "New Title")
    }

    @Test func aYearEditedInAV23TagReplacesItsYearAndDayWhereTheyWere() throws {
        let path = try foreignMP3()
        let before = try id3Frames(path)
        var song = try scan(path)
        #expect(song.date == "2001-03-05")
        song.year = 1999
        song.date = nil
        _ = try writer.write(song)
        let after = try id3Frames(path)
        // TYER in its place, TDAT gone with the old date; every other frame as it was.
        #expect(after.map { $0.prefix(4) } == before.map { $0.prefix(4) }.filter { $0 != "TDAT" })
        #expect(after.contains("TYER 00" + Array("1999".utf8).map { String(format: "%02x", $0) }.joined()))
        for frame in before where !frame.hasPrefix("TYER") && !frame.hasPrefix("TDAT") && !frame.hasPrefix("size") {
            #expect(after.contains(frame), "\(frame)")
        }
        let back = try scan(path)
        #expect(back.year == 1999 && back.date == nil)
    }

    /// A v2.3 genre and people list are rendered as TagLib renders them in v2.3 (ID3v1 genre
    /// references, IPLS), in place, and the frames v2.3 lacks (the mood) stay.
    @Test func aV23GenreEditKeepsTheMood() throws {
        let path = try foreignMP3()
        let before = try id3Frames(path)
        var song = try scan(path)
        song.genre = "Jazz; Fusion"
        #expect(try writer.write(song).remaining.isEmpty)
        let after = try id3Frames(path)
        #expect(after.map { $0.prefix(4) } == before.map { $0.prefix(4) })
        for (a, b) in zip(after, before) where !b.hasPrefix("TCON") && !b.hasPrefix("size") { #expect(a == b) }
        // "(8)(30)": both genres are ID3v1's (Jazz 8, Fusion 30), as TagLib writes them in v2.3.
        #expect(after.contains("TCON 00" + Array("(8)(30)".utf8).map { String(format: "%02x", $0) }.joined()))
        #expect(try scan(path).genre == "Jazz; Fusion")
    }

    /// A date given to a v2.3 tag that had a day (TDAT) but no year: one TYER and one TDAT
    /// (the old day went with the old date), read back as the new date, spliced (the mood,
    /// which TagLib's save would drop, is still there).
    @Test func aNewDateInAV23TagReplacesAnOldDay() throws {
        let path = try copy("Loose Files/no tags at all.mp3")
        _ = try mutagen("""
            from mutagen.id3 import ID3, TIT2, TDAT, TMOO
            t = ID3()
            for f in [TIT2(encoding=1, text="T"), TDAT(encoding=1, text="0605"), TMOO(encoding=1, text="calm")]: t.add(f)
            t.save(sys.argv[1], v2_version=3)
            """, path)
        var song = try scan(path)
        song.date = "2021-03-04"
        song.year = 2021
        #expect(try writer.write(song).remaining.isEmpty)
        let frames = try id3Frames(path)
        #expect(frames.filter { $0.hasPrefix("TDAT") }.count == 1)
        #expect(frames.contains { $0.hasPrefix("TMOO") })
        #expect(try scan(path).date == "2021-03-04")
    }

    /// Two tags stacked at the start (some taggers left them): TagLib reads the second as the
    /// first's padding and replaces both; the splice leaves such a file to it.
    @Test func stackedTagsAreReplacedWhole() throws {
        let path = try copy("Loose Files/no tags at all.mp3")
        _ = try mutagen("""
            from mutagen.id3 import ID3, TIT2
            t = ID3(); t.add(TIT2(encoding=3, text="T")); t.save(sys.argv[1], v2_version=4, padding=lambda info: 0)
            d = open(sys.argv[1], "rb").read(); n = 10 + ((d[6] << 21) | (d[7] << 14) | (d[8] << 7) | d[9])
            open(sys.argv[1], "wb").write(d[:n] + d[:n] + d[n:])
            """, path)
        var song = try scan(path)
        song.title = "New"
        _ = try writer.write(song)
        let after = try mutagen("""
            d = open(sys.argv[1], "rb").read(); n = 10 + ((d[6] << 21) | (d[7] << 14) | (d[8] << 7) | d[9])
            print(d[n:n+3] == b"ID3")
            """, path)
        #expect(after == "False\n")
        #expect(try scan(path).title == "New")
    }

    @Test func newFramesFollowAndAGrownTagMovesTheAudioWhole() throws {
        let path = try copy("Loose Files/no tags at all.mp3")
        _ = try mutagen("""
            from mutagen.id3 import ID3, TIT2, TCON, PRIV
            t = ID3()
            for f in [TCON(encoding=3, text="(17)Rock"), PRIV(owner="WM/Provider", data=b"\\x01\\x02"), TIT2(encoding=3, text="T")]:
                t.add(f)
            t.save(sys.argv[1], v2_version=4, padding=lambda info: 16)
            """, path)
        let audio = try decoded(path)
        let before = try id3Frames(path)
        var song = try scan(path)
        song.composer = "Bach; Händel"
        song.comment = String(repeating: "a long comment ", count: 100)
        #expect(try writer.write(song).remaining.isEmpty)
        let after = try id3Frames(path)
        // The file's frames first, as they were; the new ones after them.
        #expect(Array(after.prefix(3)) == Array(before.prefix(3)))
        #expect(after.dropFirst(3).dropLast().map { $0.prefix(4) }.sorted() == ["COMM", "TCOM"])
        #expect(try decoded(path) == audio)
        let back = try scan(path)
        #expect(back.composer == "Bach; Händel" && back.genre == "Rock")
    }
}
