import BoomicCore
import BoomicMedia
import BoomicTestSupport
import Foundation
import Testing

/// An MP3's ID3v2 chapters (`CHAP` frames ordered by `CTOC`), as mutagen writes them, read
/// through the one open of the file a scan makes.
@Suite struct ChapterTests {
    let dir = TempDir("boomic-chapters")

    /// A 3-second MP3 (lame) whose ID3v2 tag mutagen builds from `frames`, Python expressions
    /// over mutagen.id3's names (`NONE` is the unset byte offset).
    func mp3(_ name: String, _ frames: [String], version: Int = 4) throws -> String {
        let path = dir.file(name)
        let wav = dir.file(name + ".wav")
        try Tool.tone(wav, seconds: 3)
        try Tool.run(["lame", "--quiet", "-b", "128", wav, path])
        let script = """
        import sys
        from mutagen.id3 import ID3, CHAP, CTOC, CTOCFlags, TIT2, TALB, TPE1
        NONE = 0xFFFFFFFF
        TOP = CTOCFlags.TOP_LEVEL | CTOCFlags.ORDERED
        def chap(i, s, e, title=None, so=NONE, eo=NONE):
            subs = [TIT2(encoding=3, text=[title])] if title is not None else []
            return CHAP(element_id=i, start_time=s, end_time=e, start_offset=so, end_offset=eo, sub_frames=subs)
        def toc(i, children, top=True):
            return CTOC(element_id=i, flags=TOP if top else CTOCFlags.ORDERED, child_element_ids=children, sub_frames=[])
        t = ID3()
        t.add(TALB(encoding=3, text=['Book']))
        t.add(TPE1(encoding=3, text=['Reader']))
        for f in [\(frames.joined(separator: ", "))]:
            t.add(f)
        t.save(sys.argv[1], v2_version=int(sys.argv[2]))
        """
        try Tool.python(script, [path, String(version)])
        return path
    }

    func spans(_ chapters: [MediaChapter]) -> [String] {
        chapters.map { "\($0.title ?? "-") \($0.startMilliseconds)-\($0.endMilliseconds)" }
    }

    @Test func chaptersFollowTheTableOfContentsWithTitlesAndOffsets() throws {
        let path = try mp3("toc.mp3", [
            "chap('c1', 0, 1000, 'Één')",
            "chap('c2', 1000, 2000, 'Two', so=100, eo=200)",
            "chap('c3', 2000, 3000)",
            "toc('toc', ['c2', 'c1', 'c3'])",
        ])
        let file = try TagFile(path: path)
        let chapters = file.chapters()
        #expect(spans(chapters) == ["Two 1000-2000", "Één 0-1000", "- 2000-3000"])
        #expect(chapters[0].startByte == 100 && chapters[0].endByte == 200)
        #expect(chapters[1].startByte == nil && chapters[1].endByte == nil)
        // The chapters' titles are theirs, not the file's.
        #expect(file.properties()["TITLE"] == nil)
        #expect(file.properties()["ALBUM"] == ["Book"])
    }

    @Test func anID3v23TagHasItsChaptersToo() throws {
        let path = try mp3("v23.mp3", ["chap('c1', 0, 1500, 'One')", "chap('c2', 1500, 3000, 'Two')", "toc('t', ['c2', 'c1'])"],
                           version: 3)
        #expect(try bytes(of: path)[3] == 3)
        #expect(spans(try TagFile(path: path).chapters()) == ["Two 1500-3000", "One 0-1500"])
    }

    @Test func withoutATableChaptersGoByStartTime() throws {
        let path = try mp3("notoc.mp3", [
            "chap('b', 2000, 3000, 'Third')",
            "chap('a', 0, 1000, 'First')",
            "chap('z', 1000, 2000, 'Second')",
        ])
        #expect(spans(try TagFile(path: path).chapters()) == ["First 0-1000", "Second 1000-2000", "Third 2000-3000"])
    }

    /// A nested table is read in place; a chapter no table lists follows by start time; a
    /// table naming itself or an unknown id, and a repeated chapter, add nothing.
    @Test func nestedTablesUnlistedChaptersAndLoops() throws {
        let path = try mp3("nested.mp3", [
            "chap('c1', 0, 500, 'A')",
            "chap('c2', 500, 1000, 'B')",
            "chap('c3', 1000, 1500, 'C')",
            "chap('c4', 2500, 3000, 'Late')",
            "chap('c5', 1500, 2500, 'Unlisted')",
            "toc('top', ['c1', 'part', 'nope', 'c1', 'top'])",
            "toc('part', ['c3', 'c2', 'top'], top=False)",
        ])
        #expect(spans(try TagFile(path: path).chapters())
            == ["A 0-500", "C 1000-1500", "B 500-1000", "Unlisted 1500-2500", "Late 2500-3000"])
    }

    /// What the frames say is reported as it is (ends before starts, overlaps, times past the
    /// file's end, zero lengths): making songs of chapters is where they are judged.
    @Test func hostileTimesAreReportedAsTheFramesSayThem() throws {
        let path = try mp3("hostile.mp3", [
            "chap('a', 2000, 1000, 'Backwards')",
            "chap('b', 500, 2500, 'Overlaps')",
            "chap('c', 90000, 99000, 'Past the end')",
            "chap('d', 700, 700, 'Empty')",
        ])
        #expect(spans(try TagFile(path: path).chapters())
            == ["Overlaps 500-2500", "Empty 700-700", "Backwards 2000-1000", "Past the end 90000-99000"])
    }

    @Test func aHugeCountIsCapped() throws {
        let path = try mp3("many.mp3", ["*[chap('c%d' % i, i, i + 1, 'Ch %d' % i) for i in range(1500)]"])
        let chapters = try TagFile(path: path).chapters()
        #expect(chapters.count == 1000)
        #expect(chapters.last?.title == "Ch 999")
    }

    @Test func aFileWithoutChaptersHasNone() throws {
        let path = try mp3("plain.mp3", [])
        #expect(try TagFile(path: path).chapters().isEmpty)
        let flac = dir.file("plain.flac")
        try Tool.tone(flac)
        #expect(try TagFile(path: flac).chapters().isEmpty)
    }

    /// The scan's one read of the file carries the chapters on its facts.
    @Test func theScanCarriesTheChapters() throws {
        let path = try mp3("scan.mp3", ["chap('c1', 0, 1500, 'One')", "chap('c2', 1500, 3000, 'Two')", "toc('t', ['c1', 'c2'])"])
        let art = try ArtStore(directory: dir.file("art"))
        let listed = try #require(try MediaScanner.list(roots: [path]).first)
        let facts = try MediaScanner.read(listed, art: art).get()
        #expect(facts.chapters == [MediaChapter(title: "One", startMilliseconds: 0, endMilliseconds: 1500),
                                   MediaChapter(title: "Two", startMilliseconds: 1500, endMilliseconds: 3000)])
        #expect(facts.album == "Book" && facts.title == nil)
    }
}
