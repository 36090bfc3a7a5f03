import BoomicCore
import BoomicStore
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicLibrary

/// Times what every field passes through on the hot paths, over 50,000 songs with the fields
/// an imported library has: the checkpoint's encode and decode (every process's open), the
/// log's JSON rows, and reading and setting each field by `SongField`. Prints only, and only
/// when asked:
///
///     BOOMIC_BENCH=1 swift test --filter FieldPathBenchmark
@Suite struct FieldPathBenchmark {
    static let isEnabled = ProcessInfo.processInfo.environment["BOOMIC_BENCH"] != nil

    static func library(_ n: Int) -> [Song] {
        var rng = SplitMix64(seed: 77)
        let albums = (0..<n / 10).map { "Album \($0)" }, artists = (0..<n / 40).map { "Artist \($0)" }
        return (0..<n).map { i in
            var s = Song(id: SongID(rng.uuid()), path: "/music/\(i / 10)/\(i % 10) Song \(i).flac")
            s.size = Int.random(in: 1_000_000...90_000_000, using: &rng)
            s.mtime = 1_700_000_000_000_000_000 + Int.random(in: 0...1_000_000_000_000, using: &rng)
            s.fingerprint = String(UInt64.random(in: 0...UInt64.max, using: &rng), radix: 16)
            s.added = 1_795_392_887.1
            s.title = "Song \(i)"
            s.artists = [artists[(i / 10) % artists.count]]
            s.album = albums[i / 10]; s.albumartist = s.artists.first
            s.track = i % 10 + 1; s.tracktotal = 10; s.disc = 1; s.disctotal = 1; s.year = 1959; s.genre = "Jazz"
            s.replaygainTrackGain = -6.5; s.replaygainTrackPeak = 0.98
            s.replaygainAlbumGain = -7.25; s.replaygainAlbumPeak = 0.99
            s.mbTrackID = UUID().uuidString.lowercased(); s.mbAlbumID = "album-\(i / 10)"
            s.mbArtistID = "artist-\((i / 10) % artists.count)"
            s.duration = Double.random(in: 60...900, using: &rng)
            s.samplerate = 44100; s.bitdepth = 16; s.channels = 2; s.bitrate = 900; s.format = "FLAC"
            if i % 10 == 0 { s.tags = ["jazz"]; s.playcount = 3; s.rating = 4 }
            if i % 7 == 0 { s.work = "Work \(i / 70)"; s.movementNumber = i % 7 + 1 }
            return s
        }
    }

    static func best(_ runs: Int = 5, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return best
    }

    /// The table's loops against the code they replaced (`LegacySongCodec`), turn about in one
    /// process, best of each: one chunk of 8,000 songs decoded on one thread, and every field
    /// of 50,000 songs read through `SongField.value(in:)`.
    @Test(.enabled(if: isEnabled)) func tableAgainstTheHandWrittenCode() throws {
        let songs = Self.library(50_000)
        let chunk = Array(songs.prefix(8_000))
        var w = ByteWriter()
        SongCodec.encode(chunk, into: &w, songsPerChunk: 8_192)
        let bytes = w.bytes
        #expect(try LegacySongCodec.decode(bytes) == chunk)
        #expect(try SongCodec.decode(bytes) == chunk)
        var table = (decode: Double.infinity, read: Double.infinity), legacy = table
        var sum = 0
        for _ in 0..<7 {
            legacy.decode = min(legacy.decode, try Self.best(1) { _ = try LegacySongCodec.decode(bytes) })
            table.decode = min(table.decode, try Self.best(1) { _ = try SongCodec.decode(bytes) })
            legacy.read = min(legacy.read, Self.best(1) {
                for s in songs { for f in SongField.allCases { if case .string(let v) = LegacySongCodec.value(f, in: s) { sum &+= v.utf8.count } } }
            })
            table.read = min(table.read, Self.best(1) {
                for s in songs { for f in SongField.allCases { if case .string(let v) = f.value(in: s) { sum &+= v.utf8.count } } }
            })
        }
        print(String(format: "field table against hand-written code: decode 8,000 songs %.1f ms (hand-written %.1f ms, %.2fx); "
                     + "every field of 50,000 songs read %.1f ms (hand-written %.1f ms, %.2fx) [%d]",
                     table.decode, legacy.decode, table.decode / legacy.decode, table.read, legacy.read, table.read / legacy.read, sum % 10))
    }

    @Test(.enabled(if: isEnabled)) func fiftyThousandSongs() throws {
        let songs = Self.library(50_000)
        let bytes = SongCodec.encode(songs)
        var decoded: [Song] = []
        let encode = Self.best { _ = SongCodec.encode(songs) }
        let decode = try Self.best { decoded = try SongCodec.decode(bytes) }
        #expect(decoded == songs)
        let few = Array(songs.prefix(10_000))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = try encoder.encode(few)
        let jsonEncode = try Self.best(3) { _ = try encoder.encode(few) }
        let jsonDecode = try Self.best(3) { _ = try JSONDecoder().decode([Song].self, from: json) }
        var sum = 0
        let read = Self.best {
            for s in songs { for f in SongField.allCases { if case .string(let v) = f.value(in: s) { sum &+= v.utf8.count } } }
        }
        let write = Self.best(3) {
            for s in songs.prefix(10_000) { var t = s; for f in SongField.allCases { f.set(f.value(in: s), in: &t) } }
        }
        print(String(format: "field path benchmark: 50,000 songs: checkpoint encode %.1f ms, decode %.1f ms; "
                     + "10,000 log rows: JSON encode %.1f ms, decode %.1f ms; every field read %.1f ms (50,000), read and set %.1f ms (10,000) [%d]",
                     encode, decode, jsonEncode, jsonDecode, read, write, sum % 10))
    }
}
