import BoomicCore
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicLibrary
import BoomicStore

/// Libraries written before the field table open unchanged: a checkpoint's song blob and a
/// log's add rows written by that build (`Tests/Fixtures/Fields`) decode to the same songs,
/// and encoding those songs again gives the same bytes. Every field of `Song` is set in some
/// of the songs (`SplitMix64.song()`), and left out in others.
///
/// The fixtures were made once, by the build before the table, with
///
///     BOOMIC_WRITE_FIELD_FIXTURES=1 swift test --filter FieldFixtureTests
///
/// and must never be made again: they are what an old library holds.
@Suite struct FieldFixtureTests {
    static let folder = Repo.root + "/Tests/Fixtures/Fields/"
    static let checkpointFile = folder + "songs.checkpoint"
    static let extremeFile = folder + "extreme-songs.checkpoint"
    static let logFile = folder + "add-rows.jsonl"

    /// Songs with finite doubles (the log's JSON has no NaN), one add row each.
    static func loggableSongs() -> [Song] {
        var rng = SplitMix64(seed: 3737)
        return (0..<60).map { _ in
            var s = rng.song()
            func finite(_ d: Double) -> Double { d.isFinite && d.bitPattern != (-0.0).bitPattern ? d : 1.5 }
            s.added = finite(s.added)
            s.replaygainTrackGain = s.replaygainTrackGain.map(finite); s.replaygainTrackPeak = s.replaygainTrackPeak.map(finite)
            s.replaygainAlbumGain = s.replaygainAlbumGain.map(finite); s.replaygainAlbumPeak = s.replaygainAlbumPeak.map(finite)
            s.duration = s.duration.map(finite); s.lastplayed = s.lastplayed.map(finite)
            s.bookmark = s.bookmark.map(finite); s.bookmarkSpeed = s.bookmarkSpeed.map(finite)
            return s
        }
    }

    /// Songs with every odd double (NaN payloads, -0.0, infinities), for the checkpoint alone.
    static func extremeSongs() -> [Song] {
        var rng = SplitMix64(seed: 3738)
        return (0..<60).map { _ in rng.song() }
    }

    static func rows(_ songs: [Song]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try songs.map { String(decoding: try encoder.encode(Assertion.addSong($0)), as: UTF8.self) }
            .joined(separator: "\n") + "\n"
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["BOOMIC_WRITE_FIELD_FIXTURES"] != nil))
    func writeFixtures() throws {
        try Data(SongCodec.encode(Self.loggableSongs())).write(to: URL(fileURLWithPath: Self.checkpointFile))
        try Data(SongCodec.encode(Self.extremeSongs())).write(to: URL(fileURLWithPath: Self.extremeFile))
        try Data(Self.rows(Self.loggableSongs()).utf8).write(to: URL(fileURLWithPath: Self.logFile))
    }

    static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try #require(FileManager.default.contents(atPath: path), "missing fixture \(path)"))
    }

    /// The old checkpoint decodes to the songs the log's rows hold, and encodes back to its bytes.
    @Test func oldCheckpointDecodesToTheLoggedSongs() throws {
        let bytes = try Self.read(Self.checkpointFile)
        let songs = try SongCodec.decode(bytes)
        let lines = String(decoding: try Self.read(Self.logFile), as: UTF8.self).split(separator: "\n")
        let logged = try lines.map { line -> Song in
            guard case .addSong(let s) = try JSONDecoder().decode(Assertion.self, from: Data(line.utf8)) else {
                throw StoreError.badEncoding("not an add row: \(line)")
            }
            return s
        }
        #expect(songs.count == 60)
        #expect(songs == logged)
        for (a, b) in zip(songs, logged) { #expect(a.doubleBits == b.doubleBits) }
        #expect(SongCodec.encode(songs) == bytes, "the checkpoint's bytes changed")
    }

    /// The old log's add rows decode and encode back to the same text, byte for byte.
    @Test func oldAddRowsReadAndWriteTheSameText() throws {
        let text = String(decoding: try Self.read(Self.logFile), as: UTF8.self)
        let songs = try text.split(separator: "\n").map { line -> Song in
            guard case .addSong(let s) = try JSONDecoder().decode(Assertion.self, from: Data(line.utf8)) else {
                throw StoreError.badEncoding("not an add row: \(line)")
            }
            return s
        }
        #expect(try Self.rows(songs) == text, "the log's add rows changed")
    }

    /// Every odd double survives bit for bit, and the bytes are the same again.
    @Test func oldCheckpointWithOddDoublesIsStable() throws {
        let bytes = try Self.read(Self.extremeFile)
        let songs = try SongCodec.decode(bytes)
        #expect(songs.count == 60)
        #expect(SongCodec.encode(songs) == bytes, "the checkpoint's bytes changed")
        for (a, b) in zip(songs, try SongCodec.decode(SongCodec.encode(songs))) {
            #expect(a.withoutDoubles == b.withoutDoubles && a.doubleBits == b.doubleBits)
        }
    }
}
