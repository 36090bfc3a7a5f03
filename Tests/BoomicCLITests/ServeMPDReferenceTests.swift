import BoomicTestSupport
import Foundation
import Testing

/// `boomic serve` and Debian's MPD on the same music, asked the same database questions: the
/// answers of `list`, `count` and their groups must be the same bytes. MPD is the reference a
/// client is written against (empty values listed, AlbumArtist falling back to Artist, sort
/// tags to theirs), and a library of samples with missing tags is where the two part.
@Suite(.serialized, .enabled(if: ReferenceMPD.available, "needs Debian's mpd (scripts/setup installs it)"))
struct ServeMPDReferenceTests {
    static let commands = [
        "list artist", "list albumartist", "list album", "list genre", "list date", "list composer",
        "list track", "list disc", "list title", "list musicbrainz_albumid",
        "list artistsort", "list albumartistsort", "list albumsort", "list performer", "list work", "list originaldate", "list label", "list conductor",
        "list album group albumartist", "list album group date group albumartist", "list title group album",
        "list album group genre", "list artist group composer", "list artistsort group albumsort",
        "list albumartist group album", "list genre group artist group album",
        // M.A.L.P.'s albums: four groups.
        "list album group albumartist group albumartistsort group musicbrainz_albumid group date",
        // `filename`, the old name of `file` (GMPC's "Filename" search).
        #"search filename "modal""#, #"find "(filename contains 'Blue')""#, "list filename",
        "count group genre", "count group artist", "count group albumartist", "count group date",
        "count group performer", "count group genre group artist", "list albumartist group albumartist",
        "list album group artist group artist",
        #"list album albumartist "Miles Quartet""#, #"list album albumartist "Old Timer""#,
        #"list album albumartist """#, #"list title artist "Sigrún Jónsdóttir""#, #"list genre album "Retro Hits""#,
        #"list albumartist "(genre == \"Jazz\")""#, #"count albumartist "Old Timer""#,
        #"list title "(albumartistsort == \"Old Timer\")""#, #"count albumartist "Old Timer" group album"#,
        // The songs a filter finds (as `list file`, `search` and `find`: the files), compared
        // as sets: MPD lists a folder's songs in the order it scanned them, Boomic by name.
        "list file date 1971", #"list file "(date == \"1971\")""#, #"list file albumartist "Old Timer""#,
        #"list file "(albumartist == \"\")""#, #"list file "(genre != \"Jazz\")""#,
        #"list file "(artist =~ \"^M\")""#, #"list file "(AudioFormat == \"44100:16:2\")""#,
        // search: case folded, accents kept; "" finds songs without the tag too.
        #"search artist "ö""#, #"search artist "motorhead""#, #"search artist "MOTÖR""#, #"search title """#,
        #"search any "ä""#, #"search any "BLUE""#, #"search date "19""#, #"search composer """#,
        #"find date "1971""#, #"search albumartist "old""#,
        // Filters as MPD 0.23 parses them: expressions and pairs mixed, `(! (` with a space, an
        // empty regex matching everything, and its errors.
        #"find "(! (date == \"1971\"))""#, #"find "(title =~ \"\")""#, #"find "(date == \"1971\")" "(title != \"\")""#,
        #"find "(date == \"1971\")" album "Retro Hits""#, #"find nosuchtag "x""#, #"find "(artist eq \"x\")""#,
        #"find "(artist""#, #"find "(base \"nosuch\")""#, #"search base """#, #"find base "a/../b""#, #"find "(prio >= 1)""#,
        #"find "(date == \"1971\")" album"#,
        // Time stamps as MPD reads them: a month, compact forms, offsets, seconds, and its errors.
        #"find "(modified-since \"2021-06\")""#, #"find "(modified-since \"20210615T1230Z\")""#,
        #"find "(modified-since \"2021-06-15T12:30:45+02:00\")""#, #"find "(modified-since \"-5\")""#,
        #"find "(modified-since \"yesterday\")""#,
        #"find "(modified-since \"2021-06-15 12:00:00\")""#, #"find "(modified-since \"2021-06-15T25\")""#,
        #"find "(modified-since \"2021-06-15T12+14\")""#, #"find modified-since "1623758400.5""#, #"search title "" window 0:40"#, #"search any "a" window 0:40"#,
        // sort, in order: Track and Disc as numbers (12 after 3), the rest by their bytes.
        #"find album "Ace of Spätz" sort track"#, #"find album "Ace of Spätz" sort -Track"#,
        #"find "(title != \"\")" sort title"#, #"find "(title != \"\")" sort -title window 2:6"#,
        #"search album "sketch" sort -last-modified"#, #"find album "x" sort nosuchtag"#,
        // Other answers a TCP client gets alike.
        "listmounts", "lsinfo", #"lsinfo "/""#, "stats", #"find album "Blue Sketches" window 5:2"#,
        #"find album "Blue Sketches" window x"#, #"find album "Blue Sketches" window 1"#, #"lsinfo "Miles Quartet""#, #"listall "Loose Files""#, "count group album",
        #"count artist "Miles Quartet""#, "outputs", "replay_gain_status", "currentsong",
        // The queue, changed the same way on both (MPD's ids start at 1 too).
        "clear", #"add "Miles Quartet""#, #"addid "Loose Files/no tags at all.flac" 1"#, "move 0 2", "swap 0 1",
        // The id the last addid printed (both servers count ids alike): a local file's tags.
        "addtagid 1 artist x", "addtagid 2 artist x", "addtagid 3 artist x", "cleartagid 2", "cleartagid 2 artist",
        "playlist", "plchangesposid 0",
        // A version newer than the queue's (another server's, or from before a restart) is
        // every entry; `-1` is the largest; a range past the queue is cut.
        "plchangesposid 4000000000", "plchangesposid -1", "plchangesposid 0 9:10", "plchangesposid 0 1:9", "delete 0",
        // addid adds one song: a folder, the root or an absolute path is none.
        #"addid "Miles Quartet""#, #"addid """#, #"addid "/""#, #"add "/etc""#, #"add "file:///etc/passwd""#, "playlist", #"findadd album "Night Drive""#, "prio 5 1", "playlist",
        "playlistinfo", #"playlistfind album "Blue Sketches""#, #"playlistsearch title "blue""#, "playlistid 3",
        // Ranges and positions as MPD reads them: an end past the queue is cut, a start past
        // it is an error, `-1` is the whole queue, `+N`/`-N` need a current song.
        "clear", #"add "Miles Quartet""#, "playlistinfo 0:100", "playlistinfo 99", "playlistinfo 3:2", "playlistinfo -1",
        "playlistinfo -2", "playlistinfo x", "prio 1 0:100", "playlistinfo 1:", "move 0:100 0", "move 0 99", "move 0 -1",
        "delete 2:100", "delete 2:2", "delete 2:3", "delete 3:3", "delete 9:9", "playlist", #"addid "Loose Files/no tags at all.flac" +0"#,
        #"addid "Loose Files/no tags at all.flac" 99"#, "shuffle 1:9", "shuffle 9:10",
        // The modes, and which song `status` names next under them.
        "clear", #"add "Miles Quartet""#, "play 0", "single oneshot", "status", "single 1", "repeat 1", "status",
        "consume 1", "status", "single 0", "repeat 0", "consume 0", "next", "status", "stop", "status",
        // Skipping while paused plays the song skipped to.
        "play 0", "pause 1", "next", "status", "pause 1", "previous", "status", "stop", "status",
        // Past the end with repeat off it stops, paused or not.
        "play 2", "pause 1", "next", "status", "stop",
        // `pause` toggles and `pause 0` resumes (ncmpcpp's and ncmpc's play/pause key); a seek
        // to another song while paused waits there paused; the paused song deleted stops.
        "play 0", "pause", "status", "pause", "status", "pause 1", "pause 0", "status", "pause 1",
        "seek 1 0.5", "status", "delete 1", "status", "stop", "consume oneshot", "mixrampdelay nan", "mixrampdelay x",
        // Numbers past what MPD's parsers hold, and which argument is read first.
        "play -2", "play 99999999999999999999", "playid 4294967296", "crossfade 99999999999", "move 0 99999999999",
        "playlistinfo 9999999999999999999999", "swap 0 -1", "seek 99999999999999999999 1", "seek 0 -5", "seekid 1 -5",
        // Stored playlists and stickers (a rating, as clients use it).
        "clear", #"add "Miles Quartet""#, #"save "Evening""#, #"save "Evening""#, "listplaylists",
        #"playlistadd "Evening" "Loose Files/no tags at all.flac""#, #"playlistmove "Evening" 3 0"#,
        #"playlistdelete "Evening" 1"#, #"listplaylist "Evening""#, #"listplaylistinfo "Evening""#,
        #"rename "Evening" "Night""#, #"rename "Nope" "X""#, #"load "Night" "0:2""#, "playlist",
        #"playlistclear "Night""#, #"listplaylist "Night""#, #"rm "Night""#, #"rm "Night""#,
        #"searchaddpl "Modal" title "modal""#, #"listplaylist "Modal""#,
        #"playlistadd "Modal" "Loose Files/no tags at all.flac" 99"#, #"playlistmove "Modal" 0 99"#,
        #"playlistdelete "Modal" 99"#, #"load "Modal" 5:9"#, #"load "Modal" 0:1 99"#, #"rename "Modal" "a/b""#, #"rm """#,
        #"albumart "Дмитрий Соколов/Зимняя дорога/01 Метель.flac" 99999999"#,
        #"save "a/b""#, #"save """#, #"playlistadd "x/y" "Loose Files/no tags at all.flac""#, #"save "Modal2""#,
        #"rename "Modal" "Modal2""#, #"rm "Modal2""#, #"rm "Modal""#,
        #"sticker set song "Miles Quartet/Blue Sketches/01 So Modal.flac" rating 8"#,
        #"sticker get song "Miles Quartet/Blue Sketches/01 So Modal.flac" rating"#,
        #"sticker list song "Miles Quartet/Blue Sketches/01 So Modal.flac""#,
        #"sticker find song "Miles Quartet" rating"#, #"sticker find song "Miles Quartet" rating = 8"#,
        #"sticker find song "Miles Quartet" rating > 6"#, #"sticker find song "Miles Quartet" rating < 6"#,
        #"sticker find song "Miles Quartet" rating ~ 6"#,
        #"sticker get song "Miles Quartet/Blue Sketches/02 Blue in Grey.flac" rating"#,
        #"sticker delete song "Miles Quartet/Blue Sketches/01 So Modal.flac" rating"#,
        #"sticker get song "Miles Quartet/Blue Sketches/01 So Modal.flac" rating"#,
        #"sticker get song "nope.flac" rating"#,
        // Tags of queued songs (streams only, in MPD) and outputs' runtime attributes.
        "addtagid x bogus x", "addtagid 99 bogus x", "addtagid 999 artist x", "cleartagid x", "cleartagid 999",
        "outputset x dop 1", "outputset 9 dop 1", "outputset 0 dop 1", "outputset 0 dop",
        // A client's own stickers (myMPD's), an empty value, deleting them all.
        #"sticker set song "Miles Quartet/Blue Sketches/01 So Modal.flac" playCount 3"#,
        #"sticker set song "Miles Quartet/Blue Sketches/01 So Modal.flac" lastPlayed 1700000000"#,
        #"sticker set song "Miles Quartet/Blue Sketches/01 So Modal.flac" Empty """#,
        #"sticker get song "Miles Quartet/Blue Sketches/01 So Modal.flac" playCount"#,
        #"sticker get song "Miles Quartet/Blue Sketches/01 So Modal.flac" Empty"#,
        #"sticker list song "Miles Quartet/Blue Sketches/01 So Modal.flac""#,
        #"sticker find song "Miles Quartet" playCount"#, #"sticker find song "Miles Quartet" lastPlayed = 1700000000"#,
        #"sticker find song "Miles Quartet" nope"#, #"sticker find song "No Such Folder" rating"#,
        #"sticker delete song "Miles Quartet/Blue Sketches/01 So Modal.flac" nope"#,
        #"sticker delete song "Miles Quartet/Blue Sketches/01 So Modal.flac" playCount"#,
        #"sticker get song "Miles Quartet/Blue Sketches/01 So Modal.flac" playCount"#,
        #"sticker delete song "Miles Quartet/Blue Sketches/01 So Modal.flac""#,
        #"sticker delete song "Miles Quartet/Blue Sketches/01 So Modal.flac""#,
        #"sticker list song "Miles Quartet/Blue Sketches/01 So Modal.flac""#,
        // Errors: the same ACK code, command and text.
        "clear", "play 99", "playid 999", "seek 0 x", "seekcur x", "setvol 101", "setvol -1", "volume -500", "setvol x",
        "find", "list", "list nosuchtag", "count", #"add "nosuch""#, "delete 99", "delete 1:x", "move 5 0",
        #"load "nosuch""#, "unknowncmd", "status extra", "ping extra", #"lsinfo "nosuch""#, #"listall "nosuch""#,
        "tagtypes enable nosuch", #"albumart "x" 0"#, #"readpicture "nosuch" 0"#, "playlistinfo 99",
        "prio 300 0", "rangeid 999 0:1",
        // A range is read before the id is looked up, as a C float each side.
        "rangeid 999 2:1", "rangeid 999 -1", "rangeid 999 1:", "rangeid 999 abc", #"rangeid 999 "1 :2""#,
        "rangeid 999 nan:1", "rangeid 999 1:-2", "rangeid 999 1:1", "rangeid x 1:2", "rangeid 999 :", "consume x", "single x", "random 2", "crossfade -1", "password x",
        "partition nosuch", "newpartition default", "delpartition default", "deleteid 77", "swapid 1 2",
        "moveid 9 0", "addid", #"addid "Loose Files/no tags at all.flac" 99"#, #"addid "Loose Files/no tags at all.flac" x"#,
        "seekid 9 1", "next", "previous", "repeat x", #"find "(artist == )""#, #"find "(foo""#, "search any",
        // Tag types as a new client has them (no Comment, as MPD 0.23 by default), and their errors.
        "tagtypes", "tagtypes enable", "tagtypes disable", "tagtypes all x", "tagtypes clear x", "tagtypes bogus",
        "tagtypes clear", "tagtypes", "tagtypes enable Artist Title", "tagtypes", "tagtypes all", "tagtypes",
        "tagtypes disable Name Track", "tagtypes", "tagtypes enable name", "tagtypes", "tagtypes all",
        "list album group", "count group", "replay_gain_mode bad", "enableoutput 9", "toggleoutput x", "play x",
        "playlistid x", #"readcomments "nosuch.flac""#, "readcomments", #"list genre "Jazz""#, #"list file "x""#,
        #"list album "Miles Quartet""#, #"ping "x"#, #"find artist "x"y"#, "command_list_end",
        // Argument errors come before the command is looked up: MPD names none.
        "find title 'x'", #"ping a"b"#, "find" + String(repeating: " a", count: 140),
        // `add /` is the whole library (some clients send it; MPD takes it).
        "clear", #"add "/""#, "status", "clear",
        // An absolute path is a local file: not for a TCP client.
        #"lsinfo "/etc""#, #"lsinfo "file:///etc/passwd""#, #"listfiles "/""#, #"listfiles "/etc""#,
        #"albumart "/etc/passwd" 0"#, #"albumart "/" 0"#, #"readpicture "file:///etc/passwd" 0"#, #"readcomments "/etc/passwd""#,
        #"load "/etc/passwd""#, #"listplaylist "/tmp/x.m3u""#, #"listplaylistinfo "file:///tmp/x.m3u""#,
        #"playlistadd "x" "/etc/passwd""#, #"playlistadd "x" "file:///etc/passwd""#,
        #"update "a//b""#, #"update "./x""#, #"update "/etc""#,
        // A URL no plugin reads (what Cantata probes with at connect).
        #"lsinfo "mpd-client://cantata/2.5.0""#, #"add "mpd-client://x""#, #"addid "mpd-client://x""#,
        #"albumart "mpd-client://x" 0"#,
        // A folder with a trailing `/` is no folder to MPD, whatever the command.
        #"lsinfo "Miles Quartet/""#, #"listall "Miles Quartet/""#, #"listallinfo "Miles Quartet/""#,
        #"add "Miles Quartet/""#, #"playlistadd "Slash" "Miles Quartet/""#, #"update "Miles Quartet/""#,
        #"find base "Miles Quartet/""#, #"count base "Miles Quartet/""#, #"lsinfo "Miles Quartet/Blue Sketches/""#,
        #"listplaylists"#, "playlist",
        // MP3s and the whole seconds they last.
        #"lsinfo "Motörhead-ish/Ace of Spätz""#, #"lsinfo "Various Artists/Night Drive""#,
    ]

    @Test func databaseAnswersAreMPDs() throws {
        let box = try Sandbox()
        try box.importSamples()
        let server = try RunningServer(box)
        let mpd = try ReferenceMPD(music: box.music, in: box.root)
        try mpd.waitForDatabase(songs: try box.songs().count)
        let (answers, reference) = try mpd.ask(Self.commands, alongside: server.port, in: box.root)
        for (command, (ours, theirs)) in zip(Self.commands, zip(answers, reference)) {
            func lines(_ answer: String) -> [Substring] {
                let all = answer.split(separator: "\n")
                if command.hasPrefix("list file") { return all.sorted() }
                // MUSICBRAINZ_RELEASEGROUPID is 0.24's (serve.md).
                if command == "tagtypes" { return all.filter { $0 != "tagtype: MUSICBRAINZ_RELEASEGROUPID" } }
                // In order: what a sort makes of MPD's order.
                if command.contains(" sort ") { return all.filter { $0.hasPrefix("file: ") || $0.hasPrefix("ACK") } }
                // The folders a search's songs come in, in order (collated, as listall shows
                // them; within a folder MPD keeps the order it scanned the files in).
                if command.contains(" window ") {
                    return ReferenceMPD.folderRuns(all)
                }
                // Songs found: which files (MPD prints their tags in the file's order).
                if command.hasPrefix("search") || command.hasPrefix("find") {
                    return all.filter { $0.hasPrefix("file: ") || $0.hasPrefix("ACK ") }.sorted()
                }
                // Queue entries: which file where, with which id and priority.
                if command.hasPrefix("playlist") && command != "playlist" {
                    return all.filter { ["file: ", "Pos: ", "Id: ", "Prio: "].contains(where: $0.hasPrefix) }
                }
                // Which song lasts how many seconds. An MP3's `duration:` is what a gapless
                // decoder plays of it here, its whole frames in MPD (2.000 against 2.037 s), and
                // its `Format:` Boomic's own word for a lossy file (serve.md).
                if command.contains("Ace of Spätz") || command.contains("Night Drive") {
                    return all.filter { ["file: ", "Time: "].contains(where: $0.hasPrefix) }
                }
                // A folder's Last-Modified is its newest song's in Boomic (which never stats
                // folders), the folder's own in MPD.
                if command.hasPrefix("lsinfo") || command == "listplaylists" { return all.filter { !$0.hasPrefix("Last-Modified: ") } }
                if command.hasPrefix("listplaylistinfo") { return all.filter { $0.hasPrefix("file: ") } }
                // Where the queue is and what comes next (not the clock, the volume or the
                // queue's version, which count differently).
                // What the library holds (not the clocks).
                if command == "stats" {
                    return all.filter { ["artists: ", "albums: ", "songs: ", "db_playtime: "].contains(where: $0.hasPrefix) }.sorted()
                }
                if command == "status" {
                    return all.filter { ["repeat: ", "random: ", "single: ", "consume: ", "playlistlength: ", "state: ", "song: ",
                                         "songid: ", "nextsong: ", "nextsongid: "].contains(where: $0.hasPrefix) }
                }
                return all
            }
            #expect(lines(ours) == lines(theirs), "\(command)\n  boomic: \(ours.split(separator: "\n"))\n  mpd:    \(theirs.split(separator: "\n"))")
        }
    }
}

/// Debian's `mpd` on a music folder, with its own database, state and port, and no output but
/// `null`: the reference the server tests compare against.
final class ReferenceMPD {
    static let executable = "/usr/bin/mpd"

    /// The folders of an answer's songs, in the order they come, each run of one folder once:
    /// what can be compared of a search's order, since within a folder MPD keeps the order it
    /// scanned the files in.
    static func folderRuns(_ lines: [Substring]) -> [Substring] {
        let folders = lines.filter { $0.hasPrefix("file: ") }.map { $0[..<($0.lastIndex(of: "/") ?? $0.endIndex)] }
        return folders.enumerated().filter { $0.offset == 0 || folders[$0.offset - 1] != $0.element }.map(\.element)
    }
    static let available = FileManager.default.isExecutableFile(atPath: executable)

    let port: Int
    let process: Process

    init(music: String, in root: String) throws {
        port = try RunningServer.freePort()
        let dir = root + "/mpd"
        try FileManager.default.createDirectory(atPath: dir + "/playlists", withIntermediateDirectories: true)
        let conf = """
            music_directory "\(music)"
            db_file "\(dir)/db"
            log_file "\(dir)/log"
            playlist_directory "\(dir)/playlists"
            sticker_file "\(dir)/sticker.sql"
            state_file "\(dir)/state"
            bind_to_address "127.0.0.1"
            port "\(port)"
            auto_update "no"
            zeroconf_enabled "no"
            audio_output {
              type "null"
              name "null"
            }

            """
        try conf.write(toFile: dir + "/mpd.conf", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: dir + "/stderr", contents: nil)
        process = try ChildProcess.start(Self.executable, ["--no-daemon", dir + "/mpd.conf"], stderr: dir + "/stderr")
        try RunningServer.waitUntilListening(port, process) { [port] in "mpd did not listen on \(port)" }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Every command asked of `boomic serve` on `port` and of this MPD, each server on one
    /// connection, in order: both servers' answers, as they came.
    func ask(_ commands: [String], alongside port: Int, in root: String) throws -> (boomic: [String], mpd: [String]) {
        let script = #"""
            import json, socket, sys
            def answers(port, commands):
                s = socket.create_connection(("127.0.0.1", port)); s.recv(100)
                out = []
                for c in commands:
                    s.sendall(c.encode() + b"\n"); b = b""
                    while not (b.endswith(b"OK\n") or (b.startswith(b"ACK") and b.endswith(b"\n"))):
                        chunk = s.recv(1 << 16)
                        if not chunk: break
                        b += chunk
                    out.append(b.decode())
                return out
            commands = json.loads(sys.argv[3])
            print(json.dumps([answers(int(sys.argv[1]), commands), answers(int(sys.argv[2]), commands)]))
            """#
        let path = root + "/ask.py"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let json = String(decoding: try JSONSerialization.data(withJSONObject: commands), as: UTF8.self)
        let run = try ChildProcess.run("/usr/bin/python3", [path, String(port), String(self.port), json])
        try #require(run.succeeded, "\(run)")
        let both = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String]])
        try #require(both.count == 2 && both[0].count == commands.count && both[1].count == commands.count, "\(run)")
        return (both[0], both[1])
    }

    /// MPD scans the folder on its first start, into a database it does not have yet.
    func waitForDatabase(songs: Int) throws {
        let script = RunningServer.pythonWaits + """
            import socket
            def holds():
                s = socket.create_connection(("127.0.0.1", \(port))); s.recv(100)
                s.sendall(b"status\\nstats\\nclose\\n"); b = b""
                while True:
                    c = s.recv(4096)
                    if not c: break
                    b += c
                return b"updating_db" not in b and b"songs: \(songs)\\n" in b
            until("mpd's first scan to hold \(songs) songs", holds, timeout=20)
            """
        let run = try ChildProcess.run("/usr/bin/python3", ["-c", script])
        try #require(run.succeeded, "mpd never held \(songs) songs: \(run)")
    }
}
