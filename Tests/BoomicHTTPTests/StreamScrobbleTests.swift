@testable import BoomicHTTP
import BoomicCore
import BoomicTestSupport
import Foundation
import Testing

/// `stream` tells the listening ledger of a play from the song's start, so that the client's
/// `scrobble submission=true` of the same song by the same user is not counted a second time
/// (issue 36: "not counted twice against that user's stream of it"): end to end through the
/// HTTP front, on real files.
@Suite(.serialized)
struct StreamScrobbleTests {
    /// The fixture's three songs as real FLAC files (one second of tone each) at their paths.
    static func withFiles() async throws -> AnnotationFixture {
        let f = try await AnnotationFixture()
        try FileManager.default.createDirectory(atPath: f.dir.path + "/music", withIntermediateDirectories: true)
        for i in 0..<3 {
            try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", f.dir.path + "/music/\(i).flac",
                            "synth", "1", "sine", "440"])
        }
        return f
    }

    func stream(_ f: AnnotationFixture, _ index: Int, as user: String = AnnotationFixture.anna) async throws {
        let answer = try await RawHTTP.get(f.port, "/rest/stream.view?\(user)&id=\(f.id(index))")
        #expect(answer.status == 200 && answer.headers["content-type"] == "audio/flac", "\(answer.status) \(answer.headers)")
    }

    /// The stream is counted as a play once its length has passed (the client had not scrobbled
    /// yet): the client's scrobble of it afterwards counts nothing more. A scrobble without a
    /// stream counts one.
    @Test func aScrobbleAfterItsStreamWasCountedCountsNothingMore() async throws {
        let f = try await Self.withFiles()
        try await stream(f, 0)
        // Only the stream's ledger entry can make this play: without it no settle ever counts one.
        try await waitUntil("the stream counted as a play") {
            _ = try? f.front.annotations.listening.settle(at: Date().timeIntervalSince1970 + 1000)
            return f.session.basis[f.songs[0]]?.playcount == 1
        }
        let ms = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(try await f.code("scrobble", "id=\(f.id(0))&time=\(ms)&submission=true") == nil)
        #expect(f.session.basis[f.songs[0]]?.playcount == 1, "the stream and its scrobble counted twice")
        #expect(try f.count(.play) == 1)

        #expect(try await f.code("scrobble", "id=\(f.id(1))&time=\(ms)&submission=true") == nil)
        #expect(f.session.basis[f.songs[1]]?.playcount == 1, "a scrobble without a stream is one play")
        await f.stop()
    }

    /// A scrobble that comes while the stream's play is pending claims it: one play, then none
    /// when the stream's time is up.
    @Test func aScrobbleWhileItsStreamIsPendingCountsOnce() async throws {
        let f = try await Self.withFiles()
        try await stream(f, 2, as: AnnotationFixture.ben)
        let ms = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(try await f.code("scrobble", "id=\(f.id(2))&time=\(ms)", as: AnnotationFixture.ben) == nil)
        #expect(f.session.basis[f.songs[2]]?.playcount == 1)
        // Whichever reaches the ledger first, the stream or the scrobble, nothing more falls due.
        _ = try f.front.annotations.listening.settle(at: Date().timeIntervalSince1970 + 10_000)
        #expect(f.session.basis[f.songs[2]]?.playcount == 1, "the stream and its scrobble counted twice")
        await f.stop()
    }
}
