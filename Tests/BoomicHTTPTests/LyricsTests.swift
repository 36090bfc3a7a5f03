@testable import BoomicHTTP
import BoomicCore
import BoomicTestSupport
import Foundation
import Testing

/// Lyrics from the file's tags: a FLAC's LRC `LYRICS` comment as synced lines, an MP3's USLT
/// frame as unsynced ones; `getLyrics` by artist and title as plain text.
@Suite struct LyricsTests {
    @Test func syncedLyricsFromAnLRCComment() async throws {
        let f = try await MediaFixture.shared.value
        let response = try await f.json("getLyricsBySongId", "id=\(try f.id("01 Tone.flac"))")
        #expect(response["status"] as? String == "ok")
        let list = try #require((response["lyricsList"] as? [String: Any])?["structuredLyrics"] as? [[String: Any]])
        #expect(list.count == 1)
        let lyrics = try #require(list.first)
        #expect(lyrics["synced"] as? Bool == true)
        #expect(lyrics["offset"] as? Int == -250)
        #expect(lyrics["displayArtist"] as? String == "Ann")
        #expect(lyrics["displayTitle"] as? String == "Tone")
        let lines = try #require(lyrics["line"] as? [[String: Any]])
        #expect(lines.map { $0["start"] as? Int } == [100, 1500, 3250, 4000])
        #expect(lines.map { $0["value"] as? String } == ["Opening", "First line", "Twice", "Twice"])
    }

    @Test func unsyncedLyricsFromAUSLTFrame() async throws {
        let f = try await MediaFixture.shared.value
        let response = try await f.json("getLyricsBySongId", "id=\(try f.id("02 Plain.mp3"))")
        let list = try #require((response["lyricsList"] as? [String: Any])?["structuredLyrics"] as? [[String: Any]])
        let lyrics = try #require(list.first)
        #expect(lyrics["synced"] as? Bool == false)
        let lines = try #require(lyrics["line"] as? [[String: Any]])
        #expect(lines.map { $0["value"] as? String } == ["A plain verse", "and its second line"])
        #expect(lines.allSatisfy { $0["start"] == nil })
        // A song without lyrics: an empty list.
        let none = try await f.json("getLyricsBySongId", "id=\(try f.id("Long.flac"))")
        #expect(((none["lyricsList"] as? [String: Any])?["structuredLyrics"] as? [Any])?.isEmpty == true)
    }

    @Test func getLyricsByArtistAndTitle() async throws {
        let f = try await MediaFixture.shared.value
        let plain = try await f.json("getLyrics", "artist=ann&title=PLAIN")
        let lyrics = try #require(plain["lyrics"] as? [String: Any])
        #expect(lyrics["value"] as? String == MediaFixture.unsynced)
        #expect(lyrics["title"] as? String == "Plain")
        let synced = try await f.json("getLyrics", "artist=Ann&title=Tone")
        #expect((synced["lyrics"] as? [String: Any])?["value"] as? String == "Opening\nFirst line\nTwice\nTwice")
        let nothing = try await f.json("getLyrics", "artist=Nobody&title=Nothing")
        #expect((nothing["lyrics"] as? [String: Any])?["value"] == nil)
        #expect(nothing["status"] as? String == "ok")
    }

    @Test func lrcParsing() {
        let text = LyricsText("[ti:T]\r\n[00:02.5]b\r\n[1:00.123]c\r\n[00:01:20]a\r\nnot timed\r\n[xx:yy]odd")
        #expect(text.synced)
        #expect(text.title == "T")
        #expect(text.lines == [.init(start: 1200, text: "a"), .init(start: 2500, text: "b"), .init(start: 60_123, text: "c")])
        let plain = LyricsText("\nOne\n\nTwo\n")
        #expect(!plain.synced)
        #expect(plain.lines.map(\.text) == ["One", "", "Two"])
    }
}
