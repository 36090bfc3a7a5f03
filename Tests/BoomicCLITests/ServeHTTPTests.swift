import BoomicTestSupport
import Foundation
import Testing

/// `boomic serve --http`: the HTTP front in the same process as the MPD port, over the same
/// library, answering curl while mpc is answered; stopped with it by SIGTERM; refused on the
/// network while no account exists; its address from config.toml too.
@Suite(.serialized, .enabled(if: RunningServer.mpcAvailable, "mpc is installed by scripts/setup"))
struct ServeHTTPTests {
    static func curl(_ url: String) throws -> ProcessRun {
        try ChildProcess.run("/usr/bin/curl", ["-sS", "--max-time", "10", url])
    }

    @Test func servesHTTPBesideMPD() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let http = try RunningServer.freePort()
        let server = try RunningServer(box, extra: ["--http", String(http)])
        try RunningServer.waitUntilListening(http, server.process) { "no HTTP on \(http): \(server.serverLog)" }

        let open = try Self.curl("http://127.0.0.1:\(http)/rest/getOpenSubsonicExtensions.view?f=json")
        #expect(open.succeeded && open.stdout.hasPrefix(#"{"subsonic-response":{"status":"ok","version":"1.16.1","type":"boomic""#), "\(open)")
        // No account exists yet: ping answers, and refuses the login (40).
        let ping = try Self.curl("http://127.0.0.1:\(http)/rest/ping.view?u=anna&p=x&v=1.16.1&c=curl")
        #expect(ping.stdout.contains(#"<subsonic-response xmlns="http://subsonic.org/restapi" status="failed""#)
                && ping.stdout.contains(#"<error code="40""#), "\(ping)")
        let status = try server.mpc("status")
        #expect(status.succeeded && status.stdout.contains("volume:100%"), "\(status)")
        #expect(server.serverLog.contains("HTTP on 127.0.0.1:\(http)"), "\(server.serverLog)")

        let (code, _) = server.stop()
        #expect(code == 0, "\(server.serverLog)")
        #expect(!(try Self.curl("http://127.0.0.1:\(http)/").succeeded), "HTTP still answers after SIGTERM")
        #expect(!server.serverLog.contains("http:"), "no error at the stop: \(server.serverLog)")
    }

    /// The accounts of `boomic user` are the front's: Subsonic's token of its documentation's
    /// example logs in, a wrong one is 40, and an account added while the server runs logs in
    /// at once; with an account, an address off loopback is accepted.
    @Test func theLibrarysAccountsLogIn() throws {
        let box = try Sandbox(samples: false)
        try box.succeed("init")
        try box.boomic(["user", "add", "anna"], input: "sesame\n").expectSuccess()
        let http = try RunningServer.freePort()
        let server = try RunningServer(box, extra: ["--http", "0.0.0.0:\(http)"])
        try RunningServer.waitUntilListening(http, server.process) { "no HTTP on \(http): \(server.serverLog)" }
        let base = "http://127.0.0.1:\(http)/rest/ping.view?v=1.16.1&c=curl&f=json"
        let token = try Self.curl(base + "&u=anna&t=26719a1196d2a940705a59634eb18eab&s=c19b2d")
        #expect(token.stdout.hasPrefix(#"{"subsonic-response":{"status":"ok""#), "\(token)")
        let wrong = try Self.curl(base + "&u=anna&t=00000000000000000000000000000000&s=c19b2d")
        #expect(wrong.stdout.contains(#""code":40"#), "\(wrong)")
        try box.boomic(["user", "add", "ben"], input: "other\n").expectSuccess()
        let ben = try Self.curl(base + "&u=ben&p=enc:" + "other".utf8.map { String(format: "%02x", $0) }.joined())
        #expect(ben.stdout.hasPrefix(#"{"subsonic-response":{"status":"ok""#), "\(ben)")
        let (code, _) = server.stop()
        #expect(code == 0, "\(server.serverLog)")
    }

    @Test func theNetworkIsRefusedWithoutAccounts() throws {
        let box = try Sandbox(samples: false)
        try box.succeed("init")
        let run = try box.boomic(["serve", "--bind", "127.0.0.1:\(try RunningServer.freePort())", "--output", "null",
                                  "--http", "0.0.0.0:\(try RunningServer.freePort())"], environment: ["XDG_CONFIG_HOME": box.root + "/config"])
        #expect(!run.succeeded && run.errorLines.count == 1 && run.stderr.contains("no account exists"), "\(run)")
    }

    /// A port already taken is one line, and the MPD side it started is stopped with it.
    @Test func aTakenPortIsOneLine() throws {
        let box = try Sandbox(samples: false)
        try box.succeed("init")
        let port = try RunningServer.freePort()
        let run = try box.boomic(["serve", "--bind", "127.0.0.1:\(port)", "--output", "null", "--http", String(port)],
                              environment: ["XDG_CONFIG_HOME": box.root + "/config"])
        #expect(!run.succeeded && run.errorLines == ["Error: cannot serve HTTP on 127.0.0.1:\(port): Address already in use"], "\(run)")
    }

    @Test func theAddressAndBaseComeFromConfig() throws {
        let box = try Sandbox(samples: false)
        try box.succeed("init")
        let http = try RunningServer.freePort()
        let dir = box.root + "/config/boomic"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "http = \"127.0.0.1:\(http)\"\nhttp_base = \"/music\"\n".write(toFile: dir + "/config.toml", atomically: true, encoding: .utf8)
        let server = try RunningServer(box)
        try RunningServer.waitUntilListening(http, server.process) { "no HTTP on \(http): \(server.serverLog)" }
        let open = try Self.curl("http://127.0.0.1:\(http)/music/rest/getOpenSubsonicExtensions?f=json")
        #expect(open.stdout.contains(#""status":"ok""#), "\(open)")

        try "http = \"everywhere\"\n".write(toFile: dir + "/config.toml", atomically: true, encoding: .utf8)
        _ = server.stop()
        let bad = try box.boomic(["serve", "--bind", "127.0.0.1:\(try RunningServer.freePort())", "--output", "null"],
                                 environment: ["XDG_CONFIG_HOME": box.root + "/config"])
        #expect(!bad.succeeded && bad.errorLines == ["Error: \(dir)/config.toml:1: http takes [ADDRESS:]PORT (such as 4040, 127.0.0.1:4040 or [::1]:4040), not 'everywhere'"],
                "\(bad)")
    }
}
