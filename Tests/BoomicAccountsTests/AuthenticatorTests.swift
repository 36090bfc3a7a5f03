import BoomicTestSupport
import Foundation
import Testing

@testable import BoomicAccounts

/// Subsonic's authentication: the token, `enc:` passwords, API keys and each failure's code.
@Suite struct AuthenticatorTests {
    let dir = TempDir("boomic-auth")
    let auth: Authenticator
    let key: NewAPIKey

    init() throws {
        let accounts = Accounts(folder: dir.path)
        try accounts.add(name: "anna", password: "sesame")
        try accounts.add(name: "ben", password: "pässwörd")
        key = try accounts.addKey(to: "anna", label: "phone")
        auth = try accounts.authenticator()
    }

    /// Subsonic's documentation: password "sesame", salt "c19b2d" → token
    /// 26719a1196d2a940705a59634eb18eab.
    @Test func theTokenOfSubsonicsExample() throws {
        #expect(Hex.encode(Digests.md5(Array("sesamec19b2d".utf8))) == "26719a1196d2a940705a59634eb18eab")
        #expect(try auth.authenticate(user: "anna", token: "26719a1196d2a940705a59634eb18eab", salt: "c19b2d").get().name == "anna")
        // Either case of hex; the name without regard to case.
        #expect(try auth.authenticate(user: "ANNA", token: "26719A1196D2A940705A59634EB18EAB", salt: "c19b2d").get().name == "anna")
        let wrong: [(String, String, String)] = [
            ("anna", "26719a1196d2a940705a59634eb18eab", "c19b2e"), // another salt
            ("anna", "26719a1196d2a940705a59634eb18eac", "c19b2d"), // one digit off
            ("anna", "26719a1196d2a940705a59634eb18ea", "c19b2d"),  // short
            ("anna", "not hex at all, not hex at all!!", "c19b2d"),
            ("ben", "26719a1196d2a940705a59634eb18eab", "c19b2d"),  // another's password
            ("nobody", "26719a1196d2a940705a59634eb18eab", "c19b2d"),
        ]
        for (user, token, salt) in wrong {
            #expect(auth.authenticate(user: user, token: token, salt: salt) == .failure(.wrongCredentials), "\(user) \(token) \(salt)")
        }
    }

    /// A password that is not ASCII: its token is over its UTF-8.
    @Test func theTokenOfAPasswordBeyondASCII() throws {
        let token = Hex.encode(Digests.md5(Array("pässwördxyz".utf8)))
        #expect(try auth.authenticate(user: "ben", token: token, salt: "xyz").get().name == "ben")
    }

    @Test func passwordsInClearAndAsEncHex() throws {
        #expect(try auth.authenticate(user: "anna", password: "sesame").get().name == "anna")
        // "sesame" in hex of UTF-8; and "pässwörd" (two-byte letters).
        #expect(try auth.authenticate(user: "anna", password: "enc:736573616d65").get().name == "anna")
        #expect(try auth.authenticate(user: "anna", password: "enc:736573616D65").get().name == "anna")
        #expect(try auth.authenticate(user: "ben", password: "enc:70c3a4737377c3b67264").get().name == "ben")
        for p in ["sesam", "sesame ", "enc:736573616d", "enc:zz", "enc:", "736573616d65"] {
            #expect(auth.authenticate(user: "anna", password: p) == .failure(.wrongCredentials), "\(p)")
        }
        #expect(auth.authenticate(user: "nobody", password: "sesame") == .failure(.wrongCredentials))
    }

    @Test func apiKeysAreStoredAsTheirSHA256() throws {
        #expect(try auth.authenticate(apiKey: key.key).get().name == "anna")
        let stored = try #require(auth.users.first { $0.name == "anna" }?.keys.first)
        #expect(stored.sha256 == Hex.encode(Digests.sha256(Array(key.key.utf8))))
        #expect(stored.sha256.count == 64)
        #expect(auth.authenticate(apiKey: key.key + "x") == .failure(.invalidAPIKey))
        #expect(auth.authenticate(apiKey: String(key.key.dropLast())) == .failure(.invalidAPIKey))
        #expect(auth.authenticate(apiKey: stored.sha256) == .failure(.invalidAPIKey))
    }

    /// Each failure by the request's parameters, and its Subsonic code.
    @Test(arguments: [
        (Credentials(), AuthFailure.missingParameter("u"), 10),
        (Credentials(password: "sesame"), .missingParameter("u"), 10),
        (Credentials(user: "anna"), .missingParameter("p"), 10),
        (Credentials(user: "anna", token: "26719a1196d2a940705a59634eb18eab"), .missingParameter("s"), 10),
        (Credentials(user: "anna", salt: "c19b2d"), .missingParameter("t"), 10),
        (Credentials(user: "anna", password: ""), .missingParameter("p"), 10),
        (Credentials(user: "anna", password: "wrong"), .wrongCredentials, 40),
        (Credentials(user: "nobody", password: "sesame"), .wrongCredentials, 40),
        (Credentials(user: "anna", password: "sesame", token: "26719a1196d2a940705a59634eb18eab", salt: "c19b2d"), .conflictingMechanisms, 43),
        (Credentials(user: "anna", password: "sesame", salt: "c19b2d"), .conflictingMechanisms, 43),
        (Credentials(user: "anna", apiKey: "k"), .conflictingMechanisms, 43),
        (Credentials(password: "sesame", apiKey: "k"), .conflictingMechanisms, 43),
        (Credentials(token: "t", salt: "s", apiKey: "k"), .conflictingMechanisms, 43),
        (Credentials(apiKey: "boomic_not-a-key"), .invalidAPIKey, 44),
    ] as [(Credentials, AuthFailure, Int)])
    func failures(credentials: Credentials, failure: AuthFailure, code: Int) {
        #expect(auth.authenticate(credentials) == .failure(failure))
        #expect(failure.code == code)
        #expect(!failure.message.isEmpty && !failure.message.contains("\n"))
    }

    @Test func eachMechanismThroughTheRequestsParameters() throws {
        let ok: [Credentials] = [
            Credentials(user: "anna", password: "sesame"),
            Credentials(user: "anna", password: "enc:736573616d65"),
            Credentials(user: "anna", token: "26719a1196d2a940705a59634eb18eab", salt: "c19b2d"),
            Credentials(apiKey: key.key),
            // Empty values count as absent.
            Credentials(user: "anna", password: "", token: "26719a1196d2a940705a59634eb18eab", salt: "c19b2d"),
            Credentials(user: "", password: "", apiKey: key.key),
        ]
        for c in ok { #expect(try auth.authenticate(c).get().name == "anna", "\(c)") }
    }

    @Test func credentialsFromARequestsParameters() throws {
        let query = ["u": "anna", "t": "26719a1196d2a940705a59634eb18eab", "s": "c19b2d", "v": "1.16.1", "c": "test"]
        let c = Credentials { query[$0] }
        #expect(c == Credentials(user: "anna", token: "26719a1196d2a940705a59634eb18eab", salt: "c19b2d"))
        #expect(try auth.authenticate(c).get().name == "anna")
        #expect(Credentials { ["apiKey": "k"][$0] } == Credentials(apiKey: "k"))
    }

    /// The codes Boomic never answers itself are kept for the front.
    @Test func theCodesOfEveryFailure() {
        #expect(AuthFailure.tokenAuthenticationNotSupported.code == 41)
        #expect(AuthFailure.mechanismNotSupported.code == 42)
        #expect(AuthFailure.conflictingMechanisms.message == "Multiple conflicting authentication mechanisms provided.")
        #expect(AuthFailure.wrongCredentials.message == "Wrong username or password.")
    }

    @Test func hexAndConstantTimeComparison() {
        #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(Hex.decode("000FA0ff") == [0x00, 0x0f, 0xa0, 0xff])
        #expect(Hex.decode("abc") == nil && Hex.decode("zz") == nil)
        #expect(ConstantTime.equal([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2]))
    }
}
