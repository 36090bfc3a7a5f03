import BoomicTestSupport
import Foundation
import Glibc
import Testing

/// What a file carries inside makes its tracks (issue 34, items 4 and 5): an MP3's chapters come
/// in as its chapters and play one queue entry each (next, previous and the bookmark move by
/// chapter); a FLAC image's embedded CUESHEET tag makes its tracks as a sheet beside it would,
/// and its CUESHEET block alone makes untitled tracks at the block's times.
@Suite struct ChapterImportTests {
    static let titles = ["Opening", "The Middle", "Ending"]
    /// Where the chapters start and the book ends, in milliseconds.
    static let bounds = [0, 2500, 6001, 9000]

    /// A 9-second MP3 (lame) with three chapters in a table of contents, tagged with the book's
    /// title, artist and no album.
    @discardableResult
    static func book(in dir: String, toc: Bool = true) throws -> String {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let wav = dir + "/.book.wav"
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", wav, "synth", "9", "sine", "200-2000", "gain", "-3"])
        let path = dir + "/book.mp3"
        try toolOutput(["lame", "--quiet", "-b", "128", wav, path])
        try FileManager.default.removeItem(atPath: wav)
        let script = """
        import sys, json
        from mutagen.id3 import ID3, CHAP, CTOC, CTOCFlags, TIT2, TPE1
        titles, bounds, toc = json.loads(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4] == '1'
        t = ID3()
        t.add(TIT2(encoding=3, text=['The Book']))
        t.add(TPE1(encoding=3, text=['Reader']))
        ids = ['ch%d' % i for i in range(len(titles))]
        for i, title in enumerate(titles):
            t.add(CHAP(element_id=ids[i], start_time=bounds[i], end_time=bounds[i + 1], start_offset=0xFFFFFFFF,
                       end_offset=0xFFFFFFFF, sub_frames=[TIT2(encoding=3, text=[title])]))
        if toc:
            t.add(CTOC(element_id='toc', flags=CTOCFlags.TOP_LEVEL | CTOCFlags.ORDERED, child_element_ids=ids, sub_frames=[]))
        t.save(sys.argv[1])
        """
        let json = { (v: Any) in String(decoding: try JSONSerialization.data(withJSONObject: v), as: UTF8.self) }
        try toolOutput(["/usr/bin/python3", "-c", script, path, try json(titles), try json(bounds), toc ? "1" : "0"])
        return path
    }

    static func samples(_ ms: Int) -> Int { Int((Double(ms) * 44.1).rounded()) }

    @Test func anMP3WithChaptersComesInAsItsChapters() throws {
        let box = try Sandbox(samples: false)
        let path = try Self.book(in: box.music + "/Reader")
        let run = try box.succeed("import", box.music)
        #expect(run.stderr.isEmpty, "\(run)")
        let songs = try box.songs().sorted { ($0.track ?? 0) < ($1.track ?? 0) }
        try #require(songs.count == 3, "\(songs)")
        #expect(songs.map(\.title) == Self.titles)
        #expect(songs.map(\.track) == [1, 2, 3] && songs.allSatisfy { $0.tracktotal == 3 })
        #expect(songs.allSatisfy { $0.path == path && $0.album == "The Book" && $0.artist == "Reader" && $0.sheet == path })
        #expect(songs.map(\.start) == [0, Self.samples(2500), Self.samples(6001)])
        #expect(songs.map(\.end) == [Self.samples(2500), Self.samples(6001), nil])

        // Nothing changed: nothing is committed; a chapter is edited as any song.
        let history = try box.historyCount()
        try box.succeed("import")
        #expect(try box.historyCount() == history)
        try box.succeed("modify", "title:middle", "genre=Spoken", "-y")
        try box.succeed("import")
        #expect(try box.song("title:middle").genre == "Spoken")
    }

    /// Each chapter is a queue entry: `play` goes through them one by one, each counted.
    @Test func chaptersPlayOneByOne() throws {
        let box = try Sandbox(samples: false)
        try Self.book(in: box.music + "/Reader")
        try box.succeed("import", box.music)
        let run = try box.succeed("play", "album:book", "--output", "null")
        #expect(run.lines == Self.titles.map { "▶ Reader - The Book - " + $0 }, "\(run)")
        #expect(try box.songs().map(\.playcount) == [1, 1, 1])
    }

    /// An audiobook's bookmark is its chapter's: stopped in chapter 2, chapter 2 alone keeps a
    /// place, counted from the chapter's start, and starts there next time.
    @Test func theBookmarkIsTheChapters() throws {
        let box = try Sandbox(samples: false)
        try Self.book(in: box.music + "/Reader")
        try box.succeed("import", box.music)
        try box.succeed("tag", "-y", "album:book", "+#audiobook")
        let out = box.root + "/out.wav"
        let player = try ChildProcess.start(box.executable, ["--library", box.library, "play", "album:book", "--realtime", "--output", "wav:" + out],
                                            environment: ["XDG_DATA_HOME": box.root + "/xdg"])
        // Stopped once chapter 2 has played a little: its second of output is in the file.
        let chapter2 = Self.samples(2500) * 4 + 44 + 44_100 * 4
        try waitUntil("a second of chapter 2 in the output", timeout: .seconds(20)) {
            ((try? FileManager.default.attributesOfItem(atPath: out))?[.size] as? Int ?? 0) >= chapter2
        }
        kill(player.processIdentifier, SIGTERM)
        player.waitUntilExit()
        let songs = try box.songs().sorted { ($0.track ?? 0) < ($1.track ?? 0) }
        try #require(songs.count == 3, "\(songs)")
        #expect(songs[0].bookmark == nil && songs[2].bookmark == nil, "\(songs)")
        let mark = try #require(songs[1].bookmark)
        // In the chapter's own time: inside it (the output runs ahead of what is heard), well before its 3.5 s end.
        #expect(mark > 0.3 && mark < 3.4, "bookmark \(mark)")
        #expect(songs[0].playcount == 1)

        let rest = box.root + "/rest.wav"
        try box.succeed("play", "title:middle", "--output", "wav:" + rest)
        let left = try ToneTracks.wavData(ofFile: rest).count / 4
        let expected = Self.samples(6001) - Self.samples(2500) - Int((mark * 44_100).rounded())
        #expect(abs(left - expected) < 100, "resumed with \(left) frames left, expected about \(expected)")
    }

    /// Next and previous on the terminal move by chapter.
    @Test(.enabled(if: TmuxSession.available, "tmux is installed by scripts/setup"))
    func nextAndPreviousMoveByChapter() throws {
        let box = try Sandbox(samples: false)
        try Self.book(in: box.music + "/Reader")
        try box.succeed("import", box.music)
        let command = "XDG_DATA_HOME='\(box.root)/xdg' '\(box.executable)' --library '\(box.library)' play album:book --output null --realtime; sleep 60"
        let session = try TmuxSession(command)
        defer { session.kill() }
        #expect(try session.waitForScreen { $0.contains("▶ Reader - The Book - Opening") } != nil, "\((try? session.screen()) ?? "")")
        try session.send("n")
        #expect(try session.waitForScreen { $0.contains("The Middle") } != nil, "n: \((try? session.screen()) ?? "")")
        try session.send("n")
        #expect(try session.waitForScreen { $0.contains("Ending") } != nil, "n: \((try? session.screen()) ?? "")")
        try session.send("p")
        #expect(try session.waitForScreen { $0.contains("The Middle") } != nil, "p: \((try? session.screen()) ?? "")")
        try session.send("q")
    }

    /// A FLAC image whose sheet is its CUESHEET tag comes in as the sheet's tracks and plays as
    /// the image; with the CUESHEET block alone, its tracks are the block's, untitled.
    @Test func aFLACsEmbeddedSheetMakesItsTracks() throws {
        let box = try Sandbox(samples: false)
        let dir = box.music + "/Album"
        let image = try CueImage.make(in: dir, sheet: false)
        let text = box.root + "/sheet.cue"
        try CueImage.text.write(toFile: text, atomically: true, encoding: .utf8)
        try toolOutput(["metaflac", "--set-tag-from-file=CUESHEET=\(text)", image])
        let blockOnly = box.music + "/Block/image.flac"
        try FileManager.default.createDirectory(atPath: box.music + "/Block", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: image, toPath: blockOnly)
        try toolOutput(["metaflac", "--remove-tag=CUESHEET", "--import-cuesheet-from=\(text)", blockOnly])
        let run = try box.succeed("import", box.music)
        #expect(run.stderr.isEmpty, "\(run)")

        let tracks = try box.songs("album:" + CueImage.album).sorted { ($0.track ?? 0) < ($1.track ?? 0) }
        try #require(tracks.count == 3, "\(tracks)")
        #expect(tracks.map(\.title) == CueImage.titles)
        #expect(tracks.map(\.start) == CueImage.starts && tracks.map(\.end) == [CueImage.starts[1], CueImage.starts[2], nil])
        #expect(tracks.allSatisfy { $0.path == image && $0.sheet == image && $0.albumartist == CueImage.performer })
        #expect(tracks[0].isrc == "FRZ039800212")
        let album = box.root + "/album.wav"
        try box.succeed("play", "--album", "title:Café", "--output", "wav:" + album)
        #expect(try ToneTracks.wavData(ofFile: album) == CuePlayTests.reference(box, image), "the tracks joined differ from the image")

        let untitled = try box.songs("path:" + blockOnly).sorted { ($0.track ?? 0) < ($1.track ?? 0) }
        try #require(untitled.count == 3, "\(untitled)")
        #expect(untitled.map(\.track) == [1, 2, 3] && untitled.allSatisfy { $0.title == nil && $0.album == "Unknown image" })
        #expect(untitled.map(\.start) == CueImage.starts && untitled.map(\.end) == [CueImage.starts[1], CueImage.starts[2], nil])
        #expect(untitled[0].isrc == "FRZ039800212" && untitled[0].catalognum == "0724384960650")
    }
}
