@testable import BoomicCore
import BoomicTestSupport
import Foundation
import Testing

/// `CompactDigest` keeps fingerprints and MusicBrainz ids in two words: whatever text it is
/// given must read back byte for byte, and two values must be equal exactly when their texts
/// are, near misses (an uppercase digit, a hyphen out of place) included.
@Suite struct CompactDigestTests {
    @Test func digestsAndIdsArePackedAndReadBack() {
        let id = "0383dadf-2a4e-4d10-a46a-e9e041da8eb3"
        let cases: [(String, String)] = [
            ("0123456789abcdef", "hex16"), ("ffffffffffffffff", "hex16"), ("0000000000000000", "hex16"),
            ("d41d8cd98f00b204e9800998ecf8427e", "hex32"), (id, "uuid"),
            ("00000000-0000-0000-0000-000000000000", "uuid"),
        ]
        for (text, kind) in cases {
            let packed = CompactDigest(text)
            #expect("\(packed)".hasPrefix(kind), "\(text): \(packed)")
            #expect(packed.string == text)
        }
    }

    @Test func anythingElseIsKeptAsText() {
        for text in ["", "0123456789ABCDEF", "0123456789abcdeg", "0123456789abcde", "0123456789abcdef0",
                     "0383DADF-2a4e-4d10-a46a-e9e041da8eb3", "0383dadf2a4e-4d10-a46a-e9e041da8eb3-",
                     "0383dadf-2a4e-4d10-a46ae-9e041da8eb3", "0383dadf-2a4e-4d10-a46a-e9e041da8eb3 ",
                     "ｄ41d8cd98f00b204e9800998ecf8427", "+123456789abcdef", "-0383dad-2a4e-4d10-a46a-e9e041da8eb3"] {
            let packed = CompactDigest(text)
            #expect(packed == .text(text), "\(text): \(packed)")
            #expect(packed.string == text)
        }
    }

    /// Random texts, most of them digests and ids or one character away from one.
    @Test(arguments: Seeds.list(3, from: 0xD16E57))
    func everyTextReadsBackAndEqualityIsTheTexts(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let alphabet = Array("0123456789abcdefABCDEF-g ")
        var texts: [String] = []
        for _ in 0..<3_000 {
            var chars: [Character]
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: chars = (0..<16).map { _ in "0123456789abcdef".randomElement(using: &rng)! }
            case 1: chars = (0..<32).map { _ in "0123456789abcdef".randomElement(using: &rng)! }
            default: chars = Array(UUID().uuidString.lowercased())
            }
            if Bool.random(using: &rng) {
                chars[Int.random(in: 0..<chars.count, using: &rng)] = alphabet.randomElement(using: &rng)!
            }
            texts.append(String(chars))
        }
        for text in texts { #expect(CompactDigest(text).string == text, "seed \(seed): \(text)") }
        for _ in 0..<3_000 {
            let a = texts.randomElement(using: &rng)!, b = Bool.random(using: &rng) ? a : texts.randomElement(using: &rng)!
            #expect((CompactDigest(a) == CompactDigest(b)) == (a == b), "seed \(seed): \(a) \(b)")
            if a == b { #expect(CompactDigest(a).hashValue == CompactDigest(b).hashValue) }
        }
    }

    @Test func aSongKeepsItsFingerprintAndIdsExactly() {
        var song = Song(id: SongID(UUID()), path: "a.flac")
        for text in ["d41d8cd98f00b204e9800998ecf8427e", "D41D8CD98F00B204E9800998ECF8427E", "0123456789abcdef", "x"] {
            song.fingerprint = text
            song.mbTrackID = text
            song.mbReleaseTrackID = text
            #expect(song.fingerprint == text && song.mbTrackID == text && song.mbReleaseTrackID == text)
        }
        song.fingerprint = nil
        song.mbTrackID = nil
        #expect(song.fingerprint == nil && song.mbTrackID == nil && song.mbReleaseTrackID == "x")
    }
}
