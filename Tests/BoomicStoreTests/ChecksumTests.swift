import Testing
@testable import BoomicStore

@Suite struct ChecksumTests {
    /// Reference outputs of the xxHash library (python `xxhash.xxh64`), covering every tail path.
    @Test(arguments: [
        ([UInt8](), 0xEF46_DB37_51D8_E999),
        (Array("a".utf8), 0xD24E_C4F1_A98C_6E5B),
        (Array("abc".utf8), 0x44BC_2CF5_AD77_0999),
        (Array("0123456789abcdef0123456789abcdef".utf8), 0x642A_9495_8E71_E6C5),
        ((0..<3).flatMap { _ in (0...255).map { UInt8($0) } } + Array("xyz12".utf8), 0x9B7D_50C0_4781_8B1B),
    ] as [([UInt8], UInt64)])
    func xxh64MatchesReference(bytes: [UInt8], expected: UInt64) {
        #expect(bytes.withUnsafeBytes { Checksum.xxh64($0) } == expected)
    }

    @Test func storedFormNamesTheAlgorithm() {
        #expect(Checksum.string(of: "") == "xxh64:ef46db3751d8e999")
        #expect(Checksum.string(of: "a") == Checksum.string(of: Array("a".utf8)))
    }

    /// Checkpoints at `seqs`, each weighing the number of transactions since the previous one.
    func evenly(_ seqs: [Int]) -> [StoredCheckpoint] {
        zip(seqs, [0] + seqs).map { StoredCheckpoint(seq: $0, weight: $0 - $1) }
    }

    @Test func retentionKeepsNewestAndSpreadsTheRest() {
        let keep = CheckpointPolicy<Int>.thinned
        #expect(keep(evenly([10, 20, 30]), 5) == evenly([10, 20, 30]))
        #expect(keep(evenly([10, 20, 30]), 1) == [StoredCheckpoint(seq: 30, weight: 30)])
        // Dropping 20 leaves a gap of 20 (10…30), as does dropping 10 (0…20); ties drop the older.
        #expect(keep(evenly([10, 20, 30, 100]), 3).map(\.seq) == [20, 30, 100])
        let kept = keep(evenly(Array(stride(from: 5, through: 500, by: 5))), 10)
        #expect(kept.count == 10)
        #expect(kept.last?.seq == 500)
        #expect(kept.map(\.weight).reduce(0, +) == 500)
        #expect(kept.map(\.weight).max()! <= 100)
    }

    @Test func retentionKeepsTheCheckpointAfterAHeavyTransaction() {
        // seq 1 is a 50,000-song import; then small edits.
        let checkpoints = [StoredCheckpoint(seq: 1, weight: 50_000)]
            + (1...10).map { StoredCheckpoint(seq: 1 + 500 * $0, weight: 500) }
        let kept = CheckpointPolicy<Int>.thinned(checkpoints, retained: 4)
        #expect(kept.first == StoredCheckpoint(seq: 1, weight: 50_000))
        #expect(kept.count == 4)
    }
}
