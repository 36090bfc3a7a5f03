import BoomicTestSupport
import Foundation
import Testing

/// ncmpcpp, the full-screen MPD client, on `boomic serve` under tmux: its playlist, browser,
/// media library and search engine screens show the library's songs.
@Suite(.serialized, .enabled(if: TmuxSession.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/ncmpcpp"),
                             "tmux and ncmpcpp are installed by scripts/setup"))
struct ServeNcmpcppTests {
    @Test func ncmpcppShowsTheLibrary() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        #expect(try server.mpc("add", "Miles Quartet").succeeded)
        let home = box.root + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let session = try TmuxSession("HOME='\(home)' ncmpcpp -h 127.0.0.1 -p \(server.port)", width: 120, height: 30)
        defer { session.kill() }

        let playlist = try session.waitForScreen { $0.contains("Playlist (3 items") && $0.contains("Blue in Grey") }
        #expect(playlist != nil, "playlist screen: \((try? session.screen()) ?? "")")
        try session.send("2")
        let browser = try session.waitForScreen { $0.contains("Browse: /") && $0.contains("[Miles Quartet]") && $0.contains("[坂本 龍一郎]") }
        #expect(browser != nil, "browser screen: \((try? session.screen()) ?? "")")
        try session.send("4")
        let library = try session.waitForScreen { $0.contains("Media library") && $0.contains("Sigrún Jónsdóttir") && $0.contains("Miles Quartet") }
        #expect(library != nil, "media library screen: \((try? session.screen()) ?? "")")
        try session.send("3")
        let engine = try session.waitForScreen { $0.contains("Search engine") }
        try session.send("Enter")
        // Enter opens the field's prompt: typed before it shows, the keys would go to the pane.
        _ = try session.waitForScreen { $0 != engine }
        try session.send("modal", "Enter")
        _ = try session.waitForScreen { $0.contains("Any          : modal") }
        // Down to the "Search" button, below the fields and the two mode lines.
        for _ in 0..<13 { try session.send("Down") }
        try session.send("Enter")
        let found = try session.waitForScreen { $0.contains("Found 1 song") && $0.contains("Miles Quartet - So Modal") }
        #expect(found != nil, "search engine: \((try? session.screen()) ?? "")")
        #expect(server.process.isRunning, "\(server.serverLog)")
    }
}
