import BoomicTestSupport
import Foundation
import Testing

/// Files tagged the way Picard (ID3v2.3 and v2.4, Vorbis), foobar2000, mp3tag, iTunes and old
/// ID3v1 rippers tag them, served by `boomic serve` and by Debian's MPD: every song's lines
/// for the tags Boomic keeps must be the same, and so must the lists and finds over the tags a
/// file gives several values (GENRE=Jazz, GENRE=Fusion) or a credit next to (ARTIST beside
/// ARTISTS). Samples/ is Boomic's own tagging; this is everyone else's.
@Suite(.serialized, .enabled(if: ReferenceMPD.available, "needs Debian's mpd (scripts/setup installs it)"))
struct ServeForeignTagsReferenceTests {
    /// `make.py FOLDER` writes the files (sox, lame, flac, oggenc, opusenc, ffmpeg, mutagen).
    static let make = #"""
        import os, subprocess, sys
        from mutagen.id3 import (ID3, ID3v1SaveOptions, TIT2, TPE1, TPE2, TALB, TDRC, TYER, TDAT, TPOS, TRCK, TCON,
            TCOM, TSOP, TSO2, TSOA, TXXX, COMM, UFID, TPE3, TIT1, TPUB, TORY, TDOR, TMCL, MVNM, MVIN, TSOC, GRP1)
        from mutagen.apev2 import APEv2
        from mutagen.flac import FLAC
        from mutagen.oggvorbis import OggVorbis
        from mutagen.oggopus import OggOpus
        from mutagen.mp4 import MP4, MP4FreeForm
        from mutagen.wave import WAVE

        root = sys.argv[1]
        src = os.path.join(root, "..", "source.wav")
        subprocess.run(["sox", "-R", "-n", "-r", "44100", "-c", "2", "-b", "16", src, "synth", "1.5", "sine", "440", "vol", "0.3"], check=True)
        def enc(name, args):
            p = os.path.join(root, name); os.makedirs(os.path.dirname(p), exist_ok=True)
            subprocess.run(args(p), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); return p
        mp3 = lambda n: enc(n, lambda p: ["lame", "--quiet", "-b", "128", src, p])
        flac = lambda n: enc(n, lambda p: ["flac", "-s", "-f", "-o", p, src])

        # Picard, ID3v2.3: one credit in TPE1, the artists in TXXX:Artists (joined with "/").
        p = mp3("Picard/v23.mp3"); t = ID3()
        for f in [TIT2(text="Song v2.3"), TPE1(text="Alpha feat. Beta"), TPE2(text="Alpha"), TALB(text="Picard Album"),
                  TYER(text="2001"), TDAT(text="0305"), TPOS(text="1/2"), TRCK(text="3/12"), TCON(text="Rock"),
                  TCOM(text="Composer One"), TSOP(text="Alpha feat. Beta, The"), TSO2(text="Alpha, The"),
                  TSOA(text="Picard Album, The"), TXXX(desc="Artists", text=["Alpha", "Beta"]),
                  TXXX(desc="MusicBrainz Album Id", text="9e097b10-8160-491e-a310-e26e54a86a10"),
                  TXXX(desc="MusicBrainz Artist Id", text="11111111-1111-1111-1111-111111111111"),
                  TXXX(desc="MusicBrainz Album Artist Id", text="22222222-2222-2222-2222-222222222222"),
                  UFID(owner="http://musicbrainz.org", data=b"44444444-4444-4444-4444-444444444444"),
                  TORY(text="1999"), TPUB(text="Label Records"), COMM(lang="eng", desc="", text="A comment"),
                  TPE3(text="Conductor Person"), TIT1(text="Grouping X")]:
            f.encoding = 1; t.add(f)
        t.save(p, v2_version=3)

        # ID3v2.4: several values in one frame, NUL-separated.
        p = mp3("Picard/v24 multi.mp3"); t = ID3()
        for f in [TIT2(text="Song v2.4"), TPE1(text=["Alpha", "Beta"]), TPE2(text="Various Artists"), TALB(text="Multi Album"),
                  TDRC(text="2003-07-14"), TDOR(text="1998-01"), TPOS(text="2"), TRCK(text="07"), TCON(text=["Jazz", "Fusion"]),
                  TCOM(text=["C1", "C2"]), TMCL(people=[["piano", "Pianist P"]])]:
            f.encoding = 3; t.add(f)
        t.save(p, v2_version=4)

        # Old rippers: ID3v1 genre numbers in ID3v2, and ID3v1 alone.
        for name, g, v in [("Old/genre paren.mp3", "(17)", 3), ("Old/genre paren text.mp3", "(13)Pop-ish", 3),
                           ("Old/genre number.mp3", "17", 4), ("Old/genre two.mp3", "(17)(9)", 3), ("Old/genre RX.mp3", "(RX)", 3)]:
            p = mp3(name); t = ID3(); t.add(TIT2(encoding=1, text=name)); t.add(TCON(encoding=1, text=g)); t.save(p, v2_version=v)
        p = mp3("Old/v1 only.mp3")
        with open(p, "ab") as f:
            f.write(b"TAG" + b"V1 Title".ljust(30, b"\0") + b"V1 Artist".ljust(30, b"\0") + b"V1 Album".ljust(30, b"\0")
                    + b"1987" + b"v1 comment".ljust(28, b"\0") + b"\0" + bytes([5, 17]))
        p = mp3("Old/v1 and v2.mp3"); t = ID3(); t.add(TIT2(encoding=1, text="V2 Title")); t.add(TPE1(encoding=1, text="V2 Artist"))
        t.save(p, v2_version=3, v1=ID3v1SaveOptions.CREATE)

        # foobar2000 and mp3tag: APEv2 on an MP3; FLAC with lower-case keys and ALBUM ARTIST.
        p = mp3("foobar/ape.mp3"); a = APEv2()
        for k, v in [("Title", "Ape Title"), ("Artist", "Ape Artist"), ("Album Artist", "Ape AA"), ("Year", "2010"),
                     ("Track", "4/10"), ("Genre", "Electronic")]:
            a[k] = v
        a.save(p)
        p = flac("foobar/fb.flac"); f = FLAC(p)
        for k, v in [("title", "Foobar Title"), ("artist", ["Gamma", "Delta"]), ("album artist", "Gamma"), ("album", "Foobar Album"),
                     ("date", "2005"), ("tracknumber", "5"), ("totaltracks", "9"), ("discnumber", "1"), ("genre", ["Ambient", "Drone"])]:
            f[k] = v
        f.save()

        # Picard, Vorbis comments: the credit and ARTISTS, sort names, MusicBrainz ids.
        p = flac("Picard/full.flac"); f = FLAC(p)
        for k, v in [("TITLE", "Full Title"), ("ARTIST", "Epsilon & Zeta"), ("ARTISTS", ["Epsilon", "Zeta"]), ("ALBUMARTIST", "Epsilon"),
                     ("ALBUM", "Full Album"), ("DATE", "2011-11-11"), ("TRACKNUMBER", "1"), ("TRACKTOTAL", "8"), ("DISCNUMBER", "1"),
                     ("GENRE", "Electronic"), ("COMPOSER", ["Composer Z", "Composer Y"]), ("PERFORMER", "Epsilon (vocals)"),
                     ("ARTISTSORT", "Epsilon & Zeta"), ("ALBUMARTISTSORT", "Epsilon"), ("ALBUMSORT", "Full Album, The"),
                     ("MUSICBRAINZ_ALBUMID", "9e097b10-8160-491e-a310-e26e54a86a11"),
                     ("MUSICBRAINZ_ARTISTID", ["aaaaaaaa-1111-1111-1111-111111111111", "bbbbbbbb-1111-1111-1111-111111111111"]),
                     ("MUSICBRAINZ_ALBUMARTISTID", "aaaaaaaa-1111-1111-1111-111111111111"),
                     ("MUSICBRAINZ_TRACKID", "cccccccc-1111-1111-1111-111111111111"), ("COMMENT", "multi\nline")]:
            f[k] = v
        f.save()

        # Classical, as Picard tags it: work, movement, grouping, composer sort names, work ids.
        p = flac("Classical/vorbis.flac"); f = FLAC(p)
        for k, v in [("TITLE", "Allegro con brio"), ("ARTIST", "Orchestra"), ("ALBUM", "Symphonies"), ("COMPOSER", "Beethoven"),
                     ("COMPOSERSORT", ["Beethoven, Ludwig van", "Other, An"]), ("WORK", "Symphony No. 5"),
                     ("MOVEMENTNAME", "Allegro con brio"), ("MOVEMENT", "1"), ("MOVEMENTTOTAL", "4"), ("GROUPING", "Fifth"),
                     ("ENSEMBLE", ["Wiener Philharmoniker", "Chorus"]), ("LOCATION", "Musikverein, Wien"),
                     ("MUSICBRAINZ_RELEASETRACKID", "dddddddd-1111-1111-1111-111111111111"),
                     ("MUSICBRAINZ_WORKID", ["eeeeeeee-1111-1111-1111-111111111111", "ffffffff-1111-1111-1111-111111111111"])]:
            f[k] = v
        f.save()
        p = flac("Classical/composer only.flac"); f = FLAC(p)
        f["TITLE"] = "Andante"; f["COMPOSER"] = "Mozart"; f["WORK"] = "Symphony No. 5"; f["MOVEMENT"] = "2"; f.save()
        # ID3v2.4 as Picard writes it by default: TIT1 is the grouping, TXXX:WORK the work.
        p = mp3("Classical ID3/picard.mp3"); t = ID3()
        for fr in [TIT2(text="Scherzo"), TPE1(text="Orchestra"), TCOM(text="Beethoven"), TIT1(text="Fifth"),
                   TXXX(desc="WORK", text="Symphony No. 5"), MVNM(text="Scherzo"), MVIN(text="3/4"),
                   TSOC(text="Beethoven, Ludwig van"),
                   TXXX(desc="MusicBrainz Release Track Id", text="dddddddd-2222-1111-1111-111111111111"),
                   TXXX(desc="MusicBrainz Work Id", text="eeeeeeee-1111-1111-1111-111111111111")]:
            fr.encoding = 3; t.add(fr)
        t.save(p, v2_version=4)
        # As iTunes 12.5 (and Picard's "iTunes compatible" option) write it: GRP1 is the grouping, TIT1 the work.
        p = mp3("Classical ID3/itunes style.mp3"); t = ID3()
        for fr in [TIT2(text="Finale"), TIT1(text="Symphony No. 5"), GRP1(text="Fifth")]:
            fr.encoding = 3; t.add(fr)
        t.save(p, v2_version=4)

        # Odd values.
        p = flac("Odd/odd.flac"); f = FLAC(p)
        for k, v in [("TITLE", "  padded title  "), ("ARTIST", ""), ("ALBUM", "Odd Album"), ("TRACKNUMBER", "3/12"),
                     ("DISCNUMBER", "2/3"), ("DATE", "2004-00-00"), ("GENRE", "x" * 300)]:
            f[k] = v
        f.save()
        p = flac("Odd/year only.flac"); f = FLAC(p); f["TITLE"] = "Year"; f["YEAR"] = "1977"; f.save()
        p = flac("Odd/date with time.flac"); f = FLAC(p); f["TITLE"] = "Datetime"; f["DATE"] = "2019-03-04T05:06:07"; f.save()
        p = mp3("Odd/id3 datetime.mp3"); t = ID3(); t.add(TIT2(encoding=3, text="Id3 Datetime"))
        t.add(TDRC(encoding=3, text="2019-03-04T05:06:07")); t.save(p, v2_version=4)
        p = flac("Odd/track zero.flac"); f = FLAC(p); f["TITLE"] = "Zero"; f["TRACKNUMBER"] = "0"; f["DISCNUMBER"] = "0"; f.save()

        # Text whose case folding goes past lower case: MPD's search folds with ICU (ß is ss,
        # ﬁ is fi, a final ς is σ), so STRASSE finds Straße.
        p = flac("Folding/fold.flac"); f = FLAC(p)
        for k, v in [("TITLE", "Straße der ﬁnsteren Nacht"), ("ARTIST", "ΣΟΦΟΣ Ensemble"), ("ALBUM", "Große Fuge")]:
            f[k] = v
        f.save()

        # Playlist files beside the songs, as rippers and players leave them: relative entries,
        # one not there, one with spaces around it, extended M3U in a folder of its own; and a song at the top, beside
        # the folders.
        with open(os.path.join(root, "Picard", "album.m3u"), "w") as f:
            f.write("v23.mp3\n  v24 multi.mp3\t \ngone.mp3\n")
        os.makedirs(os.path.join(root, "Playlists"))
        with open(os.path.join(root, "Playlists", "mix.m3u8"), "w") as f:
            f.write("#EXTM3U\n#EXTINF:2,Eta - Vorbis\n../Ogg/vorbis.ogg\n../foobar/fb.flac\n")
        p = mp3("top.mp3"); t = ID3(); t.add(TIT2(encoding=3, text="At the top")); t.save(p, v2_version=4)
        # A PLS as radio sites and Winamp write it (entries numbered out of order, an absolute
        # path), and an XSPF as VLC writes it (a file:// location, a relative one).
        os.makedirs(os.path.join(root, "Radio"))
        with open(os.path.join(root, "Radio", "radio.pls"), "w") as f:
            f.write("[playlist]\r\nNumberOfEntries=2\r\nFile2=../Picard/v23.mp3\r\n"
                    "File1=" + os.path.join(root, "foobar", "fb.flac") + "\r\nTitle1=First\r\nLength1=2\r\nVersion=2\r\n")
        os.makedirs(os.path.join(root, "Exported"))
        with open(os.path.join(root, "Exported", "vlc.xspf"), "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n<playlist xmlns="http://xspf.org/ns/0/" version="1">\n'
                    '<title>VLC</title>\n<trackList>\n<track><location>file://' + os.path.join(root, "Ogg", "vorbis.ogg")
                    + '</location><duration>2000</duration></track>\n<track><location>../foobar/fb.flac</location></track>\n'
                    '</trackList>\n</playlist>\n')

        # Ogg Vorbis and Opus, an iTunes M4A, WAV with an ID3 chunk and with RIFF INFO.
        p = enc("Ogg/vorbis.ogg", lambda p: ["oggenc", "-Q", "-o", p, src]); f = OggVorbis(p)
        for k, v in [("TITLE", "Vorbis"), ("ARTIST", ["Eta", "Theta"]), ("ALBUMARTIST", "Eta"), ("ALBUM", "Ogg Album"),
                     ("TRACKNUMBER", "2"), ("DATE", "2015"), ("GENRE", ["Folk", "Jazz"])]:
            f[k] = v
        f.save()
        p = enc("Ogg/opus.opus", lambda p: ["opusenc", "--quiet", src, p]); f = OggOpus(p)
        f["TITLE"] = "Opus"; f["ARTIST"] = "Iota"; f["ALBUM"] = "Ogg Album"; f["TRACKNUMBER"] = "3"; f.save()
        p = enc("iTunes/itunes.m4a", lambda p: ["ffmpeg", "-v", "quiet", "-i", src, "-c:a", "aac", "-b:a", "96k", p]); f = MP4(p)
        for k, v in [("\xa9nam", "iTunes Title"), ("\xa9ART", "Kappa"), ("aART", "Kappa & Co"), ("\xa9alb", "iTunes Album"),
                     ("\xa9day", "2012-02-02T08:00:00Z"), ("trkn", [(4, 11)]), ("disk", [(1, 2)]), ("\xa9gen", "Soundtrack"),
                     ("\xa9wrt", "Writer W"), ("soar", "Kappa"),
                     ("----:com.apple.iTunes:MusicBrainz Album Id", MP4FreeForm(b"12345678-1111-1111-1111-111111111111"))]:
            f[k] = v
        f.save()
        p = enc("Wav/id3.wav", lambda p: ["cp", src, p]); w = WAVE(p); w.add_tags()
        w.tags.add(TIT2(encoding=3, text="Wav ID3")); w.tags.add(TPE1(encoding=3, text="Lambda")); w.tags.add(TRCK(encoding=3, text="9")); w.save()
        enc("Wav/info.wav", lambda p: ["ffmpeg", "-v", "quiet", "-i", src, "-metadata", "title=Wav INFO", "-metadata", "artist=Mu",
                                       "-metadata", "album=Info Album", "-metadata", "track=6", p])
        """#

    /// Where Boomic answers otherwise on purpose: (file, tag line prefix), and why.
    static let keptDifferences: [(file: String, line: String)] = [
        // Boomic reads a Vorbis YEAR when there is no DATE, and a RIFF INFO track number.
        ("Odd/year only.flac", "Date: "), ("Wav/info.wav", "Track: "),
        // MPD's ID3 reader knows none of TXXX:WORK, MVNM, MVIN and TSOC, which Picard writes
        // and TagLib reads.
        ("Classical ID3/picard.mp3", "Work: "), ("Classical ID3/picard.mp3", "Movement: "),
        ("Classical ID3/picard.mp3", "MovementNumber: "), ("Classical ID3/picard.mp3", "ComposerSort: "),
        // Where iTunes 12.5 put the grouping in GRP1 and the work in TIT1, MPD still reads TIT1
        // as the grouping; Boomic reads each where that file keeps it.
        ("Classical ID3/itunes style.mp3", "Grouping: "), ("Classical ID3/itunes style.mp3", "Work: "),
        // MPD's ID3 reader takes performers from TPE4 alone; Boomic reads Picard's TMCL.
        ("Picard/v24 multi.mp3", "Performer: "),
    ]

    /// Lines no comparison looks at: the decoder's sample format and the exact length depend on
    /// the decoder and its build (MPD decodes MP3 with libmad to 24 bits, Boomic with mpg123 to
    /// floats; AAC and Opus lengths with or without the encoder's delay); MPD leaves Comment
    /// out unless told to keep it; MUSICBRAINZ_RELEASEGROUPID is not a tag of MPD 0.23.
    static let ignored = ["Format: ", "duration: ", "Last-Modified: ", "Comment: ", "MUSICBRAINZ_RELEASEGROUPID: "]

    static let commands = [
        "list artist", "list albumartist", "list genre", "list composer", "list album group albumartist",
        "list genre group artist", "count group genre", "count group composer", "list artistsort", "list albumartistsort",
        #"find genre "Fusion""#, #"find genre "Jazz""#, #"find composer "C2""#, #"find artist "Alpha""#,
        #"find artist "Alpha feat. Beta""#, #"find artist "Epsilon""#, #"find albumartist "Gamma""#, #"search genre "rock""#,
        #"find "(genre == \"Drone\")""#, #"find "(composer =~ \"^Composer Y\")""#, #"list album genre "Jazz""#,
        #"find "(artist != \"Epsilon & Zeta\")""#, "lsinfo", #"lsinfo "/""#,
        // Classical tags, within the folder whose files MPD reads them from (its ID3 reader
        // knows none of them but TIT1: see keptDifferences).
        #"list work "(base \"Classical\")""#, #"list composersort "(base \"Classical\")""#,
        #"list grouping "(base \"Classical\")""#, #"list movement "(base \"Classical\")""#,
        #"list movementnumber "(base \"Classical\")""#, #"list musicbrainz_workid "(base \"Classical\")""#,
        "list ensemble", "list location", #"find ensemble "Chorus""#, #"search any "musikverein""#,
        #"count "(base \"Classical\")" group work"#, #"find work "Symphony No. 5" base "Classical""#,
        #"find composersort "Mozart""#, #"find "((grouping == \"Fifth\") AND (base \"Classical\"))""#,
        #"find musicbrainz_workid "ffffffff-1111-1111-1111-111111111111""#,
        // `any` is every tag's values, and not the file name.
        #"search any "allegro con""#, #"search any "dddddddd""#, #"search any "vocals""#, #"search any "1998""#,
        #"search any "classical""#, #"search any "v24 multi""#, #"find any "Mozart""#, #"search any "label rec""#,
        // ID3v2.4's TDRC with a time keeps its 'T' (TagLib alone makes it a space).
        #"find date "2019-03-04T05:06:07""#, #"search title "" window 0:100"#,
        // Case folded as ICU folds it: ß is ss, ﬁ is fi, σ and ς are one letter.
        #"search title "STRASSE""#, #"search any "strasse der""#, #"search title "finsteren""#, #"search album "GROSSE FUGE""#,
        #"search artist "σοφος""#, #"search artist "ΣΟΦΟΣ ENS""#, #"search "(album == \"GROSSE FUGE\")""#,
        #"search title "straße""#, #"find album "GROSSE FUGE""#,
        // Playlist files in the music folders: listed after a folder's songs (and before its
        // folders), read by their path, loaded; an entry not there is its path alone.
        #"lsinfo "Picard""#, #"lsinfo "Playlists""#, #"listplaylist "Picard/album.m3u""#,
        #"listplaylistinfo "Picard/album.m3u""#, #"listplaylist "Playlists/mix.m3u8""#, #"listplaylist "Picard/none.m3u""#,
        "clear", #"load "Playlists/mix.m3u8""#, #"load "Picard/album.m3u""#, "playlist", "clear",
        #"lsinfo "Radio""#, #"lsinfo "Exported""#, #"listplaylist "Radio/radio.pls""#, #"listplaylist "Exported/vlc.xspf""#,
        "clear", #"load "Radio/radio.pls""#, #"load "Exported/vlc.xspf""#, "playlist", "clear",
    ]

    @Test func songsReadFromOtherTaggersAreServedAsMPDServesThem() throws {
        let box = try Sandbox(samples: false)
        try FileManager.default.createDirectory(atPath: box.music, withIntermediateDirectories: true)
        try Self.make.write(toFile: box.root + "/make.py", atomically: true, encoding: .utf8)
        let made = try ChildProcess.run("/usr/bin/python3", [box.root + "/make.py", box.music])
        try #require(made.succeeded, "\(made)")
        let imported = try box.boomic("import", box.music)
        try #require(imported.succeeded && imported.stderr.isEmpty, "\(imported)")
        let server = try RunningServer(box)
        let mpd = try ReferenceMPD(music: box.music, in: box.root)
        try mpd.waitForDatabase(songs: try box.songs().count)

        let (ours, theirs) = try mpd.ask(["tagtypes", "listallinfo"] + Self.commands, alongside: server.port, in: box.root)

        // Each song's tag lines, for the tags Boomic keeps (it says which in `tagtypes`).
        let kept = Set(ours[0].split(separator: "\n").compactMap { $0.hasPrefix("tagtype: ") ? String($0.dropFirst(9)) : nil })
        #expect(kept.count > 10, "\(ours[0])")
        func songs(_ answer: String) -> [String: [String]] {
            var out: [String: [String]] = [:], file: String?
            for line in answer.split(separator: "\n").map(String.init) {
                if line.hasPrefix("file: ") { file = String(line.dropFirst(6)); out[file!] = []; continue }
                if line.hasPrefix("directory: ") || line == "OK" { file = nil; continue }
                guard let file, !Self.ignored.contains(where: line.hasPrefix) else { continue }
                let name = line.prefix { $0 != ":" }
                if kept.contains(String(name)) || name == "Time" { out[file]!.append(line) }
            }
            return out
        }
        let served = songs(ours[1]), reference = songs(theirs[1])
        #expect(Set(served.keys) == Set(reference.keys))
        #expect(reference.count == 28, "mpd read \(reference.keys.sorted())")
        var unused = Set(Self.keptDifferences.map { "\($0.file) \($0.line)" })
        for file in reference.keys.sorted() {
            func differs(_ line: String) -> Bool {
                guard let kept = Self.keptDifferences.first(where: { $0.file == file && line.hasPrefix($0.line) }) else { return true }
                unused.remove("\(kept.file) \(kept.line)")
                return false
            }
            let a = (served[file] ?? []).sorted(), b = (reference[file] ?? []).sorted()
            let onlyOurs = a.filter { !b.contains($0) && differs($0) }, onlyTheirs = b.filter { !a.contains($0) && differs($0) }
            #expect(onlyOurs.isEmpty && onlyTheirs.isEmpty, "\(file)\n  only boomic: \(onlyOurs)\n  only mpd:    \(onlyTheirs)")
        }
        #expect(unused.isEmpty, "kept differences that no longer differ: \(unused.sorted())")

        for (n, command) in Self.commands.enumerated() {
            func lines(_ answer: String) -> [Substring] {
                let all = answer.split(separator: "\n")
                // The folders a search's songs come in, in order: collated as MPD's database
                // keeps them (foobar and iTunes among the capitals), not by the path's bytes.
                if command.contains(" window ") {
                    return ReferenceMPD.folderRuns(all)
                }
                // Found songs: which files (their tags are compared above).
                if command.hasPrefix("find") || command.hasPrefix("search") { return all.filter { $0.hasPrefix("file: ") }.sorted() }
                // Songs, playlist files, then folders in MPD's order (foobar, iTunes, Odd: case
                // aside); the songs' order within a folder is MPD's scan's, and times differ.
                if command.hasPrefix("lsinfo") {
                    return all.filter { ["directory: ", "file: ", "playlist: "].contains(where: $0.hasPrefix) }
                        .map { $0.hasPrefix("file: ") ? "file" : $0 }
                }
                if command.hasPrefix("listplaylistinfo") { return all.filter { $0.hasPrefix("file: ") } }
                return all
            }
            let a = ours[n + 2], b = theirs[n + 2]
            #expect(lines(a) == lines(b), "\(command)\n  boomic: \(a.split(separator: "\n"))\n  mpd:    \(b.split(separator: "\n"))")
        }
    }
}
