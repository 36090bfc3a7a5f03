@testable import BoomicHTTP
import Testing

struct HTTPAddressTests {
    @Test func parsedAsBindIs() throws {
        #expect(try HTTPAddress(parsing: "4040") == HTTPAddress(host: "127.0.0.1", port: 4040))
        #expect(try HTTPAddress(parsing: "0.0.0.0:80") == HTTPAddress(host: "0.0.0.0", port: 80))
        #expect(try HTTPAddress(parsing: "[::1]:4040") == HTTPAddress(host: "::1", port: 4040))
        #expect(try HTTPAddress(parsing: "[::1]:4040").description == "[::1]:4040")
        #expect(try HTTPAddress(parsing: "localhost:8080").host == "localhost")
        for bad in ["", "x", "70000", "0", "::1:4040", "[::1:4040", "host:", ":80", "/run/sock", "[]:80"] {
            #expect(throws: HTTPServerError.self, "\(bad)") { try HTTPAddress(parsing: bad) }
        }
        #expect(throws: HTTPServerError("http takes [ADDRESS:]PORT (such as 4040, 127.0.0.1:4040 or [::1]:4040), not 'x'")) {
            try HTTPAddress(parsing: "x", option: "http")
        }
    }

    @Test func loopbackIsThisMachineOnly() throws {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "localhost", "::ffff:127.0.0.1"] {
            #expect(HTTPAddress(host: host, port: 1).isLoopback, "\(host)")
        }
        for host in ["0.0.0.0", "::", "192.168.1.2", "music.example", "128.0.0.1", "::2"] {
            #expect(!HTTPAddress(host: host, port: 1).isLoopback, "\(host)")
        }
    }

    @Test func theNetworkNeedsAnAccount() throws {
        let open = HTTPAddress(host: "0.0.0.0", port: 4040)
        #expect(throws: HTTPServerError.self) { try open.check(hasAccounts: false) }
        try open.check(hasAccounts: true)
        try HTTPAddress(host: "127.0.0.1", port: 4040).check(hasAccounts: false)
        do {
            try open.check(hasAccounts: false)
        } catch {
            #expect(!error.message.contains("\n") && error.message.contains("boomic user add"))
        }
    }
}
