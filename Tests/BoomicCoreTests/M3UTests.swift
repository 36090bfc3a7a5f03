import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// M3U8 text both ways: paths relative to the file's folder, absolute, file:// URLs, names that
/// look like comments, spaces, and paths normalised by text (symbolic links are never followed).
@Suite struct M3UTests {
    @Test func relativePathsReadBackToTheSameAbsolutePaths() {
        let paths = ["/music/A/x.flac", "/music/B/#9 Dream.mp3", "/music/B/ leading and trailing .mp3",
                     "/other/disk/y.mp3", "/music/lists/z.flac"]
        let text = M3U.render(name: "Mix", entries: paths.map { M3U.Entry(path: $0, duration: 61.4, title: "A - B") },
                              relativeTo: "/music/lists")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.prefix(3) == ["#EXTM3U", "#PLAYLIST:Mix", "#EXTINF:61,A - B"])
        #expect(lines.contains("../B/#9 Dream.mp3"))
        #expect(lines.contains("./z.flac") == false && lines.contains("z.flac"))
        #expect(lines.contains("../B/ leading and trailing .mp3"))
        let parsed = M3U.parse(text, base: "/music/lists")
        #expect(parsed.name == "Mix")
        #expect(parsed.paths == paths)
    }

    @Test func aNameStartingWithHashOrSpaceIsNotReadAsACommentOrTrimmed() {
        let text = M3U.render(name: "x", entries: [M3U.Entry(path: "/m/#1.mp3"), M3U.Entry(path: "/m/ 2.mp3")], relativeTo: "/m")
        #expect(text == "#EXTM3U\n#PLAYLIST:x\n./#1.mp3\n./ 2.mp3\n")
        #expect(M3U.parse(text, base: "/m").paths == ["/m/#1.mp3", "/m/ 2.mp3"])
    }

    @Test func linesOfEveryKind() {
        let text = "\u{FEFF}#EXTM3U\r\n#EXTINF:10,x\r\n../a/./b//c.flac\r\n\r\nfile:///m/%C3%A9t%C3%A9.mp3\nhttp://radio.example/s\n/abs/d.mp3\n# comment\n"
        let parsed = M3U.parse(text, base: "/m/lists")
        #expect(parsed.paths == ["/m/a/b/c.flac", "/m/été.mp3", "http://radio.example/s", "/abs/d.mp3"])
    }

    @Test func normalisingIsTextOnly() throws {
        #expect(M3U.normalized("/a/./b/../c//d/") == "/a/c/d")
        #expect(M3U.normalized("/../x") == "/x")
        // A symbolic link stays in the path, as the scan keeps it.
        try withTemporaryDirectory("m3u") { dir throws in
            try FileManager.default.createDirectory(atPath: dir + "/real/sub", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/real")
            #expect(M3U.parse("sub/../a.flac\n", base: dir + "/link").paths == [dir + "/link/a.flac"])
        }
    }
}
