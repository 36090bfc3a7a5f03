import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// The log's quick encoder (`Transaction.encodedQuickly`) writes, byte for byte, what
/// `JSONEncoder` with the log's settings writes: on every transaction of every random history,
/// and on values chosen for their spelling (control characters, quotes, doubles of every
/// magnitude, negative and extreme integers). A failure names the seed; `BOOMIC_SEED=<seed>`
/// replays it.
@Suite("The log's quick encoder writes JSONEncoder's bytes")
struct QuickEncodingLawTests {
    static let encoder = QuickDecodingLawTests.encoder

    @Test("every transaction of every random history is written as JSONEncoder writes it")
    func everyTransactionIsWrittenAsJSONEncoderWritesIt() throws {
        var checked = 0
        for h in Histories.all {
            for (k, t) in h.transactions.enumerated() {
                let quick = try #require(t.encodedQuickly(), "seed \(h.seed): transaction \(k + 1) not written")
                let reference = try Self.encoder.encode(t)
                #expect(quick == reference, """
                    seed \(h.seed): transaction \(k + 1) written differently
                      quick:       \(String(decoding: quick, as: UTF8.self))
                      JSONEncoder: \(String(decoding: reference, as: UTF8.self))
                    """)
                checked += 1
            }
        }
        #expect(checked >= Seeds.atLeast(1_000))
    }

    /// Texts and numbers whose spelling differs between writers, on a song and in a patch.
    @Test("texts and numbers of every spelling", arguments: Seeds.list(40, from: 0xE4C0DE))
    func spellings(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let pieces = ["a", "é", "😀", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}", "\u{7F}",
                      "\"", "\\", "/", "\u{2028}", "e\u{301}", " ", "#", "&", "<"]
        func text() -> String { (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined() }
        func double() -> Double {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: return Double(Int.random(in: -1_000...1_000, using: &rng))
            case 1: return Double.random(in: -1...1, using: &rng)
            case 2: return Double(sign: .plus, exponent: Int.random(in: -1_000...1_000, using: &rng), significand: 1.25)
            case 3: return [0.0, -0.0, 1e15, 1e16, 1e-5, 1e-4, 1e21, .greatestFiniteMagnitude, .leastNonzeroMagnitude].randomElement(using: &rng)!
            default: return Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &rng) & 0x7FEF_FFFF_FFFF_FFFF)
            }
        }
        func int() -> Int { [0, -1, .min, .max, Int.random(in: .min ... .max, using: &rng)].randomElement(using: &rng)! }
        var song = Song(id: SongID(UUID()), path: "/m/" + text())
        song.title = text()
        song.artists = [text(), text()]
        song.duration = double()
        song.replaygainTrackGain = double()
        song.size = int()
        song.track = int()
        song.fileValues = ["TITLE=" + text()]
        let patch: SongPatch = [.genre: FieldChange(old: .string(text()), new: .null),
                                .rating: FieldChange(old: .int(int()), new: .double(double())),
                                .tags: FieldChange(old: .strings([text()]), new: .bool(true))]
        let t = Transaction(id: UUID(), parent: UUID(), timestamp: double(), kind: Transaction.Kind(rawValue: text()),
                            label: text(), provenance: Transaction.Provenance(command: text(), user: text()),
                            assertions: [.addSong(song), .updateSong(song.id, patch), .deleteSong(song)],
                            undoes: [UUID()], redoes: UUID())
        let quick = try #require(t.encodedQuickly())
        let reference = try Self.encoder.encode(t)
        #expect(quick == reference, "seed \(seed)\n  quick:       \(String(decoding: quick, as: UTF8.self))\n  JSONEncoder: \(String(decoding: reference, as: UTF8.self))")
    }

    @Test("a value JSONEncoder refuses is left to it")
    func nonFiniteIsLeftToJSONEncoder() {
        var song = Song(id: SongID(UUID()), path: "/m/a")
        song.duration = .nan
        let t = Transaction(id: UUID(), parent: nil, timestamp: 1, kind: .edit, label: "x", assertions: [.addSong(song)])
        #expect(t.encodedQuickly() == nil)
        #expect(throws: EncodingError.self) { try Self.encoder.encode(t) }
    }
}
