import BoomicTestSupport
import Foundation
import Testing

/// `boomic loudness` on files made here, whose loudness is known: a 1 kHz sine of peak 0.1 on both
/// channels is -19.99 LUFS (EBU R128; PLATFORM.md), so its ReplayGain 2.0 gain is +1.99 dB, and
/// twice the amplitude is 6.02 dB louder. `write` then puts the values into the files, read back
/// with mutagen in the spelling other players read.
@Suite struct LoudnessCommandTests {
    /// Two FLAC tones as one album, one MP3 tone as another, and a FLAC that is garbage by the time
    /// it is measured (imported while it was whole).
    static func library() throws -> Sandbox {
        let box = try Sandbox(samples: false)
        let dir = box.music
        for sub in ["Tones", "MP3", "Later"] { try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true) }
        func tone(_ path: String, _ amplitude: String, _ extra: [String] = []) throws {
            try toolOutput(["sox", "-D", "-n", "-r", "44100", "-c", "2", "-b", "24"] + extra + [path, "synth", "6", "sine", "1000", "vol", amplitude])
        }
        try tone(dir + "/Tones/01.flac", "0.1")
        try tone(dir + "/Tones/02.flac", "0.2")
        try tone(dir + "/Later/03.flac", "0.1")
        try toolOutput(["sox", "-D", "-n", "-r", "44100", "-c", "2", "-b", "16", dir + "/MP3/tone.wav", "synth", "6", "sine", "1000", "vol", "0.1"])
        try toolOutput(["lame", "--quiet", "-b", "320", dir + "/MP3/tone.wav", dir + "/MP3/01.mp3"])
        try FileManager.default.removeItem(atPath: dir + "/MP3/tone.wav")
        let script = """
            import sys, mutagen
            from mutagen.easyid3 import EasyID3
            d = sys.argv[1]
            for path, title, album, n in [("Tones/01.flac", "Soft", "Tones", "1"), ("Tones/02.flac", "Loud", "Tones", "2"),
                                          ("Later/03.flac", "Gone", "Later", "1")]:
                f = mutagen.File(d + "/" + path); f["title"] = title; f["album"] = album; f["artist"] = "Sine"; f["tracknumber"] = n; f.save()
            f = EasyID3(); f["title"] = "Coded"; f["album"] = "MP3"; f["artist"] = "Sine"; f.save(d + "/MP3/01.mp3")
            """
        let run = try ChildProcess.run(systemPython, ["-c", script, dir])
        try #require(run.succeeded, "\(run)")
        try box.succeed("import", dir)
        return box
    }

    static func near(_ a: Double?, _ b: Double, _ tolerance: Double) -> Bool { a.map { abs($0 - b) <= tolerance } ?? false }

    @Test func measuresTracksAndAlbumsAndCommitsOneUndoableTransaction() throws {
        let box = try Self.library()
        // The third file is garbage now: one warning line, and the others go on.
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: box.music + "/Later/03.flac"))
        let before = try box.historyCount()

        let run = try box.boomic("loudness", "-y")
        #expect(run.succeeded, "\(run)")
        let warnings = run.stderr.split(separator: "\n")
        #expect(warnings.count == 1 && warnings[0].contains("03.flac"), "\(run)")
        #expect(try box.historyCount() == before + 1, "one transaction")

        let soft = try box.song("title:Soft"), loud = try box.song("title:Loud"), coded = try box.song("title:Coded")
        #expect(Self.near(soft.replaygain_track_gain, 1.99, 0.03), "\(soft)")
        #expect(Self.near(soft.replaygain_track_peak, 0.1, 0.001), "\(soft)")
        #expect(Self.near(loud.replaygain_track_gain, 1.99 - 6.02, 0.03), "\(loud)")
        #expect(Self.near(loud.replaygain_track_peak, 0.2, 0.001), "\(loud)")
        // The album as one: the mean power of both (0.01 and 0.04 over equal lengths) is 3.98 dB
        // above the soft one; its peak is the loud one's.
        for s in [soft, loud] {
            #expect(Self.near(s.replaygain_album_gain, 1.99 - 3.98, 0.03), "\(s)")
            #expect(Self.near(s.replaygain_album_peak, 0.2, 0.001), "\(s)")
        }
        // At 320 kbit/s LAME keeps the tone's level (at 192 it is 0.26 dB lower, in `mpg123 -s` too).
        #expect(Self.near(coded.replaygain_track_gain, 1.99, 0.03), "an MP3 of the soft tone: \(coded)")
        #expect(try box.song("title:Gone").replaygain_track_gain == nil)

        // A second run finds the same values and commits nothing; undo takes them all back.
        let again = try box.boomic("loudness", "title:Soft", "-y")
        #expect(again.stdout.contains("No changes to make"), "\(again)")
        try box.succeed("undo", "-y")
        #expect(try box.songs().allSatisfy { $0.replaygain_track_gain == nil && $0.replaygain_album_gain == nil })
    }

    @Test func dryRunAndJSONChangeNothing() throws {
        let box = try Self.library()
        let before = try box.historyCount()
        let run = try box.boomic("loudness", "album:Tones", "--json", "--dry-run")
        #expect(run.succeeded && run.stderr == "Dry run: 2 songs would change.\n", "\(run)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(Self.near(rows.first { ($0["path"] as? String)?.hasSuffix("01.flac") == true }?["loudness"] as? Double, -19.99, 0.01), "\(rows)")
        #expect(try box.historyCount() == before)
        // Part of an album: track gains only, and a line saying so.
        let part = try box.boomic("loudness", "title:Loud", "--dry-run")
        #expect(part.succeeded && part.stderr.contains("partly selected"), "\(part)")
        #expect(!part.stdout.contains("album "), "\(part)")
    }

    @Test func writePutsTheValuesWhereOtherPlayersReadThem() throws {
        let box = try Self.library()
        try box.succeed("loudness", "-y")
        try box.succeed("write", "-y")
        let script = """
            import sys, json, mutagen
            d = sys.argv[1]
            out = {}
            f = mutagen.File(d + "/Tones/01.flac")
            out["flac"] = {k.upper(): v[0] for k, v in f.tags.items() if k.lower().startswith("replaygain")}
            f = mutagen.File(d + "/MP3/01.mp3")
            out["mp3"] = {k: str(f.tags[k].text[0]) for k in f.tags.keys() if k.upper().startswith("TXXX:REPLAYGAIN")}
            print(json.dumps(out))
            """
        let run = try ChildProcess.run(systemPython, ["-c", script, box.music])
        let tags = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: [String: String]], "\(run)")
        let flac = try #require(tags["flac"]), mp3 = try #require(tags["mp3"])
        func dB(_ s: String?) -> Double? {
            guard let s, s.hasSuffix(" dB") else { return nil }
            return Double(s.dropLast(3))
        }
        #expect(Self.near(dB(flac["REPLAYGAIN_TRACK_GAIN"]), 1.99, 0.03), "\(flac)")
        #expect(Self.near(dB(flac["REPLAYGAIN_ALBUM_GAIN"]), -1.99, 0.03), "\(flac)")
        #expect(Self.near(flac["REPLAYGAIN_TRACK_PEAK"].flatMap(Double.init), 0.1, 0.001), "\(flac)")
        #expect(Self.near(flac["REPLAYGAIN_ALBUM_PEAK"].flatMap(Double.init), 0.2, 0.001), "\(flac)")
        #expect(Self.near(dB(mp3["TXXX:REPLAYGAIN_TRACK_GAIN"]), 1.99, 0.03), "\(mp3)")
        #expect(mp3["TXXX:REPLAYGAIN_TRACK_PEAK"].flatMap(Double.init) != nil, "\(mp3)")
        // The files now agree with the library: a rescan changes nothing.
        #expect(try box.succeed("import").stdout.contains("0 changed"))
    }
}
