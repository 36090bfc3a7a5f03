@testable import BoomicHTTP
import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// `getNowPlaying` for the API's callers, and the front's timer that counts streams no client
/// scrobbled (`Listening.settle`).
@Suite(.serialized)
struct NowPlayingEndpointTests {
    static func entries(_ f: AnnotationFixture) async throws -> [[String: Any]] {
        let answer = try await f.json("getNowPlaying", "")
        return try #require(answer["nowPlaying"] as? [String: Any], "\(answer)")["entry"] as? [[String: Any]] ?? []
    }

    @Test func eachCallersLatestSongIsShown() async throws {
        let f = try await AnnotationFixture()
        #expect(try await Self.entries(f).isEmpty)
        #expect(try await f.code("scrobble", "id=\(f.id(0))&submission=false") == nil)
        #expect(try await f.code("scrobble", "id=\(f.id(1))&submission=false") == nil)
        #expect(try await f.code("scrobble", "id=\(f.id(2))&submission=false", as: AnnotationFixture.ben) == nil)
        let shown = try await Self.entries(f)
        let pairs = Set(shown.map { "\($0["username"] as? String ?? "?") \($0["id"] as? String ?? "?") \($0["playerName"] as? String ?? "?")" })
        #expect(pairs == ["anna \(f.id(1)) Symfonium", "ben \(f.id(2)) DSub"], "\(shown)")
        #expect(Set(shown.compactMap { $0["playerId"] as? Int }).count == 2)
        #expect(try f.count(.play) == 0)
        await f.stop()
    }

    /// A stream no client scrobbles is counted by the front's timer once the song's length has
    /// passed; the timer stops with the front.
    @Test func theSettleTimerCountsUnscrobbledStreams() async throws {
        let f = try await AnnotationFixture()
        let context = f.front.annotations
        context.startSettling(every: .milliseconds(20), warn: { _ in })
        _ = try context.listening.streamed(f.songs[2], by: Caller(user: "ben", client: "web"), at: context.now() - 1000)
        // streamed settles what is due at the time it is given; the timer settles at the time now.
        try await waitUntil("the timer to count the stream") { f.session.basis[f.songs[2]]?.playcount == 1 }
        #expect(try f.last.provenance.user == "ben" && f.last.kind == .play)
        await context.stopSettling()
        await f.stop()
    }
}
