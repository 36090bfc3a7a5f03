import BoomicTestSupport
import Testing
@testable import BoomicCore

/// The folder a library's songs imply when it remembers none (`boomic serve` of a library
/// rebuilt by `import-json`).
@Suite struct InferredMusicFolderTests {
    @Test(arguments: [
        (["/music/A/x.flac", "/music/B/y.flac"], "/music"),
        (["/music/A/x.flac"], "/music/A"),
        (["/music/A/x.flac", "/music/A/Disc 2/y.flac"], "/music/A"),
        // A shared start of a name is no folder.
        (["/music/ab/x.flac", "/music/abc/y.flac"], "/music"),
        (["/music/x.flac", "/data/y.flac"], "/"),
        (["/x.flac"], "/"),
        // By bytes: composed and decomposed é are two folders on disk.
        (["/m/Caf\u{E9}/x.flac", "/m/Cafe\u{301}/y.flac"], "/m"),
        (["relative/x.flac", "/music/A/x.flac"], "/music/A"),
    ] as [([String], String)])
    func theDeepestFolderHoldingEverySong(paths: [String], folder: String) {
        #expect(InferredMusicFolder.common(paths) == folder)
    }

    @Test func noAbsolutePathNamesNoFolder() {
        #expect(InferredMusicFolder.common([String]()) == nil)
        #expect(InferredMusicFolder.common(["x.flac"]) == nil)
    }

    /// The first and last paths in byte order give what all of them give, which lets a basis
    /// read two rows of its image instead of every song.
    @Test(arguments: Seeds.list(50, from: 1))
    func theEndsOfTheSortedPathsSuffice(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let parts = ["a", "ab", "b", "Caf\u{E9}", "Cafe\u{301}", "x y", "ü"]
        let paths = (0..<Int.random(in: 1...12, using: &rng)).map { _ in
            "/" + (0..<Int.random(in: 1...4, using: &rng)).map { _ in parts.randomElement(using: &rng)! }.joined(separator: "/") + ".flac"
        }
        let sorted = paths.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        #expect(InferredMusicFolder.common([sorted.first!, sorted.last!]) == InferredMusicFolder.common(paths), "seed \(seed): \(paths)")
    }
}
