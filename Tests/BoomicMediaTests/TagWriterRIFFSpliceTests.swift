import BoomicCore
@testable import BoomicMedia
import BoomicTestSupport
import Foundation
import Testing

/// A WAV or an AIFF that another program tagged, written back: its chunks stay where they are
/// (TagLib's save removed the ID3 and INFO chunks and appended new ones, so INFO moved after
/// the audio), the ID3 frames the write did not change keep their bytes (it rendered them all
/// anew: a v2.3 tag's text terminators dropped, TYER and TDAT merged), and the container's
/// size stays right when a chunk grows. Checked on the raw chunks of the file.
extension TagWriterTests {
    /// Each top-level chunk as `ID@offset:size`, then whether the container's size is the
    /// file's length, then the ID3 tag's frames (as `rawFrames`), found in its chunk.
    static let chunkLayout = """
        d = open(sys.argv[1], 'rb').read(); big = d[:4] == b'FORM'; order = 'big' if big else 'little'
        at, out = 12, []
        while at + 8 <= len(d):
            n = int.from_bytes(d[at+4:at+8], order)
            out.append(f"{d[at:at+4].decode('latin-1').strip()}@{at}:{n}")
            if d[at:at+4] in (b'ID3 ', b'id3 '): tag = at + 8
            at += 8 + n + (n & 1)
        print(' '.join(out))
        print('sized', int.from_bytes(d[4:8], order) + 8 == len(d))
        i = tag; v = d[i+3]; size = (d[i+6] << 21) | (d[i+7] << 14) | (d[i+8] << 7) | d[i+9]
        at = i + 10
        while at + 10 < i + 10 + size and d[at] != 0:
            n = int.from_bytes(d[at+4:at+8], 'big') if v == 3 else (d[at+4] << 21) | (d[at+5] << 14) | (d[at+6] << 7) | d[at+7]
            print(d[at:at+4].decode(), d[at+10:at+10+n].hex())
            at += 10 + n
        """

    /// The chunk layout line, the size line, the frames: as `chunkLayout` prints them.
    func layout(_ path: String) throws -> (chunks: String, sized: Bool, frames: [String]) {
        let lines = try mutagen(Self.chunkLayout, path).split(separator: "\n").map(String.init)
        try #require(lines.count >= 2)
        return (lines[0], lines[1] == "sized True", Array(lines.dropFirst(2)))
    }

    /// The sample WAV as a WAV or an AIFF with no other tag, given a v2.3 ID3 chunk as an old tagger leaves it
    /// (UTF-16 text with terminators, an ID3v1 genre reference, the day apart from the year).
    func foreignChunked(_ ext: String) throws -> String {
        let wav = try copy("Loose Files/no tags at all.wav")
        let path = wav + "." + ext
        try Tool.run(["ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", ext == "aiff" ? "pcm_s16be" : "pcm_s16le",
                      "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact", path])
        _ = try mutagen("""
            import mutagen
            from mutagen.id3 import TIT2, TPE1, TYER, TDAT, TCON, TMOO, TXXX, COMM
            f = mutagen.File(sys.argv[1]); f.add_tags()
            for fr in [TYER(encoding=1, text="2001"), TDAT(encoding=1, text="0503"), TCON(encoding=1, text="(17)Rock"),
                       TIT2(encoding=1, text="Old"), TPE1(encoding=1, text="The Artist"), TMOO(encoding=1, text="calm"),
                       TXXX(encoding=1, desc="CUSTOM", text="c"), COMM(encoding=1, lang="eng", desc="", text="a comment")]:
                f.tags.add(fr)
            f.save(v2_version=3)
            """, path)
        return path
    }

    func pcm(_ path: String) throws -> [UInt8] { try output(["sox", path, "-t", "raw", "-"]) }

    @Test(arguments: ["wav", "aiff"])
    func untouchedFramesAndChunksOfAWAVOrAIFFStayAsTheyWere(_ ext: String) throws {
        let path = try foreignChunked(ext)
        let before = try layout(path)
        let audio = try pcm(path)
        var song = try scan(path)
        #expect(song.title == "Old" && song.date == "2001-03-05")
        song.title = "New Title"
        #expect(try writer.write(song).remaining.isEmpty)
        let after = try layout(path)
        #expect(after.chunks == before.chunks, "every chunk where it was, as big as it was")
        #expect(after.sized)
        #expect(after.frames.count == before.frames.count)
        for (a, b) in zip(after.frames, before.frames) where !b.hasPrefix("TIT2") { #expect(a == b) }
        #expect(after.frames.first { $0.hasPrefix("TIT2") } != before.frames.first { $0.hasPrefix("TIT2") })
        #expect(try pcm(path) == audio)
        let back = try scan(path)
        #expect(back.title == "New Title" && back.date == "2001-03-05" && back.genre == "Rock")
    }

    /// A tag that outgrows its chunk's room: the chunk grows where it is, with room for the next
    /// edits, the container's size follows, and nothing else moves.
    @Test(arguments: ["wav", "aiff"])
    func aGrownID3ChunkStaysInPlace(_ ext: String) throws {
        let path = try foreignChunked(ext)
        let before = try layout(path)
        let audio = try pcm(path)
        var song = try scan(path)
        song.comment = String(repeating: "a long comment ", count: 300)
        #expect(try writer.write(song).remaining.isEmpty)
        let after = try layout(path)
        let ids = { (l: String) in l.split(separator: " ").map { $0.prefix { $0 != "@" } } }
        #expect(ids(after.chunks) == ids(before.chunks))
        #expect(after.chunks.split(separator: " ").dropLast() == before.chunks.split(separator: " ").dropLast(),
                "the ID3 chunk is the last: the others did not move")
        #expect(after.sized)
        #expect(Array(after.frames.prefix(7)) == Array(before.frames.prefix(7)), "all but the comment as they were")
        #expect(try pcm(path) == audio)
        #expect(try scan(path).comment == song.comment)
    }

    /// A WAV tagged in RIFF INFO alone, given a composer (an ID3 chunk of its own) and then a
    /// new title: the title goes into INFO alone, not into the composer's chunk, and taking both
    /// back gives the file back byte for byte (a copy of the title in the ID3 chunk outlived it).
    @Test func editsOfAnInfoTaggedWAVAndTheirUndoGiveTheFileBack() throws {
        let path = try infoTaggedWAV(["artist=Info Artist", "title=Info Title", "comment=ffc"])
        let original = try bytes(of: path)
        let first = try scan(path)
        var song = first
        song.composer = "Someone"
        #expect(try writer.write(song).remaining.isEmpty)
        song = try scan(path)
        song.title = "T2"
        song.album = "An Album"
        #expect(try writer.write(song).remaining.isEmpty)
        #expect(try layout(path).frames.map { $0.prefix(4) } == ["TCOM"], "the ID3 chunk holds the composer alone")
        let edited = try scan(path)
        #expect(edited.title == "T2" && edited.album == "An Album" && edited.composer == "Someone")
        var back = edited
        back.title = first.title
        back.album = first.album
        back.composer = nil
        #expect(try writer.write(back).remaining.isEmpty)
        #expect(try bytes(of: path) == original)
    }

    /// A WAV tagged in RIFF INFO alone keeps its INFO chunk where it was, before the audio
    /// (TagLib's save moved it after), rewritten with the new title.
    @Test func anInfoChunkIsRewrittenInPlace() throws {
        let path = try infoTaggedWAV(["artist=Info Artist", "title=Info Title"])
        let chunks = """
            d = open(sys.argv[1], 'rb').read(); at, out = 12, []
            while at + 8 <= len(d):
                n = int.from_bytes(d[at+4:at+8], 'little'); out.append(d[at:at+4].decode().strip()); at += 8 + n + (n & 1)
            print(' '.join(out), int.from_bytes(d[4:8], 'little') + 8 == len(d))
            """
        let before = try mutagen(chunks, path)
        #expect(before.hasPrefix("fmt LIST data"), "\(before)")
        var song = try scan(path)
        song.title = "A New Title"
        #expect(try writer.write(song).remaining.isEmpty)
        #expect(try mutagen(chunks, path) == before)
        let back = try scan(path)
        #expect(back.title == "A New Title" && back.artists == ["Info Artist"])
    }
}
