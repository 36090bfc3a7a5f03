import BoomicTestSupport
import Foundation
import Testing

/// `boomic play` as a user runs it without a terminal: one line per song, the samples in a `wav:`
/// file, usage errors (64) apart from runtime ones (1), one player per library, and a SIGTERM
/// that saves the place so that `--resume` goes on at the very sample.
@Suite struct PlayCommandTests {
    /// A library of one album, three FLAC tracks cut at odd offsets from one tone; returns the
    /// tone's PCM (what `flac -d` of the album, concatenated, holds in its data chunk).
    static func toneAlbum(_ box: Sandbox, seconds: Double = 3) throws -> [UInt8] {
        let dir = box.root + "/tone"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try ToneTracks.make(in: dir, seconds: seconds)
        try FileManager.default.createDirectory(atPath: box.root + "/music", withIntermediateDirectories: true)
        for i in ToneTracks.cuts.indices {
            try toolOutput(["flac", "-s", "-f", "-o", box.root + "/music/0\(i + 1) Part \(i + 1).flac", dir + "/t\(i).wav",
                            "-T", "ARTIST=Tone Band", "-T", "ALBUM=One Tone", "-T", "TITLE=Part \(i + 1)", "-T", "TRACKNUMBER=\(i + 1)"])
        }
        try box.succeed("import", box.root + "/music")
        return try wavData(dir + "/tone.wav")
    }

    static func wavData(_ path: String) throws -> [UInt8] { try ToneTracks.wavData(ofFile: path) }

    @Test func anAlbumPlaysGaplesslyIntoAWAVFile() throws {
        let box = try Sandbox(samples: false)
        let tone = try Self.toneAlbum(box)
        let out = box.root + "/out.wav"
        let run = try box.succeed("play", "--album", "part 2", "--output", "wav:" + out)
        #expect(run.lines == ["▶ Tone Band - One Tone - Part 1", "▶ Tone Band - One Tone - Part 2", "▶ Tone Band - One Tone - Part 3"])
        let played = try Self.wavData(out)
        #expect(played.count == tone.count, "\((played.count - tone.count) / 4) frames of gap (+) or overlap (-)")
        #expect(played == tone, "the wav: file differs from the album's samples")
    }

    @Test func usageAndRuntimeErrorsExitApart() throws {
        let box = try Sandbox(samples: false)
        _ = try Self.toneAlbum(box)
        for bad in [["--output", "speakers"], ["--output", "wav:"], ["--resume", "part"], ["--taglist", "a", "--playlist", "b"]] {
            let run = try box.boomic(["play"] + bad)
            #expect(run.status == 64, "\(run)")
        }
        let nothing = try box.boomic("play", "--resume", "--output", "null")
        #expect(nothing.status == 1 && nothing.errorLines.count == 1 && nothing.stderr.contains("nothing to resume"), "\(nothing)")
        let none = try box.boomic("play", "no such song", "--output", "null")
        #expect(none.status == 1 && none.errorLines.count == 1, "\(none)")
        let noList = try box.boomic("play", "--playlist", "gone", "--output", "null")
        #expect(noList.status == 1 && noList.errorLines.count == 1, "\(noList)")
    }

    /// A queue that played to its end leaves nothing to resume: `--resume` says so and plays
    /// nothing again (a run killed as it finished would otherwise count every song twice).
    @Test func aQueuePlayedToItsEndResumesNothing() throws {
        let box = try Sandbox(samples: false)
        _ = try Self.toneAlbum(box)
        try box.succeed("play", "--output", "null")
        let plays = { try decodeJSON([HistoryRecord].self, try box.succeed("history", "--kind", "play", "--json").stdout).count }
        let heard = try plays()
        #expect(heard == ToneTracks.cuts.count)
        let again = try box.boomic("play", "--resume", "--output", "null")
        #expect(again.status == 0 && again.stdout.isEmpty && again.stderr.contains("played to its end"), "\(again)")
        #expect(try plays() == heard, "the resume played the queue again")
    }

    /// One player owns the library's player state; SIGTERM saves the queue and the place and
    /// exits 0 at once; `--resume` then plays on from the very sample where it stopped.
    @Test func sigtermSavesAndResumeGoesOnAtTheSameSample() throws {
        let box = try Sandbox(samples: false)
        let tone = try Self.toneAlbum(box)
        let first = box.root + "/first.wav"
        let player = try ChildProcess.start(box.executable, ["--library", box.library, "play", "--realtime", "--output", "wav:" + first],
                                            environment: ["XDG_DATA_HOME": box.root + "/xdg"])
        // Halfway through the album: the first player holds the library and has played some of it.
        try waitUntil("the first player to play 1.3 s") { Watch.wav(first, holds: 1.3) }
        let second = try box.boomic("play", "--output", "null")
        #expect(second.status == 1 && second.errorLines.count == 1 && second.stderr.contains("process \(player.processIdentifier)"), "\(second)")
        let signalled = ContinuousClock.now
        kill(player.processIdentifier, SIGTERM)
        player.waitUntilExit()
        let took = ContinuousClock.now - signalled
        #expect(player.terminationReason == .exit && player.terminationStatus == 0)
        #expect(took < .seconds(2), "took \(took) to stop")
        let head = try Self.wavData(first)
        #expect(head.count > 0 && head.count < tone.count)

        let rest = box.root + "/rest.wav"
        try box.succeed("play", "--resume", "--output", "wav:" + rest)
        let tail = try Self.wavData(rest)
        #expect(head.count + tail.count == tone.count, "\((head.count + tail.count - tone.count) / 4) frames played twice (+) or lost (-)")
        #expect(head + tail == tone, "the resumed playback does not continue the first one sample for sample")
    }
}

extension PlayCommandTests {
    /// `--sleep end` stops after the song playing; a bare number is refused (minutes or seconds?).
    @Test func sleepEndStopsAfterTheCurrentSong() throws {
        let box = try Sandbox(samples: false)
        _ = try Self.toneAlbum(box)
        let run = try box.succeed("play", "--sleep", "end", "--output", "null")
        #expect(run.lines == ["▶ Tone Band - One Tone - Part 1"])
        let bare = try box.boomic("play", "--sleep", "30", "--output", "null")
        #expect(bare.status == 64 && bare.stderr.contains("--sleep"), "\(bare)")
    }
}

extension PlayCommandTests {
    /// Playing counts: each song heard to its end is one `play` transaction (playcount, lastplayed),
    /// hidden from `history` unless asked for; `--no-record` and `--as-of` record nothing.
    @Test func playsAreRecordedAsTransactions() throws {
        let box = try Sandbox(samples: false)
        _ = try Self.toneAlbum(box)
        try box.succeed("play", "--output", "null", "--no-record")
        try box.succeed("play", "--output", "null", "--as-of", "1")
        #expect(!(try box.succeed("history", "--kind", "play").stdout.contains("play ")), "--no-record or --as-of recorded plays")
        try box.succeed("play", "--output", "null")
        let counts = try box.succeed("ls", "-f", "$title $playcount $skipcount").lines
        #expect(counts == ["Part 1 1 0", "Part 2 1 0", "Part 3 1 0"], "\(counts)")
        let plays = try box.succeed("history", "--kind", "play").lines
        #expect(plays.count == 3, "\(plays)")
        #expect(!(try box.succeed("history").stdout.contains("play")), "history shows plays without --all")
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let recent = try box.succeed("ls", "lastplayed:\(today)").lines
        #expect(recent.count == 3, "lastplayed is not today: \(recent)")
    }

    /// An audiobook (tagged #audiobook) keeps its place when the player is stopped, and starts
    /// there next time; a song heard to its end starts afresh.
    @Test func anAudiobookStartsWhereItWasLeft() throws {
        let box = try Sandbox(samples: false)
        let tone = try Self.toneAlbum(box, seconds: 6)
        try box.succeed("tag", "-y", "title:part 3", "+#audiobook")
        let first = box.root + "/first.wav"
        let player = try ChildProcess.start(box.executable, ["--library", box.library, "play", "title:part 3", "--realtime", "--output", "wav:" + first],
                                            environment: ["XDG_DATA_HOME": box.root + "/xdg"])
        try waitUntil("the audiobook to play 1.5 s") { Watch.wav(first, holds: 1.5) }
        kill(player.processIdentifier, SIGTERM)
        player.waitUntilExit()
        let heard = try Self.wavData(first).count / 4
        let bookmark = try box.succeed("ls", "-f", "$bookmark", "title:part 3").lines
        #expect(bookmark.count == 1 && bookmark[0] != "", "no bookmark: \(bookmark)")

        let rest = box.root + "/rest.wav"
        try box.succeed("play", "title:part 3", "--output", "wav:" + rest)
        let partFrames = tone.count / 4 - 91_117
        let restFrames = try Self.wavData(rest).count / 4
        // The bookmark is the position heard, in seconds (rounded to the millisecond or so).
        #expect(abs(restFrames - (partFrames - heard)) < 100, "resumed with \(restFrames) frames left, expected about \(partFrames - heard)")
        #expect(try box.succeed("ls", "-f", "$bookmark", "title:part 3").lines == [""], "heard to its end, it should start afresh")
    }
}

extension PlayCommandTests {
    static func rms16(_ bytes: [UInt8]) -> Double {
        var sum = 0.0
        for i in stride(from: 0, to: bytes.count - 1, by: 2) {
            let v = Double(Int16(bitPattern: UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8)) / 32_768
            sum += v * v
        }
        return (sum / Double(bytes.count / 2)).squareRoot()
    }

    static func rmsFloat(_ bytes: [UInt8]) -> Double {
        var sum = 0.0
        for i in stride(from: 0, to: bytes.count - 3, by: 4) {
            let u = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
            let v = Double(Float(bitPattern: u))
            sum += v * v
        }
        return (sum / Double(bytes.count / 4)).squareRoot()
    }

    /// ReplayGain and volume change the level by what they say, into a 32-bit float wav: file;
    /// a bad --eq or --volume is a usage error.
    @Test func replayGainAndVolumeChangeTheLevel() throws {
        let box = try Sandbox(samples: false)
        _ = try Self.toneAlbum(box)
        try box.succeed("modify", "-y", "title:part 1", "replaygain_track_gain=-6.5", "replaygain_track_peak=0.7")
        let plain = box.root + "/plain.wav", gained = box.root + "/gained.wav", quieter = box.root + "/quieter.wav"
        try box.succeed("play", "title:part 1", "--output", "wav:" + plain)
        try box.succeed("play", "title:part 1", "--replaygain", "track", "--output", "wav:" + gained)
        try box.succeed("play", "title:part 1", "--volume", "50", "--output", "wav:" + quieter)
        let reference = Self.rms16(try Self.wavData(plain))
        let withGain = Self.rmsFloat(try Self.wavData(gained))
        let withVolume = Self.rmsFloat(try Self.wavData(quieter))
        let gainDB = 20 * log10(withGain / reference), volumeDB = 20 * log10(withVolume / reference)
        #expect(abs(gainDB - -6.5) < 0.1, "ReplayGain changed the level by \(gainDB) dB, not -6.5")
        #expect(abs(volumeDB - 20 * log10(0.125)) < 0.1, "volume 50 changed the level by \(volumeDB) dB, not \(20 * log10(0.125))")
        for bad in [["--eq", "60=+15"], ["--volume", "101"], ["--preamp", "x"], ["--replaygain", "loud"]] {
            let run = try box.boomic(["play", "--output", "null"] + bad)
            #expect(run.status == 64, "\(run)")
        }
        // A bare name may be a saved profile: looked up when the player starts, exit 1 if none.
        let unknown = try box.boomic(["play", "--output", "null", "--eq", "loudest"])
        #expect(unknown.status == 1 && unknown.errorLines.count == 1, "\(unknown)")
        try box.succeed("play", "--eq", "ROCK", "--output", "null")
    }
}

extension PlayCommandTests {
    /// An output that hangs (a sound card stuck in a write; here a pipe nobody reads) does not
    /// keep SIGTERM from stopping the player and saving its place (it waited forever): the
    /// output is left behind after 3 s, and said so.
    @Test func aHungOutputIsLeftBehindOnSIGTERM() throws {
        let box = try Sandbox(samples: false)
        _ = try Self.toneAlbum(box)
        let fifo = box.root + "/out.fifo", log = box.root + "/play.err"
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)  // opened, never read
        defer { close(reader) }
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let player = try ChildProcess.start(box.executable, ["--library", box.library, "play", "--output", "wav:" + fifo],
                                            environment: ["XDG_DATA_HOME": box.root + "/xdg"], stderr: log)
        try waitUntil("the pipe to fill: the output waits in a write") { Watch.waitsInPipeWrite(player.processIdentifier) }
        kill(player.processIdentifier, SIGTERM)
        _ = try? waitUntil("boomic play to stop on SIGTERM", timeout: .seconds(30)) { !player.isRunning }
        if player.isRunning { kill(player.processIdentifier, SIGKILL) }
        player.waitUntilExit()
        let stderr = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(player.terminationReason == .exit && player.terminationStatus == 0, "SIGTERM did not stop it: \(stderr)")
        #expect(stderr.contains("boomic play: the output did not stop within 3 s; left behind"), "\(stderr)")
        let resumed = try box.boomic("play", "--resume", "--output", "null")
        #expect(resumed.succeeded, "the place was saved: \(resumed)")
    }
}
