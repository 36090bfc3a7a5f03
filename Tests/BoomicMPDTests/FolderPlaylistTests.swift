import BoomicCore
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import Testing

/// Playlist files in the music folders, as MPD shows them: in their directory's listing (a
/// folder holding only playlists is a folder too), read by their path, each entry a client path
/// into the music folders; an old `.m3u` in Latin-1 read as such.
@Suite struct FolderPlaylistTests {
    @Test func playlistFilesAreListedAndReadByTheirPath() throws {
        let dir = TempDir("boomic-folder-playlists")
        let root = dir.file("music")
        try FileManager.default.createDirectory(atPath: root + "/A", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/Playlists", withIntermediateDirectories: true)
        // Latin-1, as an old Windows ripper wrote it: "Motörhead.flac" with ö as one byte.
        let latin1 = Array("#EXTM3U\nMot".utf8) + [0xF6] + Array("rhead.flac\n../B/y.flac\nhttp://radio/stream\n/elsewhere/z.flac\n".utf8)
        try Data(latin1).write(to: URL(fileURLWithPath: root + "/A/x.m3u"))
        // Spaces around an entry go, as MPD reads it, unless a song's name has them.
        try "../A/Motörhead.flac\r\n\t ../B/y.flac \n lead.flac\n".write(toFile: root + "/Playlists/mine.m3u8", atomically: true, encoding: .utf8)
        var ids = SplitMix64(seed: 5)
        var songs = ["/A/Motörhead.flac", "/B/y.flac", "/Playlists/ lead.flac"].map { Song(id: SongID(ids.uuid()), path: root + $0) }
        songs[0].mtime = 10_000_000_000
        let lists = [ListedFile(path: root + "/A/x.m3u", size: latin1.count, mtime: 20_000_000_000),
                     ListedFile(path: root + "/Playlists/mine.m3u8", size: 21, mtime: 30_000_000_000)]
        let tree = MusicTree(folders: [root], songs: songs, playlists: lists)

        #expect(tree.directory("")?.directories == ["A", "B", "Playlists"])
        #expect(tree.directory("A")?.playlists.map(\.name) == ["x.m3u"])
        #expect(tree.directory("A")?.modified == 20, "a playlist counts toward its folder's Last-Modified")
        #expect(tree.directory("Playlists")?.playlists.map(\.name) == ["mine.m3u8"])
        #expect(try #require(tree.playlist(at: "A/x.m3u")).uris(in: tree) == ["A/Motörhead.flac", "B/y.flac"])
        let mine = try #require(tree.playlist(at: "Playlists/mine.m3u8"))
        let known = Set(songs.compactMap { tree.uri(for: $0.path) })
        #expect(mine.uris(in: tree, exists: known.contains) == ["A/Motörhead.flac", "B/y.flac", "Playlists/ lead.flac"])
        #expect(mine.uris(in: tree) == ["A/Motörhead.flac", "B/y.flac", "Playlists/lead.flac"])
        #expect(tree.playlist(at: "A/none.m3u") == nil)
        #expect(tree.playlist(at: "x.m3u") == nil)

        // Patching the songs keeps the playlists; a file gone since the walk reads as nothing.
        songs[1].title = "Why"
        let patched = try #require(tree.updating([songs[1]]))
        #expect(patched.directory("A")?.playlists.map(\.name) == ["x.m3u"])
        try FileManager.default.removeItem(atPath: root + "/A/x.m3u")
        #expect(patched.playlist(at: "A/x.m3u")?.uris(in: patched) == nil)
    }

    /// A playlist file is read only when it is a regular file inside the music folders,
    /// whatever the walk saw: a link out (to `/etc/shadow`) reads as nothing, one inside as
    /// its target.
    @Test func onlyRegularFilesInsideTheMusicFoldersAreRead() throws {
        let dir = TempDir("boomic-folder-playlists-outside")
        let root = dir.file("music")
        try FileManager.default.createDirectory(atPath: root + "/A", withIntermediateDirectories: true)
        try "root:x:0:0\n".write(toFile: dir.file("shadow"), atomically: true, encoding: .utf8)
        try "x.flac\n".write(toFile: root + "/A/real.m3u", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/A/evil.m3u", withDestinationPath: dir.file("shadow"))
        try FileManager.default.createSymbolicLink(atPath: root + "/A/good.m3u", withDestinationPath: "real.m3u")
        let lists = ["evil.m3u", "good.m3u"].map { ListedFile(path: root + "/A/" + $0, size: 1, mtime: 1) }
        let tree = MusicTree(folders: [root], songs: [], playlists: lists)
        #expect(try #require(tree.playlist(at: "A/evil.m3u")).uris(in: tree) == nil)
        #expect(try #require(tree.playlist(at: "A/good.m3u")).uris(in: tree) == ["A/x.flac"])
    }

    /// PLS and XSPF files as radio sites and VLC leave them: read by their format, escapes in
    /// an XSPF location decoded (MPD 0.23 does not, and finds none of those songs), streams
    /// and paths outside the music folders left out as in an M3U.
    @Test func plsAndXSPFFilesAreReadByTheirFormat() throws {
        let dir = TempDir("boomic-folder-pls")
        let root = dir.file("music")
        try FileManager.default.createDirectory(atPath: root + "/Lists", withIntermediateDirectories: true)
        try "[playlist]\nNumberOfEntries=3\nFile3=http://radio/stream\nFile2=../A/b.flac\nFile1=\(root)/A/a.flac\n"
            .write(toFile: root + "/Lists/radio.PLS", atomically: true, encoding: .utf8)
        try """
            <playlist><trackList><track><location>file://\(root)/A/a%20b.flac</location></track>
            <track><location>../A/b.flac</location></track><track><location>/elsewhere/c.flac</location></track>
            </trackList></playlist>
            """.write(toFile: root + "/Lists/vlc.xspf", atomically: true, encoding: .utf8)
        try "not a playlist".write(toFile: root + "/Lists/broken.xspf", atomically: true, encoding: .utf8)
        var ids = SplitMix64(seed: 6)
        let songs = ["/A/a.flac", "/A/b.flac", "/A/a b.flac"].map { Song(id: SongID(ids.uuid()), path: root + $0) }
        let lists = ["radio.PLS", "vlc.xspf", "broken.xspf"].map { ListedFile(path: root + "/Lists/" + $0, size: 1, mtime: 1) }
        let tree = MusicTree(folders: [root], songs: songs, playlists: lists)
        #expect(tree.directory("Lists")?.playlists.map(\.name) == ["broken.xspf", "radio.PLS", "vlc.xspf"])
        #expect(try #require(tree.playlist(at: "Lists/radio.PLS")).uris(in: tree) == ["A/a.flac", "A/b.flac"])
        #expect(try #require(tree.playlist(at: "Lists/vlc.xspf")).uris(in: tree) == ["A/a b.flac", "A/b.flac"])
        #expect(try #require(tree.playlist(at: "Lists/broken.xspf")).uris(in: tree) == nil)
    }
}
