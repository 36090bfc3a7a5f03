import BoomicCore
import BoomicMedia
import BoomicTestSupport
import Foundation
import Testing

/// A FLAC image's embedded sheet: the `CUESHEET` tag (the sheet's text) and the `CUESHEET`
/// metadata block (times only), as metaflac writes them, read in the scan's one open.
@Suite struct EmbeddedCueSheetTests {
    let dir = TempDir("boomic-embedded-cue")

    static let sheet = """
        REM GENRE Rock
        CATALOG 1234567890123
        PERFORMER "Band"
        TITLE "Live"
        FILE "image.wav" WAVE
          TRACK 01 AUDIO
            TITLE "One"
            INDEX 01 00:00:00
          TRACK 02 AUDIO
            TITLE "Twö"
            ISRC GBAAA0000001
            INDEX 00 00:01:00
            INDEX 01 00:01:30
          TRACK 03 AUDIO
            TITLE "Three"
            INDEX 01 00:02:10

        """

    /// A 3-second CD-format FLAC image, with the block (`block`) and the tag (`tag`) as asked.
    func image(_ name: String, block: Bool, tag: Bool) throws -> String {
        let path = dir.file(name)
        try Tool.tone(path, seconds: 3)
        let cue = dir.file(name + ".cue")
        try Self.sheet.write(toFile: cue, atomically: true, encoding: .utf8)
        if block { try Tool.run(["metaflac", "--import-cuesheet-from=\(cue)", path]) }
        if tag { try Tool.run(["metaflac", "--set-tag-from-file=CUESHEET=\(cue)", path]) }
        return path
    }

    func facts(_ path: String) throws -> FileFacts {
        let art = try ArtStore(directory: dir.file("art"))
        let listed = try #require(try MediaScanner.list(roots: [path]).first)
        return try MediaScanner.read(listed, art: art).get()
    }

    @Test func blockAndTagComeInOneRead() throws {
        let facts = try facts(try image("both.flac", block: true, tag: true))
        #expect(facts.cueSheetTag == Self.sheet)
        let block = try #require(facts.cueSheetBlock)
        #expect(block.isCD && block.leadIn == 88200 && block.catalog == "1234567890123")
        #expect(block.audioTracks.map(\.number) == [1, 2, 3])
        // 75 CD frames a second, 588 samples a frame: 00:01:00 is 44,100, 00:01:30 is 61,740.
        #expect(block.audioTracks.map(\.offset) == [0, 44100, 94080])
        #expect(block.audioTracks.map(\.start) == [0, 61740, 94080])
        #expect(block.audioTracks[1].indexes == [.init(number: 0, offset: 0), .init(number: 1, offset: 17640)])
        #expect(block.audioTracks[1].isrc == "GBAAA0000001" && block.audioTracks[0].isrc == nil)
        #expect(block.audioTracks.allSatisfy { $0.isAudio })
        #expect(block.tracks.last?.number == 170 && block.leadOut == 132300)
    }

    /// The block is read as libFLAC reads it: metaflac's export of it says the same times.
    @Test func theBlockSaysWhatMetaflacSays() throws {
        let path = try image("block.flac", block: true, tag: false)
        let exported = try Tool.run(["metaflac", "--export-cuesheet-to=-", path])
        #expect(exported.contains("REM FLAC__lead-out 170 132300"))
        let block = try #require(try TagFile(path: path).cueSheetBlock())
        #expect(block.tracks.count == exported.components(separatedBy: "  TRACK ").count)
        #expect(try facts(path).cueSheetTag == nil)
    }

    @Test func theTagAloneHasNoBlock() throws {
        let facts = try facts(try image("tag.flac", block: false, tag: true))
        #expect(facts.cueSheetTag == Self.sheet && facts.cueSheetBlock == nil)
    }

    /// A block behind a big picture is found by its headers; a FLAC with an ID3v2 tag in front
    /// (some rippers write one) too.
    @Test func theBlockIsFoundBehindOtherBlocksAndAnID3Tag() throws {
        let path = try image("far.flac", block: true, tag: false)
        let picture = dir.file("big.png")
        try Data(repeating: 0x42, count: 300_000).write(to: URL(fileURLWithPath: picture))
        try Tool.run(["metaflac", "--import-picture-from=3|image/png||64x64x24|\(picture)", path])
        #expect(try TagFile(path: path).cueSheetBlock()?.leadOut == 132300)
        var bytes = try bytes(of: path)
        bytes.insert(contentsOf: [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 10] + [UInt8](repeating: 0, count: 10), at: 0)
        let prefixed = dir.file("id3.flac")
        try Data(bytes).write(to: URL(fileURLWithPath: prefixed))
        #expect(try TagFile(path: prefixed).cueSheetBlock()?.audioTracks.count == 3)
    }

    @Test func aPlainFileHasNoSheet() throws {
        let facts = try facts(try image("plain.flac", block: false, tag: false))
        #expect(facts.cueSheetTag == nil && facts.cueSheetBlock == nil)
    }

    /// A body cut short of what its counts say is no block.
    @Test func aTruncatedBodyIsNoBlock() throws {
        let path = try image("cut.flac", block: true, tag: false)
        let block = try #require(try TagFile(path: path).cueSheetBlock())
        #expect(block.tracks.count == 4)
        var body = [UInt8](repeating: 0, count: 396)
        body[395] = 1
        #expect(CueSheetBlock(body: body) == nil)
        #expect(CueSheetBlock(body: Array(body.prefix(100))) == nil)
        body += [UInt8](repeating: 0, count: 36)
        #expect(CueSheetBlock(body: body)?.tracks.count == 1)
    }
}
