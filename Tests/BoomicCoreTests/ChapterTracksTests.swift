import BoomicCore
import Testing

/// How an MP3's chapters and a FLAC's CUESHEET block become songs (pure: facts in, facts out).
@Suite struct ChapterTracksTests {
    func mp3(_ chapters: [MediaChapter], seconds: Double = 10) -> FileFacts {
        var f = FileFacts(path: "/m/book.mp3", size: 1, mtime: 1)
        f.title = "The Book"
        f.artists = ["Reader"]
        f.samplerate = 44_100
        f.duration = seconds
        f.mbTrackID = "whole-file"
        f.chapters = chapters
        return f
    }

    func ch(_ title: String?, _ start: Int, _ end: Int) -> MediaChapter {
        MediaChapter(title: title, startMilliseconds: start, endMilliseconds: end)
    }

    @Test func eachChapterIsASongOfItsRange() throws {
        let tracks = try #require(mp3([ch("One", 0, 2500), ch("Two", 2500, 6001), ch(nil, 6001, 10_000)]).chapterTracks())
        #expect(tracks.map(\.title) == ["One", "Two", nil])
        #expect(tracks.map(\.track) == [1, 2, 3] && tracks.allSatisfy { $0.tracktotal == 3 })
        // 44.1 samples a millisecond, rounded: each chapter ends where the next begins.
        #expect(tracks.map(\.start) == [0, 110_250, 264_644])
        #expect(tracks.map(\.end) == [110_250, 264_644, nil])
        #expect(tracks.map(\.duration) == [2.5, 154_394.0 / 44_100, 176_356.0 / 44_100])
        // The file's tags are every chapter's; its title names the book.
        #expect(tracks.allSatisfy { $0.album == "The Book" && $0.artists == ["Reader"] && $0.mbTrackID == nil })
        #expect(tracks.allSatisfy { $0.chapters.isEmpty && $0.path == "/m/book.mp3" && $0.sheet == "/m/book.mp3" })
    }

    @Test func theTablesOrderIsTheTrackOrder() throws {
        let tracks = try #require(mp3([ch("B", 5000, 10_000), ch("A", 0, 5000)]).chapterTracks())
        #expect(tracks.map(\.title) == ["B", "A"] && tracks.map(\.start) == [220_500, 0])
    }

    /// Zero-length and backwards chapters, ones past the end and a repeated start are left out;
    /// an end past the file's end plays to the end; overlaps keep their spans.
    @Test func hostileChaptersAreMendedOrLeftOut() throws {
        let tracks = try #require(mp3([
            ch("Empty", 1000, 1000), ch("Backwards", 3000, 2000), ch("A", 0, 4000), ch("Overlap", 3000, 6000),
            ch("Same start", 3000, 7000), ch("Past", 10_000, 12_000), ch("Long", 6000, 99_000),
        ]).chapterTracks())
        #expect(tracks.map(\.title) == ["A", "Overlap", "Long"])
        #expect(tracks.map(\.end) == [176_400, 264_600, nil])
        #expect(tracks.map(\.track) == [1, 2, 3])
    }

    @Test func noUsableChapterLeavesTheFileOneSong() {
        #expect(mp3([]).chapterTracks() == nil)
        #expect(mp3([ch("x", 500, 500), ch("y", 20_000, 30_000)]).chapterTracks() == nil)
    }

    @Test func aBlocksTracksSpanIndex01ToIndex01() throws {
        var f = FileFacts(path: "/m/image.flac", size: 1, mtime: 1)
        f.samplerate = 44_100
        f.duration = 3
        f.album = "Live"
        f.title = "whole image"
        let block = CueSheetBlock(catalog: "1234567890123", leadIn: 88_200, isCD: true, tracks: [
            .init(number: 1, offset: 0, indexes: [.init(number: 1, offset: 588)]),
            .init(number: 2, offset: 44_100, isrc: "GBAAA0000001", indexes: [.init(number: 0, offset: 0), .init(number: 1, offset: 17_640)]),
            .init(number: 3, offset: 94_080, indexes: [.init(number: 1, offset: 0)]),
            .init(number: 170, offset: 132_300, indexes: []),
        ])
        let tracks = try #require(f.blockTracks(block))
        #expect(tracks.map(\.start) == [0, 61_740, 94_080] && tracks.map(\.end) == [61_740, 94_080, nil])
        #expect(tracks.map(\.track) == [1, 2, 3] && tracks.allSatisfy { $0.title == nil && $0.album == "Live" })
        #expect(tracks[1].sheetFields == ["isrc=GBAAA0000001", "catalognum=1234567890123"])
        #expect(tracks.allSatisfy { $0.sheet == "/m/image.flac" })

        var outOfOrder = block
        outOfOrder.tracks.swapAt(1, 2)
        #expect(f.blockTracks(outOfOrder) == nil)
        var pastTheEnd = block
        pastTheEnd.tracks[2].offset = 200_000
        #expect(f.blockTracks(pastTheEnd) == nil)
        #expect(f.blockTracks(CueSheetBlock(isCD: true, tracks: [block.tracks[3]])) == nil)
    }

    static let sheet = """
        PERFORMER "Band"
        TITLE "Live"
        FILE "image.wav" WAVE
          TRACK 01 AUDIO
            TITLE "One"
            INDEX 01 00:00:00
          TRACK 02 AUDIO
            TITLE "Two"
            INDEX 01 00:01:30

        """

    func image(tag: String?, block: Bool) -> FileFacts {
        var f = FileFacts(path: "/m/image.flac", size: 1, mtime: 1)
        f.samplerate = 44_100
        f.duration = 3
        f.cueSheetTag = tag
        if block {
            f.cueSheetBlock = CueSheetBlock(isCD: true, tracks: [
                .init(number: 1, offset: 0, indexes: [.init(number: 1, offset: 0)]),
                .init(number: 2, offset: 44_100, indexes: [.init(number: 1, offset: 0)]),
                .init(number: 170, offset: 132_300, indexes: []),
            ])
        }
        return f
    }

    /// The tag's text wins over the block; a tag that is no sheet is one warning, then the
    /// block gives the tracks; a file a sheet beside it already cut is left alone.
    @Test func anEmbeddedSheetsTextThenItsBlock() throws {
        var warnings: [String] = []
        let tracks = try #require(image(tag: Self.sheet, block: true).embeddedTracks { warnings.append($0) })
        #expect(warnings.isEmpty)
        #expect(tracks.map(\.title) == ["One", "Two"] && tracks.map(\.start) == [0, 61_740] && tracks.map(\.end) == [61_740, nil])
        #expect(tracks.allSatisfy { $0.album == "Live" && $0.sheet == "/m/image.flac" && $0.cueSheetTag == nil && $0.cueSheetBlock == nil })

        let fallback = try #require(image(tag: "not a sheet", block: true).embeddedTracks { warnings.append($0) })
        #expect(fallback.map(\.start) == [0, 44_100] && fallback.map(\.title) == [nil, nil])
        #expect(warnings.count == 1 && warnings[0].hasPrefix("embedded CUE sheet of /m/image.flac: ")
            && warnings[0].hasSuffix("; its CUESHEET block gives the tracks"), "\(warnings)")

        #expect(image(tag: "not a sheet", block: false).embeddedTracks { warnings.append($0) } == nil)
        #expect(warnings.count == 2 && warnings[1].hasSuffix("; it comes in as one song"))
        var cut = image(tag: Self.sheet, block: true)
        cut.start = 0
        #expect(cut.embeddedTracks { warnings.append($0) } == nil)
        #expect(FileFacts(path: "/m/a.flac", size: 1, mtime: 1).embeddedTracks { warnings.append($0) } == nil)
        #expect(warnings.count == 2)
    }
}
