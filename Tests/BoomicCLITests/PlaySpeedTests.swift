import BoomicTestSupport
import Foundation
import Testing

/// `boomic play --speed`: its syntax, and an audiobook that keeps its speed with its bookmark.
@Suite struct PlaySpeedTests {
    @Test func aSpeedOutOfRangeIsAUsageError() throws {
        let box = try Sandbox(samples: false)
        _ = try PlayCommandTests.toneAlbum(box)
        for bad in ["3", "0.4", "fast"] {
            let run = try box.boomic("play", "--speed", bad, "--output", "null")
            #expect(run.status == 64 && run.stderr.contains("speed"), "\(run)")
        }
    }

    /// At speed 2 a song takes half its frames; an audiobook stopped at 2× starts from its
    /// bookmark at 2× next time without --speed.
    @Test func anAudiobookKeepsItsSpeed() throws {
        let box = try Sandbox(samples: false)
        let tone = try PlayCommandTests.toneAlbum(box, seconds: 6)
        try box.succeed("tag", "-y", "title:part 3", "+#audiobook")
        let partFrames = tone.count / 4 - 91_117
        let first = box.root + "/first.wav"
        let player = try ChildProcess.start(box.executable, ["--library", box.library, "play", "title:part 3", "--speed", "2",
                                                             "--realtime", "--output", "wav:" + first],
                                            environment: ["XDG_DATA_HOME": box.root + "/xdg"])
        // Some of the song at 2× (its frames, output float stereo, come at the real rate).
        try waitUntil("the audiobook to play 1 s at 2×") { Watch.wav(first, holds: 1, bytesPerFrame: 8) }
        kill(player.processIdentifier, SIGTERM)
        player.waitUntilExit()
        let written = try PlayCommandTests.wavData(first).count / 8 // float stereo
        let fields = try box.succeed("ls", "-f", "$bookmark $bookmark_speed", "title:part 3").lines
        #expect(fields.count == 1 && fields[0].hasSuffix(" 2"), "bookmark and speed: \(fields)")

        // Without --speed it plays on at 2×; the bookmark being in the song's own time, the two
        // runs together hold the whole song at 2× (within what the stretcher's edges blur).
        let rest = box.root + "/rest.wav"
        try box.succeed("play", "title:part 3", "--output", "wav:" + rest)
        let restFrames = try PlayCommandTests.wavData(rest).count / 8
        let heard = 2 * (written + restFrames)
        #expect(abs(heard - partFrames) < 44_100 / 5, "\(written) + \(restFrames) frames at 2× make \(heard) of the song's \(partFrames)")
    }
}
