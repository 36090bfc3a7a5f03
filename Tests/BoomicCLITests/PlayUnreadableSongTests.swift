import BoomicTestSupport
import Foundation
import Glibc
import Testing

/// A song that cannot be opened as a regular file is skipped as a broken one is: a FIFO that
/// took a song's place after the import (a decoder's open by path would wait for a writer for
/// ever, and the player with it) fails at once, and the rest of the queue plays.
@Suite struct PlayUnreadableSongTests {
    @Test func aSongReplacedByAFIFOIsSkippedAndTheRestPlays() throws {
        let box = try Sandbox(samples: false)
        _ = try PlayCommandTests.toneAlbum(box)
        let middle = box.root + "/music/02 Part 2.flac"
        try FileManager.default.removeItem(atPath: middle)
        try #require(mkfifo(middle, 0o600) == 0)
        let out = box.root + "/out.wav"
        guard let run = try ImportOutsideFilesTests.run(box, ["play", "--output", "wav:" + out], deadline: 60) else {
            Issue.record("boomic play did not end within 60 s: it waits on the FIFO")
            return
        }
        #expect(run.succeeded, "\(run)")
        #expect(run.lines.contains("▶ Tone Band - One Tone - Part 1") && run.lines.contains("▶ Tone Band - One Tone - Part 3"), "\(run)")
        #expect(run.stderr.contains("\(middle): cannot open: it is not a regular file"), "\(run)")
        let tone = box.root + "/tone"
        let expected = try PlayCommandTests.wavData(tone + "/t0.wav") + PlayCommandTests.wavData(tone + "/t2.wav")
        let played = try PlayCommandTests.wavData(out)
        #expect(played == expected, "\(played.count) bytes played, not Part 1 then Part 3 (\(expected.count))")
    }
}
