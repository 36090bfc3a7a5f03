import BoomicTestSupport
import Foundation
import Testing

/// Files tagged by other programs, the way Picard, foobar2000, beets and mutagen write them
/// (issue 9, items 2.14 and 2.15): writing one field back changes that field only, every other
/// key keeps its spelling and values, in every format; and what those programs write is read.
///
/// The fixtures are made here with mutagen (and `wavpack` for a WavPack file, since scripts/setup
/// installs it; an MP4 is laid out by hand, as no AAC or ALAC encoder is installed); mutagen reads them back, key by key, so Boomic's own reader judges nothing.
@Suite struct ForeignTagsTests {
    /// `make KIND PATH [SOURCE]` writes a tagged file; `dump PATH…` prints, per file, each key
    /// as stored (APEv2 and Vorbis keys in their own case, ID3 frames by mutagen's HashKey)
    /// with its values in order. (Not an ID3 frame's text encoding: TagLib re-creates a v2.3
    /// TCON frame in Latin-1 when it parses it, whatever it is asked to write.)
    static let script = #"""
        import sys, json, os, shutil, subprocess, struct, random
        from mutagen.apev2 import APEv2
        from mutagen.mp4 import MP4, MP4FreeForm
        from mutagen.flac import FLAC
        from mutagen.oggvorbis import OggVorbis
        from mutagen.id3 import ID3, TIT2, TPE1, TDRC, TYER, TPOS, TRCK, TXXX, COMM, TALB, TCON, UFID

        VORBIS = [('TITLE', ['Old Title']), ('ARTIST', ['A feat. B']), ('ARTISTS', ['A', 'B']),
                  ('ALBUM', ['Foreign Album']), ('DATE', ['2001-05-03']), ('YEAR', ['2001']),
                  ('DISCNUMBER', ['1']), ('DISCTOTAL', ['2']), ('TOTALDISCS', ['2']), ('TRACKNUMBER', ['03']),
                  ('MOOD', ['calm']), ('CUSTOM KEY', ['x', 'y']), ('REPLAYGAIN_TRACK_GAIN', ['-6.50 dB']),
                  ('MUSICBRAINZ_ALBUMID', ['9e097b10-8160-491e-a310-e26e54a86a10'])]

        def box(t, payload): return struct.pack('>I', 8 + len(payload)) + t + payload
        def full(t, payload, version=0, flags=0): return box(t, struct.pack('>I', (version << 24) | flags) + payload)
        # An ALAC file as iTunes lays it out (no encoder is at hand: the audio bytes are random,
        # which no tagger reads), tagged below as iTunes and Picard spell MP4 keys.
        def m4a(path, seconds=1, rate=44100, seed=7):
            rng = random.Random(seed)
            frames = max(1, seconds * rate // 4096)
            sizes = [rng.randrange(900, 1400) for _ in range(frames)]
            audio = bytes(rng.randrange(256) for _ in range(sum(sizes)))
            matrix = struct.pack('>9I', 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
            dur = frames * 4096
            mvhd = full(b'mvhd', struct.pack('>IIII', 0, 0, rate, dur) + struct.pack('>IH', 0x10000, 0x100) + b'\0' * 10 + matrix + b'\0' * 24 + struct.pack('>I', 2))
            tkhd = full(b'tkhd', struct.pack('>IIIII', 0, 0, 1, 0, dur) + b'\0' * 8 + struct.pack('>HHHH', 0, 0, 0x100, 0) + matrix + struct.pack('>II', 0, 0), flags=7)
            mdhd = full(b'mdhd', struct.pack('>IIIIHH', 0, 0, rate, dur, 0x55c4, 0))
            hdlr = full(b'hdlr', struct.pack('>I', 0) + b'soun' + b'\0' * 12 + b'SoundHandler\0')
            smhd = full(b'smhd', struct.pack('>HH', 0, 0))
            dinf = box(b'dinf', full(b'dref', struct.pack('>I', 1) + full(b'url ', b'', flags=1)))
            alac_cfg = full(b'alac', struct.pack('>IBBBBBBHIII', 4096, 0, 16, 40, 10, 14, 2, 255, 0, 0, rate))
            entry = box(b'alac', b'\0' * 6 + struct.pack('>H', 1) + b'\0' * 8 + struct.pack('>HHHHI', 2, 16, 0, 0, rate << 16) + alac_cfg)
            stsd = full(b'stsd', struct.pack('>I', 1) + entry)
            stts = full(b'stts', struct.pack('>III', 1, frames, 4096))
            stsc = full(b'stsc', struct.pack('>IIII', 1, 1, frames, 1))
            stsz = full(b'stsz', struct.pack('>II', 0, frames) + b''.join(struct.pack('>I', s) for s in sizes))
            def moov(offset):
                stco = full(b'stco', struct.pack('>II', 1, offset))
                stbl = box(b'stbl', stsd + stts + stsc + stsz + stco)
                minf = box(b'minf', smhd + dinf + stbl)
                mdia = box(b'mdia', mdhd + hdlr + minf)
                return box(b'moov', mvhd + box(b'trak', tkhd + mdia))
            ftyp = box(b'ftyp', b'M4A ' + struct.pack('>I', 0) + b'M4A mp42isom\0\0\0\0')
            # moov first, as iTunes writes it: a tag that grows moov moves mdat, and stco must follow.
            head = len(ftyp) + len(moov(0)) + 8
            with open(path, 'wb') as f:
                f.write(ftyp + moov(head) + box(b'mdat', audio))

        def make(kind, path, source):
            if kind == 'm4a':
                m4a(path)
                t = MP4(path)
                t['\xa9nam'] = ['Old Title']
                t['\xa9ART'] = ['A feat. B']
                t['\xa9alb'] = ['Foreign Album']
                t['\xa9day'] = ['2001-05-03']
                t['trkn'] = [(3, 12)]
                t['disk'] = [(1, 2)]
                t['\xa9gen'] = ['Jazz']
                t['\xa9cmt'] = ['A comment']
                t['----:com.apple.iTunes:ARTISTS'] = [MP4FreeForm(b'A'), MP4FreeForm(b'B')]
                t['----:com.apple.iTunes:MusicBrainz Album Id'] = [MP4FreeForm(b'9e097b10-8160-491e-a310-e26e54a86a10')]
                t['----:com.apple.iTunes:replaygain_track_gain'] = [MP4FreeForm(b'-6.50 dB')]
                t['----:com.apple.iTunes:Custom Key'] = [MP4FreeForm(b'x'), MP4FreeForm(b'y')]
                t.save()
                return
            if kind == 'wv':
                subprocess.run(['sox', '-n', '-r', '44100', '-c', '2', '-b', '16', path + '.wav',
                                'synth', '1', 'sine', '440'], check=True)
                subprocess.run(['wavpack', '-q', '-y', path + '.wav', '-o', path], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                os.remove(path + '.wav')
                t = APEv2()
                # As foobar2000 and Picard spell them, plus what other taggers leave.
                t['Title'] = 'Old Title'
                t['Artist'] = ['A feat. B']
                t['Artists'] = ['A', 'B']
                t['Album'] = 'Foreign Album'
                t['DATE'] = '2001-05-03'
                t['YEAR'] = '2001'
                t['DISCNUMBER'] = '1/2'
                t['Disc'] = '1/2'
                t['Track'] = '3/12'
                t['Album Artist'] = 'Various'
                t['mood'] = 'calm'
                t['Custom Key'] = ['x', 'y']
                t['replaygain_track_gain'] = '-6.50 dB'
                t['MUSICBRAINZ_ALBUMID'] = '9e097b10-8160-491e-a310-e26e54a86a10'
                t.save(path)
                return
            shutil.copy(source, path)
            if kind in ('flac', 'ogg'):
                f = FLAC(path) if kind == 'flac' else OggVorbis(path)
                f.delete()
                for k, v in VORBIS:
                    f[k] = v
                f.save()
                return
            ID3(path).delete()
            t = ID3()
            t.add(TIT2(encoding=1, text=['Old Title']))
            t.add(TPE1(encoding=1, text=['A feat. B']))
            t.add(TALB(encoding=1, text=['Foreign Album']))
            t.add(TPOS(encoding=1, text=['1/2']))
            t.add(TRCK(encoding=1, text=['3/12']))
            t.add(TCON(encoding=1, text=['Jazz']))
            t.add(TXXX(encoding=1, desc='ARTISTS', text=['A', 'B']))
            t.add(TXXX(encoding=1, desc='MusicBrainz Album Id', text=['9e097b10-8160-491e-a310-e26e54a86a10']))
            t.add(TXXX(encoding=1, desc='replaygain_track_gain', text=['-6.50 dB']))
            t.add(TXXX(encoding=1, desc='Custom Key', text=['x', 'y']))
            t.add(COMM(encoding=1, lang='eng', desc='', text=['A comment']))
            t.add(UFID(owner='http://musicbrainz.org', data=b'4c2b2b2d-7d4b-4a4c-8a2b-1c8c1a5b5d0e'))
            if kind == 'mp3v3':
                t.add(TYER(encoding=1, text=['2001']))
                t.save(path, v2_version=3)
            else:
                t.add(TDRC(encoding=1, text=['2001-05-03']))
                t.save(path, v2_version=4)

        def dump(path):
            if path.endswith('.m4a'):
                t = MP4(path)
                return {k: [x.decode() if isinstance(x, bytes) else str(x) for x in v] for k, v in t.tags.items()}
            if path.endswith('.wv'):
                t = APEv2(path)
                return {k: list(t[k]) for k in t.keys()}
            if path.endswith('.mp3'):
                t = ID3(path)
                out = {'ID3v2.%d' % t.version[1]: []}
                for fr in t.values():
                    if hasattr(fr, 'text'):
                        out[fr.HashKey] = [str(x) for x in fr.text]
                    elif hasattr(fr, 'data'):
                        out[fr.HashKey] = [fr.data.hex()]
                return out
            f = FLAC(path) if path.endswith('.flac') else OggVorbis(path)
            out = {}
            for k, v in f.tags:
                out.setdefault(k, []).append(v)
            return out

        if sys.argv[1] == 'make':
            make(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
        else:
            print(json.dumps({p: dump(p) for p in sys.argv[2:]}))
        """#

    /// The files, by name, and what each is made from.
    static let fixtures: [(name: String, kind: String, source: String?)] = [
        ("foobar.wv", "wv", nil),
        ("itunes.m4a", "m4a", nil),
        ("picard.flac", "flac", "Miles Quartet/Blue Sketches/01 So Modal.flac"),
        ("picard.ogg", "ogg", "Free Software Choir/Open Voices/01 Vorbis Dawn.ogg"),
        ("v23.mp3", "mp3v3", "Old Timer/Retro Hits/01 Eight Bit Song.mp3"),
        ("v24.mp3", "mp3v4", "Motörhead-ish/Ace of Spätz/01 Øverkill.mp3"),
    ]

    /// A sandbox whose music folder holds the fixtures, imported.
    static func foreignLibrary(sourceLocation: SourceLocation = #_sourceLocation) throws -> (Sandbox, [String]) {
        let box = try Sandbox(samples: false)
        try FileManager.default.createDirectory(atPath: box.music, withIntermediateDirectories: true)
        var paths: [String] = []
        for f in fixtures {
            let path = box.music + "/" + f.name
            let run = try ChildProcess.run(systemPython, ["-c", script, "make", f.kind, path] + (f.source.map { [Repo.samples + "/" + $0] } ?? []))
            try #require(run.succeeded, "\(run)", sourceLocation: sourceLocation)
            paths.append(path)
        }
        try box.importSamples(sourceLocation: sourceLocation)
        return (box, paths)
    }

    static func dump(_ paths: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: [String: [String]]] {
        let run = try ChildProcess.run(systemPython, ["-c", script, "dump"] + paths)
        try #require(run.succeeded, "\(run)", sourceLocation: sourceLocation)
        return try decodeJSON([String: [String: [String]]].self, run.stdout, sourceLocation: sourceLocation)
    }

    /// The keys that hold the title, in each fixture's spelling.
    static let titleKeys: Set<String> = ["Title", "TITLE", "TIT2", "\u{A9}nam"]

    // MARK: 2.15 A write changes the fields that differ, and nothing else

    @Test func writingTheTitleLeavesEveryOtherKeyAsItWas() throws {
        let (box, paths) = try Self.foreignLibrary()
        let before = try Self.dump(paths)
        let run = try box.succeed("modify", "title:Old Title", "title=New Title", "-y", "--write")
        #expect(run.lines.last?.hasPrefix("Wrote tags into \(paths.count) files") == true, "\(run)")

        let after = try Self.dump(paths)
        for path in paths {
            let b = try #require(before[path]), a = try #require(after[path])
            let name = (path as NSString).lastPathComponent
            #expect(b.filter { !Self.titleKeys.contains($0.key) } == a.filter { !Self.titleKeys.contains($0.key) },
                    "\(name): keys other than the title changed:\n  before \(b.sorted { $0.key < $1.key })\n  after  \(a.sorted { $0.key < $1.key })")
            let titles = a.filter { Self.titleKeys.contains($0.key) }
            #expect(titles.count == 1 && titles.values.first?.first == "New Title", "\(name): \(titles)")
            #expect(Set(titles.keys) == Set(b.keys).intersection(Self.titleKeys), "\(name): the title key was re-spelled")
        }
        #expect(try box.succeed("import").stdout.hasPrefix("Nothing changed:"))
        #expect(try box.succeed("write").stdout == "Every file already holds the library's tags.\n")
    }

    // MARK: 2.14 Picard's and beets' ARTISTS

    /// ARTIST holds one credit ("A feat. B"), ARTISTS the artists one by one: the song's artists
    /// are the list, so `artist:=B` finds the song; an artist edit written back rewrites both
    /// keys, so that no reader finds the old artists in either.
    @Test func artistsTagIsTheSongsArtists() throws {
        let (box, paths) = try Self.foreignLibrary()
        // An ID3v2.3 frame holds one text: mutagen joins the list with "/" there.
        let expected: [String: [String]] = ["foobar.wv": ["A", "B"], "itunes.m4a": ["A", "B"], "picard.flac": ["A", "B"], "picard.ogg": ["A", "B"],
                                            "v23.mp3": ["A/B"], "v24.mp3": ["A", "B"]]
        let songs = try box.songs()
        #expect(Dictionary(uniqueKeysWithValues: songs.map { (($0.path as NSString).lastPathComponent, $0.artists ?? []) }) == expected)
        #expect(try box.songs("artist:=B").count == 5)

        try box.succeed("modify", "title:Old Title", "artist=C", "-y", "--write")
        let after = try Self.dump(paths)
        for path in paths {
            let tags = try #require(after[path])
            let name = (path as NSString).lastPathComponent
            let pairs: [(String, String)] = switch name {
            case "foobar.wv": [("Artist", "Artists")]
            case "itunes.m4a": [("\u{A9}ART", "----:com.apple.iTunes:ARTISTS")]
            case "picard.flac", "picard.ogg": [("ARTIST", "ARTISTS")]
            default: [("TPE1", "TXXX:ARTISTS")]
            }
            for (artist, artists) in pairs {
                #expect(tags[artist] == ["C"] && tags[artists] == ["C"], "\(name): \(tags)")
            }
        }
        #expect(try box.succeed("import").stdout.hasPrefix("Nothing changed:"))
        // An artist edit replaces the credit too: "C", not "A feat. B".
        #expect(try box.songs().allSatisfy { $0.artists == ["C"] && $0.artist == "C" })
    }

    /// beets keeps both: `artist` is the credit (the ARTIST tag), `artists` the list (ARTISTS).
    /// The song shows "A feat. B" in `ls`, `--json`, `-f` and `info`, not the joined list, while
    /// queries find it by the credit and by each artist, and browsing groups it under each listed
    /// artist (the credit is no artist of its own). Nothing of it makes the file look changed.
    @Test func artistCreditIsTheDisplayedArtist() throws {
        let (box, _) = try Self.foreignLibrary()
        let songs = try box.songs()
        #expect(songs.count == Self.fixtures.count)
        for s in songs { #expect(s.artist == "A feat. B", "\(s.path): \(s.artist ?? "nil") for \(s.artists ?? [])") }
        let ls = try box.succeed("ls").lines
        #expect(ls.count == Self.fixtures.count && ls.allSatisfy { $0.hasPrefix("A feat. B - Foreign Album - ") }, "\(ls)")
        #expect(try box.succeed("ls", "-f", "$artist").lines == Array(repeating: "A feat. B", count: Self.fixtures.count))
        let info = try box.succeed("info", "path::picard.flac").lines
        #expect(info.contains { $0.split(separator: " ", omittingEmptySubsequences: true) == ["artist_credit", "A", "feat.", "B"] }, "\(info)")

        #expect(try box.songs("artist:=A feat. B").count == Self.fixtures.count)
        #expect(try box.songs("artist:feat").count == Self.fixtures.count)
        #expect(try box.songs("artist:=B").count == 5)
        #expect(try box.songs("^artist:feat").isEmpty)
        // foobar.wv files its album under "Various"; an ID3v2.3 frame holds one text ("A/B").
        let artists = try box.succeed("ls", "--artists").lines.map { $0.components(separatedBy: "  ")[0] }
        #expect(artists.sorted() == ["A", "A/B", "B", "Various"], "\(artists)")

        #expect(try box.succeed("import").stdout.hasPrefix("Nothing changed:"))
        #expect(try box.succeed("write").stdout == "Every file already holds the library's tags.\n")
    }

    /// A credit edited in the library is written to ARTIST, with the list in ARTISTS, and reads
    /// back as it was; `artist=` afterwards replaces both.
    @Test func editedCreditIsWrittenToArtist() throws {
        let (box, paths) = try Self.foreignLibrary()
        let flac = try #require(paths.first { $0.hasSuffix("picard.flac") })
        try box.succeed("modify", "path::picard.flac", "artist_credit=A & B", "-y", "--write")
        let tags = try #require(try Self.dump([flac])[flac])
        #expect(tags["ARTIST"] == ["A & B"] && tags["ARTISTS"] == ["A", "B"], "\(tags)")
        #expect(try box.succeed("import").stdout.hasPrefix("Nothing changed:"))
        let song = try #require(try box.songs("path::picard.flac").first)
        #expect(song.artist == "A & B" && song.artists == ["A", "B"])
        #expect(try box.songs("artist:=A feat. B").count == Self.fixtures.count - 1)
    }
}
