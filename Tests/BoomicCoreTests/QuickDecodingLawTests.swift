import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// The log's quick decoder (`Transaction.quickly`) reads every body the product writes, and on
/// any body, however damaged, it either gives up or gives what `JSONDecoder` gives: compared by
/// the two results' encodings, byte for byte (which `==` alone would not see: it calls NFC and
/// NFD names equal). A failure names the seed; `BOOMIC_SEED=<seed>` replays it.
@Suite("The log's quick decoder reads what JSONDecoder reads, or gives up")
struct QuickDecodingLawTests {
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    static func quick(_ body: Data) -> Transaction? { body.withUnsafeBytes { Transaction.quickly(from: $0) } }

    static func reference(_ body: Data) -> Transaction? { try? JSONDecoder().decode(Transaction.self, from: body) }

    /// Equal to the reference, in value and in its bytes once encoded.
    static func same(_ a: Transaction, _ b: Transaction) throws -> Bool {
        try a == b && encoder.encode(a) == encoder.encode(b)
    }

    @Test("every transaction of every random history is read quickly, equal to JSONDecoder's reading")
    func everyBodyTheProductWritesIsReadQuickly() throws {
        var bodies = 0
        for h in Histories.all {
            for (k, t) in h.transactions.enumerated() {
                let body = try Self.encoder.encode(t)
                guard let quick = Self.quick(body) else {
                    Issue.record("seed \(h.seed): transaction \(k + 1) (\(t.kind)) not read quickly")
                    continue
                }
                #expect(try Self.same(quick, try JSONDecoder().decode(Transaction.self, from: body)),
                        "seed \(h.seed): transaction \(k + 1) read differently")
                #expect(try Self.encoder.encode(quick) == body, "seed \(h.seed): transaction \(k + 1) does not encode back")
                bodies += 1
            }
        }
        #expect(bodies >= Seeds.atLeast(1_000))
    }

    /// Bytes changed, added, removed or cut off: the quick path may read a damaged body only
    /// when `JSONDecoder` reads it too, and then as it does.
    @Test("a damaged body is read as JSONDecoder reads it, or not at all")
    func damagedBodiesAreReadAsJSONDecoderReadsThemOrNotAtAll() throws {
        let alphabet = Array(#"{}[],:"\ 0123456789-+.eEnultrfasxyzU/é"#.utf8)
        var tried = 0, readBoth = 0
        for h in Histories.all {
            var rng = SplitMix64(seed: h.seed ^ 0xDA4A_6E)
            for t in h.transactions.prefix(4) {
                let body = Array(try Self.encoder.encode(t))
                for _ in 0..<12 {
                    var b = body
                    let at = Int.random(in: 0..<b.count, using: &rng)
                    switch Int.random(in: 0..<5, using: &rng) {
                    case 0: b[at] = alphabet.randomElement(using: &rng)!
                    case 1: b.remove(at: at)
                    case 2: b.insert(alphabet.randomElement(using: &rng)!, at: at)
                    case 3: b.removeSubrange(at...)
                    default: b[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
                    }
                    let data = Data(b)
                    tried += 1
                    guard let quick = Self.quick(data) else { continue }
                    guard let reference = Self.reference(data) else {
                        Issue.record("seed \(h.seed): read a body JSONDecoder refuses: \(String(decoding: b, as: UTF8.self))")
                        continue
                    }
                    #expect(try Self.same(quick, reference), "seed \(h.seed): \(String(decoding: b, as: UTF8.self))")
                    readBoth += 1
                }
            }
        }
        // Some damage leaves a body both read (a changed letter in a label): the comparison ran.
        #expect(readBoth >= Seeds.atLeast(50), "of \(tried) damaged bodies, \(readBoth) were read by both")
    }

    static let id = "4f1c2d3e-0000-4000-8000-00000000000a"
    static let songID = "5a6b7c8d-0000-4000-8000-00000000000b"

    static func body(_ assertion: String, extra: String = "") -> Data {
        Data(#"{"assertions":[\#(assertion)],"id":"\#(id)","kind":"edit","label":"x","provenance":{},"timestamp":1\#(extra)}"#.utf8)
    }

    static func update(_ field: String, _ old: String, _ new: String) -> String {
        #"{"update":{"fields":{"\#(field)":{"new":\#(new),"old":\#(old)}},"id":"\#(songID)"}}"#
    }

    @Test("what the log holds besides this build's own bodies", arguments: [
        // Spelled otherwise than the encoder writes, but read the same.
        (body(update("genre", #""Rock""#, #""J\u00e9zz \ud83d\ude00\n\/""#)), true),
        (Data(#" { "assertions" : [ ] , "id" : "4F1C2D3E-0000-4000-8000-00000000000A" , "kind" : "edit" , "label" : "x" , "timestamp" : 1.5e3 } "#.utf8), true),
        (body(update("rating", "null", "4")), true),
        (body(update("replaygain_track_gain", "-6", "-6.5")), true),
        (body(update("tags", "[]", #"["b","A","a"]"#)), true),
        (body(update("genre", "null", #""x""#), extra: #","undoes":null,"redoes":null,"parent":null,"future":[1,{"a":null}]"#), true),
        // Left to JSONDecoder: numbers it may read another way, duplicates, unknown fields.
        (body(update("rating", "null", "4.0")), false),
        (body(update("rating", "null", "1e2")), false),
        (body(update("rating", "null", "-0")), false),
        (body(update("rating", "null", "99999999999999999999")), false),
        (body(update("genre", "null", #""x""#), extra: #","label":"y""#), false),
        (body(update("no_such_field", "null", #""x""#)), false),
        (body(#"{"update":{"fields":{},"id":"\#(songID)"},"delete":{}}"#), false),
        (Data(#"{"assertions":[],"id":"\#(id)","kind":"edit","label":"x","timestamp":1} x"#.utf8), false),
        (Data(#"{"assertions":[],"id":"\#(id)","kind":"edit","label":"x\u0001\t","timestamp":1"#.utf8), false),
    ])
    func spellings(body: Data, readQuickly: Bool) throws {
        let quick = Self.quick(body)
        #expect((quick != nil) == readQuickly, "\(String(decoding: body, as: UTF8.self))")
        if let quick {
            #expect(try Self.same(quick, try JSONDecoder().decode(Transaction.self, from: body)))
        }
    }

    @Test("an add row in the old spelling is left to JSONDecoder, which reads it")
    func oldSpellingIsLeftToJSONDecoder() throws {
        var song = Song(id: SongID(UUID(uuidString: Self.songID)!), path: "/m/a.flac")
        song.title = "A"
        song.fileValues = ["TITLE=A"]
        let t = Transaction(id: UUID(uuidString: Self.id)!, parent: nil, timestamp: 2, kind: .import, label: "import",
                            assertions: [.addSong(song)])
        let new = String(decoding: try Self.encoder.encode(t), as: UTF8.self)
        #expect(Self.quick(Data(new.utf8)) != nil)
        let old = new.replacingOccurrences(of: #""file_values""#, with: #""fileValues""#)
        #expect(Self.quick(Data(old.utf8)) == nil)
        #expect(Self.reference(Data(old.utf8)).map { $0.assertions } == t.assertions)
    }
}
