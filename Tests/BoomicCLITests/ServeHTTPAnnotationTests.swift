import BoomicTestSupport
import Foundation
import Testing

/// The annotation calls through `boomic serve --http` as a user sees them from the terminal: a
/// star sent with curl is in `boomic history` "by anna via curl" and `boomic undo` takes it
/// back; `getNowPlaying` shows what a room plays, under the room's name.
@Suite(.serialized, .enabled(if: RunningServer.mpcAvailable, "mpc is installed by scripts/setup"))
struct ServeHTTPAnnotationTests {
    @Test func aStarSentWithCurlIsInHistoryAndUndoTakesItBack() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        try box.boomic(["user", "add", "anna"], input: "sesame\n").expectSuccess()
        let song = try box.song("title:So Modal")
        let http = try RunningServer.freePort()
        let server = try RunningServer(box, extra: ["--http", String(http)])
        try RunningServer.waitUntilListening(http, server.process) { "no HTTP on \(http): \(server.serverLog)" }
        let rest = "http://127.0.0.1:\(http)/rest/"
        let anna = "u=anna&p=sesame&v=1.16.1&c=curl&f=json"

        let star = try ServeHTTPTests.curl(rest + "star.view?\(anna)&id=so-\(song.id)")
        #expect(star.stdout.hasPrefix(#"{"subsonic-response":{"status":"ok""#), "\(star)")
        #expect(try box.song("title:So Modal").favorite == true)
        let history = try box.succeed("history", "-n", "1")
        #expect(history.stdout.contains("star Miles Quartet - So Modal by anna via curl"), "\(history)")

        // A room playing: its song under the room's name.
        try server.mpc("add", "Miles Quartet").expectSuccess()
        try server.mpc("play", "1").expectSuccess()
        var now = try ServeHTTPTests.curl(rest + "getNowPlaying.view?\(anna)")
        try? waitUntil("the room to show as playing") {
            now = try ServeHTTPTests.curl(rest + "getNowPlaying.view?\(anna)")
            return now.stdout.contains(#""username":"default""#)
        }
        #expect(now.stdout.contains(#""username":"default""#) && now.stdout.contains(#""playerName":"default""#)
            && now.stdout.contains(#""title":"So Modal""#), "\(now)")
        try server.mpc("stop").expectSuccess()

        let (code, _) = server.stop()
        #expect(code == 0, "\(server.serverLog)")
        let undo = try box.boomic("undo", "-y")
        #expect(undo.succeeded, "\(undo)")
        #expect(try box.song("title:So Modal").favorite != true)
    }
}
