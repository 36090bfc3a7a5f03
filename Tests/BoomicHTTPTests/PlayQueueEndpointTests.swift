@testable import BoomicHTTP
import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// `savePlayQueue` and `getPlayQueue`: per user, kept across a restart of the front, never in
/// the log.
@Suite(.serialized)
struct PlayQueueEndpointTests {
    @Test func playQueuesArePerUserAndSurviveARestart() async throws {
        let f = try await AnnotationFixture()
        let head = f.session.head
        #expect(try await f.code("savePlayQueue", "id=\(f.id(2))&id=\(f.id(0))&current=\(f.id(0))&position=42000") == nil)
        #expect(try await f.code("savePlayQueue", "id=\(f.id(1))", as: AnnotationFixture.ben) == nil)
        try await f.restart()
        let anna = try #require(try await f.json("getPlayQueue", "")["playQueue"] as? [String: Any])
        #expect((anna["entry"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [f.id(2), f.id(0)], "\(anna)")
        #expect(anna["current"] as? String == f.id(0) && anna["position"] as? Int == 42000 && anna["username"] as? String == "anna"
            && anna["changedBy"] as? String == "Symfonium", "\(anna)")
        let ben = try #require(try await f.json("getPlayQueue", "", as: AnnotationFixture.ben)["playQueue"] as? [String: Any])
        #expect((ben["entry"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [f.id(1)] && ben["current"] == nil, "\(ben)")
        #expect(f.session.head == head, "a play queue is not history")

        // No id clears it.
        #expect(try await f.code("savePlayQueue", "", as: AnnotationFixture.ben) == nil)
        #expect(try await f.json("getPlayQueue", "", as: AnnotationFixture.ben)["playQueue"] == nil)
        #expect(try await f.json("getPlayQueue", "")["playQueue"] != nil)

        // Hostile ids: 70, and the saved queue stays.
        #expect(try await f.code("savePlayQueue", "id=../../etc/passwd") == 70)
        #expect(try await f.code("savePlayQueue", "id=\(f.id(1))&current=\(f.id(2))") == 70)
        let kept = try #require(try await f.json("getPlayQueue", "")["playQueue"] as? [String: Any])
        #expect(kept["current"] as? String == f.id(0))
        await f.stop()
    }
}
