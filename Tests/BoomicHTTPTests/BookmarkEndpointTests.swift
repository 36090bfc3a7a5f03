@testable import BoomicHTTP
import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// Bookmarks per user, in listeners.json beside the library: anna's are not ben's, they survive
/// a restart of the front, and they never enter the log.
@Suite(.serialized)
struct BookmarkEndpointTests {
    static func bookmarks(_ f: AnnotationFixture, as user: String) async throws -> [[String: Any]] {
        let answer = try await f.json("getBookmarks", "", as: user)
        return try #require(answer["bookmarks"] as? [String: Any], "\(answer)")["bookmark"] as? [[String: Any]] ?? []
    }

    @Test func bookmarksArePerUserAndSurviveARestart() async throws {
        let f = try await AnnotationFixture()
        let head = f.session.head
        #expect(try await f.code("createBookmark", "id=\(f.id(1))&position=65000&comment=the%20bridge") == nil)
        #expect(try await f.code("createBookmark", "id=\(f.id(2))&position=1000", as: AnnotationFixture.ben) == nil)
        try await f.restart()
        let anna = try await Self.bookmarks(f, as: AnnotationFixture.anna)
        #expect(anna.count == 1 && anna[0]["position"] as? Int == 65000 && anna[0]["comment"] as? String == "the bridge"
            && anna[0]["username"] as? String == "anna" && (anna[0]["entry"] as? [String: Any])?["id"] as? String == f.id(1), "\(anna)")
        #expect((anna[0]["created"] as? String)?.hasSuffix("Z") == true)
        let ben = try await Self.bookmarks(f, as: AnnotationFixture.ben)
        #expect(ben.count == 1 && (ben[0]["entry"] as? [String: Any])?["id"] as? String == f.id(2), "\(ben)")
        #expect(FileManager.default.fileExists(atPath: f.session.location + "/listeners.json"))
        #expect(f.session.head == head, "bookmarks are not history")

        #expect(try await f.code("deleteBookmark", "id=\(f.id(2))") == 70, "anna has none there: ben's is his")
        #expect(try await f.code("deleteBookmark", "id=\(f.id(2))", as: AnnotationFixture.ben) == nil)
        #expect(try await Self.bookmarks(f, as: AnnotationFixture.ben).isEmpty)
        #expect(try await Self.bookmarks(f, as: AnnotationFixture.anna).count == 1)
        await f.stop()
    }

    @Test func hostileBookmarkIdsAre70() async throws {
        let f = try await AnnotationFixture()
        for id in ["../../etc/passwd", "so-\(UUID().uuidString)", "al-0123456789abcdef", ""] {
            let q = "id=\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            #expect(try await f.code("createBookmark", q + "&position=1") == 70, "\(id)")
            #expect(try await f.code("deleteBookmark", q) == 70, "\(id)")
        }
        #expect(try await f.code("createBookmark", "id=\(f.id(0))") == 10)
        #expect(try await Self.bookmarks(f, as: AnnotationFixture.anna).isEmpty)
        await f.stop()
    }
}
