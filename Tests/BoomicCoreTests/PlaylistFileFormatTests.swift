import Testing
@testable import BoomicCore

/// PLS and XSPF as other players write them, read into the same absolute paths M3U gives:
/// relative entries against the file's folder, `file://` URLs with escapes, streams kept as
/// URLs, and the broken files real players leave.
@Suite struct PlaylistFileFormatTests {
    @Test func plsEntriesInTheirNumberingAsMPDReadsThem() {
        let text = """
            ; made by hand
            [Playlist]
            NumberOfEntries = 4
            File2=  /abs/two.mp3\t
            Title2=Two
            FILE1=../A/one.flac
            Length1=100
            File3=http://radio.example/s
            File4=file:///m/%C3%A9t%C3%A9.mp3
            File0=/never.mp3
            File70000=/beyond.mp3
            File5=
            [other]
            File6=/elsewhere.mp3
            """.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(PLS.parse(text, base: "/m/lists") == ["/m/A/one.flac", "/abs/two.mp3", "http://radio.example/s", "/m/été.mp3"])
        #expect(PLS.parse("File1=/x.mp3\n", base: "/") == nil)
        #expect(PLS.parse("[playlist]\n", base: "/") == [])
    }

    @Test func xspfTakesEachTracksFirstLocationDecoded() {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- <track><location>/commented.mp3</location></track> -->
            <playlist version="1" xmlns="http://xspf.org/ns/0/">
              <title>Road &amp; Rail</title>
              <location>/the/playlist/itself.xspf</location>
              <trackList>
                <track><title>x</title><location>../Miles%20Quartet/01%20So%20Modal.flac</location>
                       <location>/alternative.flac</location></track>
                <track><location>file:///m/Loose%20Files/a%26b.flac</location></track>
                <track><location>file:///m/Loose Files/raw space.flac</location></track>
                <track>
                  <location><![CDATA[/m/cdata & <co>.flac]]></location>
                </track>
                <track><location>/m/100% Hits &#x263A; &lt;3.flac</location></track>
                <track><location>http://radio.example/s?a=1&amp;b=2</location></track>
                <track><title>no location</title></track>
                <track><location/></track>
              </trackList>
            </playlist>
            """
        let parsed = XSPF.parse(text, base: "/m/lists")
        #expect(parsed?.name == "Road & Rail")
        #expect(parsed?.paths == ["/m/Miles Quartet/01 So Modal.flac", "/m/Loose Files/a&b.flac", "/m/Loose Files/raw space.flac",
                                  "/m/cdata & <co>.flac", "/m/100% Hits ☺ <3.flac", "http://radio.example/s?a=1&b=2"])
    }

    @Test func xspfWithPrefixesOrBrokenEndsStillReads() {
        let prefixed = "<xspf:playlist><xspf:trackList><xspf:track><xspf:location>/a.mp3</xspf:location></xspf:track></xspf:trackList></xspf:playlist>"
        #expect(XSPF.parse(prefixed, base: "/")?.paths == ["/a.mp3"])
        // Cut off mid-file: the tracks that closed are kept.
        let cut = "<playlist><trackList><track><location>/a.mp3</location></track><track><location>/b"
        #expect(XSPF.parse(cut, base: "/")?.paths == ["/a.mp3"])
        #expect(XSPF.parse("<html><body>not a playlist</body></html>", base: "/") == nil)
        #expect(XSPF.parse("", base: "/") == nil)
        // A hostile attribute with a `>` in quotes is one tag.
        #expect(XSPF.parse(#"<playlist><trackList><track a="x>y"><location>/c.mp3</location></track></trackList></playlist>"#, base: "/")?.paths == ["/c.mp3"])
    }

    @Test func formatsByExtensionOrByTheirText() {
        #expect(PlaylistFileFormat(path: "/m/A.PLS") == .pls)
        #expect(PlaylistFileFormat(path: "/m/a.xspf") == .xspf)
        #expect(PlaylistFileFormat(path: "/m/a.m3u8") == .m3u8)
        #expect(PlaylistFileFormat(path: "/m/a.flac") == nil)
        #expect(PlaylistFileFormat(path: "/m.d/noext") == nil)
        #expect(PlaylistFileFormat.sniffed("\u{FEFF}[playlist]\nFile1=x") == .pls)
        #expect(PlaylistFileFormat.sniffed("  <?xml version='1.0'?><playlist/>") == .xspf)
        #expect(PlaylistFileFormat.sniffed("#EXTM3U\na.flac") == .m3u)
    }

    @Test func urlsAndFileURLs() {
        #expect(M3U.isURL("sftp+x.y://h/p") && M3U.isURL("HTTP://x"))
        #expect(!M3U.isURL("/a://b") && !M3U.isURL("1http://x") && !M3U.isURL("a b://c") && !M3U.isURL("file:/x"))
        #expect(M3U.path(of: "file://localhost/m/a%20b.flac", base: "/") == "/m/a b.flac")
        #expect(M3U.path(of: "FILE:///m/x.flac", base: "/") == "/m/x.flac")
        // Another host's file is not a local path.
        #expect(M3U.path(of: "file://nas/m/x.flac", base: "/") == "file://nas/m/x.flac")
        // A `%` that starts no escape stays.
        #expect(M3U.path(of: "file:///m/100%.flac", base: "/") == "/m/100%.flac")
    }
}
