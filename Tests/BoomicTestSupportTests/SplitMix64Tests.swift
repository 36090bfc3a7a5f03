import BoomicTestSupport
import Foundation
import Testing

/// The shared generator keeps its promises: a seed gives one stream forever (tests pin values
/// drawn from fixed seeds), `BOOMIC_SEED` is honoured, and a failure message carries a seed that
/// replays the same stream when given back.
@Suite struct SplitMix64Tests {
    static func draws(_ rng: inout SplitMix64, _ n: Int = 64) -> [UInt64] { (0..<n).map { _ in rng.next() } }

    @Test func sameSeedSameStream() {
        for seed: UInt64 in [0, 1, 0xB00_1C, .max] {
            var a = SplitMix64(seed: seed), b = SplitMix64(seed: seed)
            #expect(Self.draws(&a) == Self.draws(&b), "seed \(seed)")
            #expect(a.seed == seed, "drawing must not change the seed a message names")
        }
        var a = SplitMix64(seed: 1), b = SplitMix64(seed: 2)
        #expect(Self.draws(&a) != Self.draws(&b))
    }

    /// The published SplitMix64 outputs for seed 0 (as in Java's SplittableRandom and Vigna's
    /// reference code): the stream every copy this module replaced produced, so that tests
    /// whose expectations depend on drawn values keep them.
    @Test func streamIsTheReferenceOne() {
        var rng = SplitMix64(seed: 0)
        #expect(Self.draws(&rng, 3) == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }

    @Test func seedFromTheEnvironmentIsHonoured() {
        let rng = SplitMix64.fromEnvironment([Seeds.variable: "12345"])
        #expect(rng.seed == 12345)
        var replayed = rng, fresh = SplitMix64(seed: 12345)
        #expect(Self.draws(&replayed) == Self.draws(&fresh))

        #expect(Seeds.list(3, from: 100, replaying: Seeds.replayed(from: [Seeds.variable: "7"])) == [7])
        #expect(Seeds.list(3, from: 100, replaying: Seeds.replayed(from: [:])) == [100, 101, 102])
        #expect(Seeds.atLeast(50, replaying: 7) == 0 && Seeds.atLeast(50, replaying: nil) == 50)
    }

    /// Without the variable each run explores a new seed (two equal draws: one chance in 2^64).
    @Test func withoutTheVariableEachRunDrawsAFreshSeed() {
        #expect(Seeds.replayed(from: ["HOME": "/root"]) == nil)
        #expect(SplitMix64.fromEnvironment([:]).seed != SplitMix64.fromEnvironment([:]).seed)
    }

    /// The message names the seed in a form that, given back as the environment, replays it.
    @Test func failureMessageNamesTheSeedAndReplaysIt() throws {
        var original = SplitMix64(seed: 987_654_321_012)
        let message = "law broken after 3 steps, \(original.replay)"
        #expect(message.contains("seed 987654321012"))
        let assignment = try #require(message.split(whereSeparator: { " ()".contains($0) }).first { $0.hasPrefix(Seeds.variable + "=") })
        let value = String(assignment.dropFirst(Seeds.variable.count + 1))
        var replayed = SplitMix64.fromEnvironment([Seeds.variable: value])
        #expect(Self.draws(&replayed) == Self.draws(&original))
    }

    @Test func helpersStayInRange() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<1_000 {
            let u = rng.unit()
            #expect(u >= 0 && u < 1)
            let s = rng.subset(of: Array(0..<10), max: 4)
            #expect((1...4).contains(s.count) && s == s.sorted() && Set(s).count == s.count)
        }
        #expect(rng.subset(of: [Int](), max: 3).isEmpty && rng.subset(of: [1], max: 0).isEmpty)
        #expect(!rng.chance(0) && rng.chance(1))
    }

    @Test func temporaryFolderIsFreshAndGoesAway() throws {
        var kept = ""
        try withTemporaryDirectory("boomic-support") { dir throws in
            kept = dir
            #expect(FileManager.default.fileExists(atPath: dir))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
            #expect(FileManager.default.createFile(atPath: dir + "/x", contents: Data("x".utf8)))
        }
        #expect(!kept.isEmpty && !FileManager.default.fileExists(atPath: kept))
        #expect(TempDir().path != TempDir().path)
    }
}
