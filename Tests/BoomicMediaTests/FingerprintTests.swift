import BoomicMedia
import BoomicTestSupport
import Foundation
import Testing

/// A tag-only change must keep the fingerprint; different audio must change it.
@Suite struct FingerprintTests {
    let dir = TempDir("boomic-fingerprint")

    func copy(_ sample: String, as name: String? = nil) throws -> String {
        let target = dir.file(name ?? (sample as NSString).lastPathComponent)
        try FileManager.default.copyItem(atPath: Repo.samples + "/" + sample, toPath: target)
        return target
    }

    func fingerprint(_ path: String) throws -> String {
        try #require(Fingerprint.of(try TagFile(path: path)))
    }

    /// A long comment: moves the audio further into the file and, for Ogg, adds header pages.
    static let bigComment = String(repeating: "A long liner note. ", count: 3000)

    @Test func mp3KeepsItsFingerprintThroughRetagging() throws {
        let path = try copy("Motörhead-ish/Ace of Spätz/01 Øverkill.mp3")
        let before = try fingerprint(path)
        let audioBefore = try #require(try TagFile(path: path).mpegAudioRange)

        let file = try TagFile(path: path, writable: true)
        #expect(file.setProperty("TITLE", ["Renamed"]))
        #expect(file.setProperty("COMMENT", [Self.bigComment]))
        try file.save()
        #expect(try fingerprint(path) == before)

        // mutagen: an ID3v1 trailer as well, and no padding.
        try Tool.python("""
            import sys
            from mutagen.id3 import ID3, TIT2
            t = ID3(sys.argv[1]); t.add(TIT2(encoding=3, text='Again')); t.save(v1=2, padding=lambda info: 0)
            """, [path])
        let audioAfter = try #require(try TagFile(path: path).mpegAudioRange)
        #expect(audioAfter.lowerBound != audioBefore.lowerBound, "the audio really moved")
        #expect(audioAfter.count == audioBefore.count)
        #expect(try fingerprint(path) == before)
        #expect(try TagFile(path: path).properties()["TITLE"] == ["Again"])
    }

    @Test func wavKeepsItsFingerprintThroughRetagging() throws {
        let path = try copy("Field Recordist/Backyard Sessions/01 Morning Birds.wav")
        let before = try fingerprint(path)
        try Tool.python("""
            import sys
            from mutagen.wave import WAVE
            from mutagen.id3 import TIT2, COMM
            f = WAVE(sys.argv[1])
            f.tags.add(TIT2(encoding=3, text='Other'))
            f.tags.add(COMM(encoding=3, lang='eng', desc='', text=sys.argv[2]))
            f.save()
            """, [path, Self.bigComment])
        #expect(try TagFile(path: path).properties()["TITLE"] == ["Other"])
        #expect(try fingerprint(path) == before)
    }

    @Test func oggKeepsItsFingerprintWhenTheCommentHeaderGrowsByPages() throws {
        let path = try copy("Free Software Choir/Open Voices/02 Libre Dusk.ogg")
        let before = try fingerprint(path)
        let sizeBefore = try bytes(of: path).count
        try Tool.tag(path, ["title": ["Other"], "description": [Self.bigComment]])
        #expect(try bytes(of: path).count > sizeBefore + 50_000)
        #expect(try fingerprint(path) == before)
    }

    @Test func flacUsesTheStreamInfoMD5() throws {
        let path = try copy("Miles Quartet/Blue Sketches/01 So Modal.flac")
        let md5 = try Tool.run(["metaflac", "--show-md5sum", path]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try fingerprint(path) == md5)
    }

    @Test func flacWithoutMD5FallsBackToTheAudioBytes() throws {
        let path = try copy("Miles Quartet/Blue Sketches/02 Blue in Grey.flac")
        // Zero STREAMINFO's MD5 (bytes 26..<42), as encoders that cannot compute it leave it.
        var data = try bytes(of: path)
        for i in 26..<42 { data[i] = 0 }
        try Data(data).write(to: URL(fileURLWithPath: path))
        #expect(try TagFile(path: path).flacMD5 == nil)
        let before = try fingerprint(path)
        #expect(before.count == 16)
        try Tool.run(["metaflac", "--set-tag=COMMENT=\(Self.bigComment)", "--dont-use-padding", path])
        #expect(try fingerprint(path) == before)
    }

    @Test func aiffKeepsItsFingerprintThroughRetagging() throws {
        let path = dir.file("tone.aiff")
        try Tool.tone(path, frequency: 500, seconds: 1, rate: 48000, channels: 1, bits: 24)
        let before = try fingerprint(path)
        try Tool.python("""
            import sys
            from mutagen.aiff import AIFF
            from mutagen.id3 import TIT2
            f = AIFF(sys.argv[1]); f.add_tags(); f.tags.add(TIT2(encoding=3, text='Tone')); f.save()
            """, [path])
        #expect(try TagFile(path: path).properties()["TITLE"] == ["Tone"])
        #expect(try fingerprint(path) == before)
    }

    @Test(arguments: ["wav", "mp3", "ogg", "aiff"])
    func differentRecordingsDiffer(_ ext: String) throws {
        // Same length, same format, same silent second at the start: only the tone differs.
        let a = dir.file("a.\(ext)")
        let b = dir.file("b.\(ext)")
        try Tool.tone(a, frequency: 440, seconds: 2, bits: ext == "wav" || ext == "aiff" ? 16 : nil, silenceFirst: 1)
        try Tool.tone(b, frequency: 445, seconds: 2, bits: ext == "wav" || ext == "aiff" ? 16 : nil, silenceFirst: 1)
        let fa = try fingerprint(a)
        let fb = try fingerprint(b)
        #expect(fa != fb)
        #expect(try fingerprint(a) == fa, "stable")
    }
}
