import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicLibrary

/// `boomic migrate beets` finds the library as beets does (issue 34, item 6): `$BEETSDIR`, else
/// `$XDG_CONFIG_HOME/beets`, else `~/.config/beets`; `library:` and `directory:` relative to that
/// folder, `~` expanded, quoted or not, with a comment after; the command line's database first.
@Suite struct BeetsLocationTests {
    @Test func topLevelSettingsOfBeetsConfig() {
        let settings = BeetsLocation.topLevelSettings("""
            # my beets
            directory: "~/My Music"   # quoted
            library: lib/beets.db # a comment
            import:
                library: not this one
                copy: no
            paths:
              default: $albumartist/$album/$title
            """)
        #expect(settings["directory"] == "~/My Music")
        #expect(settings["library"] == "lib/beets.db")
        #expect(settings["copy"] == nil && settings["default"] == nil)
    }

    @Test func configFolderOrder() throws {
        try withTemporaryDirectory { dir in
            let fm = FileManager.default
            for folder in ["/beetsdir", "/xdg/beets", "/home/.config/beets"] {
                try fm.createDirectory(atPath: dir + folder, withIntermediateDirectories: true)
                try Data().write(to: URL(fileURLWithPath: dir + folder + "/library.db"))
            }
            try "library: other.db\ndirectory: ~/Songs\n".write(toFile: dir + "/xdg/beets/config.yaml", atomically: true, encoding: .utf8)
            try Data().write(to: URL(fileURLWithPath: dir + "/xdg/beets/other.db"))
            let home = dir + "/home"

            let beetsdir = try BeetsLocation.find(database: nil, environment: ["BEETSDIR": dir + "/beetsdir", "XDG_CONFIG_HOME": dir + "/xdg", "HOME": home], cwd: "/")
            #expect(beetsdir == BeetsLocation(database: dir + "/beetsdir/library.db", directory: home + "/Music"))

            let xdg = try BeetsLocation.find(database: nil, environment: ["XDG_CONFIG_HOME": dir + "/xdg", "HOME": home], cwd: "/")
            #expect(xdg == BeetsLocation(database: dir + "/xdg/beets/other.db", directory: home + "/Songs", config: dir + "/xdg/beets/config.yaml"))

            let plain = try BeetsLocation.find(database: nil, environment: ["HOME": home], cwd: "/")
            #expect(plain.database == home + "/.config/beets/library.db")

            let given = try BeetsLocation.find(database: "x/lib.db", environment: ["XDG_CONFIG_HOME": dir + "/xdg", "HOME": home], cwd: dir)
            #expect(given.database == dir + "/x/lib.db" && given.directory == home + "/Songs")

            #expect(throws: LibraryError.self) {
                try BeetsLocation.find(database: nil, environment: ["HOME": dir + "/nobody"], cwd: "/")
            }
        }
    }
}
