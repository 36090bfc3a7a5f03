import BoomicTestSupport
import Foundation
import Testing

/// A library that remembers no music folder (restored from `library.sqlite` alone, which
/// `folders.json` is not in, or rebuilt by `import-json` from an export made before exports
/// carried the folders) is served from the folder its songs imply, with the same paths, not as
/// an empty tree beside a `stats` that counts them.
@Suite(.enabled(if: RunningServer.mpcAvailable, "mpc is installed by scripts/setup"))
struct ServeWithoutFoldersTests {
    @Test func aLibraryRestoredFromItsDatabaseAloneServesItsSongs() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let served = try RunningServer(box)
        let expected = try served.mpc("listall").lines
        _ = served.stop()
        #expect(expected.count > 10, "\(expected)")

        // The database alone, as a backup of it holds the library (every command closed it, so
        // nothing is left in its WAL).
        let fm = FileManager.default
        let database = box.root + "/library.sqlite"
        try fm.copyItem(atPath: box.library + "/library.sqlite", toPath: database)
        try fm.removeItem(atPath: box.library)
        try fm.createDirectory(atPath: box.library, withIntermediateDirectories: false)
        try fm.moveItem(atPath: database, toPath: box.library + "/library.sqlite")
        #expect(!fm.fileExists(atPath: box.library + "/folders.json"))

        let server = try RunningServer(box)
        #expect(try server.mpc("listall").lines == expected)
        #expect(try server.mpc("search", "title", "modal").lines == ["Miles Quartet/Blue Sketches/01 So Modal.flac"])
        _ = server.stop()
        #expect(server.serverLog.contains("remembers no music folder") && server.serverLog.contains(box.music), "\(server.serverLog)")
        // A rescan never walks a folder it was not given, but names the one the songs lie in.
        let rescan = try box.boomic("import")
        #expect(rescan.status != 0 && rescan.stderr.contains("no music folders to scan") && rescan.stderr.contains("lie under \(box.music)"),
                "\(rescan)")
    }
}
