import Foundation
import Testing

@testable import BoomicAccounts

/// The digests and AES-GCM over the system's libcrypto give the published answers, and a
/// password sealed the way earlier builds sealed it (swift-crypto's combined form: nonce,
/// ciphertext, tag) opens. The sealed fixture was made by Python's `cryptography` (AESGCM), not
/// by this code.
@Suite struct CryptoKnownAnswerTests {
    /// Every function is found in the system's library, opened when first needed, not at start.
    @Test func theSystemsLibcryptoHasEveryFunction() throws {
        _ = try LibCrypto.open().get()
        try LibCrypto.require()
        let missing = AccountError.cryptoMissing("libcrypto.so.3 cannot be opened; on Debian: apt install libssl3")
        #expect(missing.description == "accounts need OpenSSL's libcrypto: libcrypto.so.3 cannot be opened; on Debian: apt install libssl3")
    }

    @Test func digestsGiveThePublishedAnswers() {
        // RFC 1321 and FIPS 180-2's "abc"; RFC 4231's test case 2.
        #expect(Hex.encode(Digests.md5(Array("abc".utf8))) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(Hex.encode(Digests.md5([])) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(Hex.encode(Digests.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.encode(Digests.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Hex.encode(Digests.hmacSHA256(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    static let key = PasswordKey(bytes: Array(0..<32))!
    static let sealed = "ZGVmZ2hpamtsbW5vONh6FQqelShMBhdPXslazxPdK2F148mGWUI="

    @Test func aPasswordSealedByAnEarlierBuildOpens() throws {
        #expect(Self.key.open(Self.sealed, for: "alice") == "pässwörd")
        #expect(Self.key.fingerprint == "c01e23194fe4707b8a7a52dbad4f85aa")
        let again = AESGCM.seal(Array("pässwörd".utf8), key: Self.key.bytes, nonce: Array(100..<112), authenticating: Array("alice".utf8))
        #expect(Data(again).base64EncodedString() == Self.sealed)
    }

    @Test func aBoxThatIsNotTheSameDoesNotOpen() throws {
        #expect(Self.key.open(Self.sealed, for: "bob") == nil, "another account's name")
        #expect(PasswordKey(bytes: Array(1...32))!.open(Self.sealed, for: "alice") == nil, "another key")
        let bytes = Array(try #require(Data(base64Encoded: Self.sealed)))
        for i in bytes.indices {
            var damaged = bytes
            damaged[i] ^= 0x01
            #expect(Self.key.open(Data(damaged).base64EncodedString(), for: "alice") == nil, "byte \(i) flipped")
        }
        for cut in [1, 16, bytes.count - 12, bytes.count] {
            #expect(Self.key.open(Data(bytes.dropLast(cut)).base64EncodedString(), for: "alice") == nil, "\(cut) bytes cut")
        }
        #expect(Self.key.open("not base64!", for: "alice") == nil)
    }

    @Test func sealingTwiceGivesTwoBoxesThatBothOpen() {
        let a = Self.key.seal("", for: "alice"), b = Self.key.seal("", for: "alice")
        #expect(a != b, "a fresh nonce each time")
        #expect(Self.key.open(a, for: "alice") == "" && Self.key.open(b, for: "alice") == "")
        let long = String(repeating: "ü", count: 1_000)
        #expect(Self.key.open(Self.key.seal(long, for: "ä"), for: "ä") == long)
    }
}
