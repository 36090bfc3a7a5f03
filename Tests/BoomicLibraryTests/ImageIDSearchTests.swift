import BoomicStore
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore
@testable import BoomicLibrary

/// A checkpoint image finds a song's row by its id in a few probes when the ids are random, as
/// ours are, and still finds every id, in at most twice a bisection's probes and a few more, when
/// they are not.
@Suite struct ImageIDSearchTests {
    /// Sorted ids of each shape a library may hold.
    enum Shape: String, CaseIterable, Sendable {
        /// UUIDv4, as Boomic mints them.
        case random
        /// `CountingIDSource`'s: the same leading 8 bytes for all, as in the tests' histories.
        case counted
        /// UUIDv7-like: a millisecond clock in the leading 6 bytes, a song a millisecond apart.
        case timeOrdered
        /// Two tight clusters far apart, each random within: uniform nowhere.
        case clustered
    }

    static func ids(_ shape: Shape, _ n: Int, seed: UInt64) -> [SongID] {
        var rng = SplitMix64(seed: seed)
        func id(_ hi: UInt64, _ lo: UInt64) -> SongID {
            let h = hi.bigEndian, l = lo.bigEndian
            var u = UUID().uuid
            withUnsafeMutableBytes(of: &u) { b in
                b.storeBytes(of: h, toByteOffset: 0, as: UInt64.self)
                b.storeBytes(of: l, toByteOffset: 8, as: UInt64.self)
            }
            return SongID(UUID(uuid: u))
        }
        let made: [SongID]
        switch shape {
        case .random: made = (0..<n).map { _ in id(rng.next(), rng.next()) }
        case .counted:
            var source = CountingIDSource(seed: seed)
            made = (0..<n).map { _ in SongID(source.next()) }
        case .timeOrdered:
            let start = UInt64(1_700_000_000_000)
            made = (0..<n).map { i in id((start + UInt64(i)) << 16 | rng.next() & 0xFFFF, rng.next()) }
        case .clustered:
            made = (0..<n).map { i in id((i % 2 == 0 ? 0x1000 : 0xF000) << 48 | rng.next() >> 40, rng.next()) }
        }
        return Array(Set(made)).sorted()
    }

    /// Searches `sorted` as the image does, counting the probes.
    static func search(_ sorted: [SongID], for id: SongID) -> (rank: Int?, probes: Int) {
        var probes = 0
        let rank = ImageSongs.search(sorted.count, for: id) { probes += 1; return sorted[$0] }
        return (rank, probes)
    }

    @Test(arguments: Shape.allCases)
    func everyIDIsFoundAtItsRankAndNoOtherIs(_ shape: Shape) {
        for n in [0, 1, 2, 3, 17, 1_000, 20_000] {
            let sorted = Self.ids(shape, n, seed: UInt64(n) &* 0x9E37)
            let bound = ImageSongs.interpolated + 2 * (Int.bitWidth - sorted.count.leadingZeroBitCount) + 1
            for (rank, id) in sorted.enumerated() {
                let found = Self.search(sorted, for: id)
                #expect(found.rank == rank, "\(shape), \(n) ids: \(id) at \(rank), found at \(String(describing: found.rank))")
                #expect(found.probes <= bound, "\(shape), \(n) ids: \(found.probes) probes for \(id)")
            }
            // Absent: others of the same shape, and ids just past each present one.
            let present = Set(sorted)
            let others = Self.ids(shape, min(n, 500) + 5, seed: UInt64(n) &+ 77).filter { !present.contains($0) }
            let neighbours = sorted.prefix(500).map { id in
                var u = id.uuid.uuid
                u.15 &+= 1
                return SongID(UUID(uuid: u))
            }.filter { !present.contains($0) }
            for id in others + neighbours {
                let found = Self.search(sorted, for: id)
                #expect(found.rank == nil, "\(shape), \(n) ids: \(id) is absent, found at \(String(describing: found.rank))")
                #expect(found.probes <= bound)
            }
        }
    }

    /// The point of interpolating: a bisection of 2^18 ids takes 18 probes, each a new segment of
    /// the image at this size.
    @Test func randomIDsAreFoundInAFewProbes() {
        let sorted = Self.ids(.random, 1 << 18, seed: 0x1D5)
        var rng = SplitMix64(seed: 7)
        var total = 0, most = 0
        let lookups = 2_000
        for _ in 0..<lookups {
            let probes = Self.search(sorted, for: sorted[Int.random(in: 0..<sorted.count, using: &rng)]).probes
            total += probes
            most = max(most, probes)
        }
        let mean = Double(total) / Double(lookups)
        #expect(mean <= 5, "mean probes \(mean) for a random id among \(sorted.count)")
        #expect(most <= 14, "\(most) probes for a random id among \(sorted.count)")
    }

    /// Bytes made to pass the checksums: a rank whose row cannot be read ends the search with
    /// nil, never with another id's rank.
    @Test func anUnreadableRankEndsTheSearchWithNothing() {
        let sorted = Self.ids(.random, 1_000, seed: 0xBAD)
        for target in [0, 1, 499, 998, 999] {
            var unreadable: Set<Int> = []
            // Every rank the search probes on its way to the target, made unreadable one at a time.
            _ = ImageSongs.search(sorted.count, for: sorted[target]) { unreadable.insert($0); return sorted[$0] }
            for bad in unreadable {
                let found = ImageSongs.search(sorted.count, for: sorted[target]) { $0 == bad ? nil : sorted[$0] }
                #expect(found == nil, "rank \(bad) unreadable, yet \(String(describing: found)) found for rank \(target)")
            }
        }
    }

    /// Through a real image: `row(of:)` names the row holding the id, whose id it reads back.
    @Test func theImageFindsEveryRowOfItsSongs() throws {
        let ids = Self.ids(.random, 3_000, seed: 0x1A6E)
        var rng = SplitMix64(seed: 3)
        let songs = ids.shuffled(using: &rng).enumerated().map { i, id in
            var song = Song(id: id, path: "/music/\(i % 37)/\(i).flac")
            song.title = "T\(i)"
            return song
        }
        var writer = ImageWriter()
        try ImageSongsWriter.write(songs, into: &writer)
        let image = try ImageSongs(SnapshotImage(ImageBytes(copying: writer.bytes(format: UInt64(BasisCodec.format), seq: 0))))
        for song in songs {
            let row = try #require(image.row(of: song.id), "\(song.id) not found")
            #expect(image.id(atRow: row) == song.id)
            #expect(image.song(atRow: row).path == song.path)
        }
        for id in Self.ids(.random, 200, seed: 0xAB5E) where !Set(ids).contains(id) {
            #expect(image.row(of: id) == nil)
        }
    }
}
