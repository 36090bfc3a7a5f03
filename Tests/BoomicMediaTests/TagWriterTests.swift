import BoomicCore
@testable import BoomicMedia
import BoomicTestSupport
import Foundation
import Glibc
import Testing

/// Writing tags back into files (DESIGN §1): every field read back by TagLib and by mutagen,
/// the audio bit-identical, the file replaced whole with its mode and owner, and refusals for
/// read-only files and files that changed on disk. Always on copies of `Samples/`.
@Suite struct TagWriterTests {
    let dir = TempDir("boomic-tagwriter")
    let art: ArtStore
    var writer: TagWriter { TagWriter(art: art) }

    init() throws {
        art = try ArtStore(directory: dir.file(".art"), musicFolders: [dir.path])
    }

    static let flac = "Miles Quartet/Blue Sketches/01 So Modal.flac"
    static let mp3 = "Motörhead-ish/Ace of Spätz/03 Bömber.mp3"
    static let wav = "Field Recordist/Backyard Sessions/01 Morning Birds.wav"
    /// Every kind of tag storage the samples have.
    static let kinds = [
        flac, mp3, wav,
        "Field Recordist/Backyard Sessions/02 Evening Rain.wav", // RIFF INFO only
        "Free Software Choir/Open Voices/01 Vorbis Dawn.ogg",
        "坂本 龍一郎/東京の夜/1-01 夜明けの街.mp3",                       // ID3v2.3
        "Old Timer/Retro Hits/01 Eight Bit Song.mp3",             // ID3v1 only
        "Loose Files/no tags at all.flac", "Loose Files/no tags at all.mp3", "Loose Files/no tags at all.wav",
    ]

    /// A copy of a sample in its own folder of the temp dir.
    func copy(_ sample: String) throws -> String {
        let folder = dir.file(UUID().uuidString)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let target = folder + "/" + (sample as NSString).lastPathComponent
        try FileManager.default.copyItem(atPath: Repo.samples + "/" + sample, toPath: target)
        return target
    }

    /// The song a scan makes of `path`.
    func scan(_ path: String) throws -> Song {
        let listed = try #require(try MediaScanner.list(roots: [path]).first)
        let facts = try MediaScanner.read(listed, art: art).get()
        return facts.song(id: SongID(UUID()), added: 0)
    }

    /// A cover picture stored in the art store, as the library would hold it.
    func storedCover() throws -> String {
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<300).map { UInt8($0 % 251) }
        return try art.store(bytes, mime: "image/png")
    }

    /// `song` with every written field changed (non-ASCII, several artists, a new cover).
    func edited(_ song: Song) throws -> Song {
        var s = song
        s.title = "Ünïcode Title — 新しい"; s.artists = ["Åsa Ström", "Bob"]; s.album = "New Album"
        s.albumartist = "Various Ärtists"; s.artistSort = "Ström, Åsa"; s.albumartistSort = "Ärtists, Various"
        s.albumSort = "Album, New"; s.performer = "Åsa Ström (voice)"; s.conductor = "Dirigént"; s.label = "Läbel"
        // A year: ID3v2.3 holds no more of an original date (TORY), and says so as unheld.
        s.originalDate = "1998"; s.track = 7; s.tracktotal = 14; s.disc = 2; s.disctotal = 3
        s.year = 1999; s.date = "1999-12-31"; s.genre = "Jazz; Fusion"; s.composer = "Cömposer; Other"
        s.compilation = true; s.comment = "A comment"
        s.replaygainTrackGain = -7.25; s.replaygainTrackPeak = 0.912345
        s.replaygainAlbumGain = -6.5; s.replaygainAlbumPeak = 0.999999
        s.mbTrackID = "11111111-1111-4111-8111-111111111111"; s.mbAlbumID = "22222222-2222-4222-8222-222222222222"
        s.mbArtistID = "33333333-3333-4333-8333-333333333333"; s.mbAlbumArtistID = "44444444-4444-4444-8444-444444444444"
        s.mbReleaseGroupID = "55555555-5555-4555-8555-555555555555"
        s.composerSort = "Cömposer, The"; s.work = "Wörk in C"; s.movement = "Allegro"; s.movementNumber = 2
        s.movementTotal = 4; s.grouping = "Gröup"; s.mbReleaseTrackID = "66666666-6666-4666-8666-666666666666"
        s.mbWorkID = "77777777-7777-4777-8777-777777777777"; s.ensemble = "Énsemble; Other"; s.location = "Wien"
        s.art = try storedCover()
        return s
    }

    /// `song` with every written field cleared.
    func cleared(_ song: Song) -> Song {
        var s = song
        for f in TagMap.fields { f.set(.null, in: &s) }
        return s
    }

    func expectTags(of path: String, equal song: Song, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let back = try scan(path)
        for f in TagMap.fields {
            #expect(f.value(in: back) == f.value(in: song), "\(f.name) of \(path)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Round trips

    @Test(arguments: kinds)
    func everyFieldIsWrittenAndReadBackThenCleared(_ sample: String) throws {
        let path = try copy(sample)
        let moodKept = try TagFile(path: path, writable: true).withMood()
        let original = try scan(path)
        let audio = try decoded(path)

        let new = try edited(original)
        let outcome = try writer.write(new)
        #expect(outcome.didWrite)
        #expect(outcome.unheld.isEmpty, "\(outcome.unheld)")
        #expect(outcome.notes.isEmpty, "\(outcome.notes)")
        try expectTags(of: path, equal: new)
        #expect(try decoded(path) == audio, "audio of \(sample)")
        let st = try #require(statOf(path))
        #expect(outcome.stamp == TagWriter.stamp(st))
        #expect(outcome.fingerprint == original.fingerprint && outcome.fingerprint != nil)
        #expect(try scan(path).fingerprint == original.fingerprint)

        // Writing the same again changes nothing, not even the mtime.
        let again = try writer.write(new)
        #expect(!again.didWrite && again.stamp == outcome.stamp)
        #expect(TagWriter.stamp(try #require(statOf(path))) == outcome.stamp)

        // Clearing removes every key Boomic owns and no other.
        var empty = cleared(new)
        empty.size = outcome.stamp.size; empty.mtime = outcome.stamp.mtime
        let clearing = try writer.write(empty)
        #expect(clearing.unheld.isEmpty, "\(clearing.unheld)")
        try expectTags(of: path, equal: empty)
        #expect(try decoded(path) == audio, "audio of \(sample)")
        if moodKept { #expect(try TagFile(path: path).properties()["MOOD"] == ["Calm"]) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
                == [(path as NSString).lastPathComponent], "no temporary file is left")
    }

    @Test(arguments: [flac, mp3, "Free Software Choir/Open Voices/01 Vorbis Dawn.ogg"])
    func mutagenReadsWhatWasWritten(_ sample: String) throws {
        let path = try copy(sample)
        let new = try edited(try scan(path))
        _ = try writer.write(new)
        let (tags, cover) = try mutagenTags(path)
        let back = TagMap.reading(tags, as: new)
        for f in TagMap.fields where f != .art {
            #expect(f.value(in: back) == f.value(in: new), "\(f.name): mutagen read \(tags)")
        }
        // Several genres are several values, not one "Jazz; Fusion".
        #expect(tags["GENRE"] == ["Jazz", "Fusion"] && tags["COMPOSER"] == ["Cömposer", "Other"], "\(tags)")
        #expect(cover.map { XXH64.hex($0) } == new.art)
    }

    @Test func mp3KeepsItsTagVersionsAndGetsNoID3v1() throws {
        for sample in [mp3Samples.v24, mp3Samples.none] {
            let path = try copy(sample)
            #expect(try !hasID3v1(path))
            _ = try writer.write(try edited(try scan(path)))
            #expect(try !hasID3v1(path), "\(sample) got an ID3v1 tag")
        }
        let v1 = try copy(mp3Samples.v1)
        _ = try writer.write(try edited(try scan(v1)))
        #expect(try hasID3v1(v1), "an ID3v1 tag that was there stays (updated)")
    }

    /// The major version byte of a file's leading ID3v2 header, if it has one.
    func id3v2Version(_ path: String) throws -> UInt8? {
        let head = try #require(FileHandle(forReadingAtPath: path)).readData(ofLength: 4)
        return head.count == 4 && head.prefix(3) == Data("ID3".utf8) ? head[3] : nil
    }

    @Test func anID3v23FileStaysID3v23AndAnID3v24FileStaysID3v24() throws {
        for (sample, version) in [("坂本 龍一郎/東京の夜/1-01 夜明けの街.mp3", UInt8(3)), (Self.mp3, UInt8(4))] {
            let path = try copy(sample)
            #expect(try id3v2Version(path) == version, "\(sample) as made")
            let new = try edited(try scan(path))
            _ = try writer.write(new)
            #expect(try id3v2Version(path) == version, "\(sample) after a write")
            try expectTags(of: path, equal: new)
        }
        // A file with no ID3v2 tag gets the current version.
        let bare = try copy("Loose Files/no tags at all.mp3")
        _ = try writer.write(try edited(try scan(bare)))
        #expect(try id3v2Version(bare) == 4)
    }

    var mp3Samples: (v24: String, none: String, v1: String) {
        (Self.mp3, "Loose Files/no tags at all.mp3", "Old Timer/Retro Hits/01 Eight Bit Song.mp3")
    }

    @Test func aBigCommentMovesTheAudioButNotItsBytes() throws {
        for sample in [Self.flac, Self.mp3, Self.wav, "Free Software Choir/Open Voices/02 Libre Dusk.ogg"] {
            let path = try copy(sample)
            let audio = try decoded(path)
            var song = try scan(path)
            song.comment = String(repeating: "A long liner note. ", count: 4000)
            let outcome = try writer.write(song)
            #expect(outcome.unheld.isEmpty)
            #expect(try decoded(path) == audio, "audio of \(sample)")
            if sample.hasSuffix(".flac") { try Tool.run(["flac", "-t", "-s", "--no-preserve-modtime", path]) }
        }
    }

    // MARK: The file around the tags

    @Test func modeOwnerAndGroupAreKept() throws {
        let path = try copy(Self.flac)
        #expect(chmod(path, 0o640) == 0)
        #expect(chown(path, 1234, 2345) == 0, "the tests run as root")
        let song = try scan(path)
        let before = try #require(statOf(path))
        _ = try writer.write(try edited(song))
        let after = try #require(statOf(path))
        #expect(after.st_ino != before.st_ino, "replaced, not written in place")
        #expect(after.st_mode == before.st_mode && after.st_uid == 1234 && after.st_gid == 2345)
    }

    /// A desktop's tags and ratings live in extended attributes (`user.xdg.tags`, Baloo), and
    /// the rename of the rewritten copy would drop them. /tmp must hold user attributes (tmpfs
    /// does since Linux 6.6, ext4 and xfs always).
    @Test func extendedAttributesAreKept() throws {
        let path = try copy(Self.flac)
        let set = "import os, sys; os.setxattr(sys.argv[1], 'user.xdg.tags', b'jazz,late'); os.setxattr(sys.argv[1], 'user.rating', b'\\x00five')"
        _ = try Tool.run(["/usr/bin/python3", "-c", set, path])
        _ = try writer.write(try edited(try scan(path)))
        let get = "import os, sys; print(sorted((n, os.getxattr(sys.argv[1], n)) for n in os.listxattr(sys.argv[1])))"
        #expect(try Tool.run(["/usr/bin/python3", "-c", get, path]) == "[('user.rating', b'\\x00five'), ('user.xdg.tags', b'jazz,late')]\n")
    }

    @Test func aSymbolicLinkStaysALinkToTheRewrittenFile() throws {
        let target = try copy(Self.flac)
        let link = dir.file("link.flac")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        var song = try edited(try scan(link))
        song.path = link
        _ = try writer.write(song)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        try expectTags(of: target, equal: song)
    }

    @Test func copiesLeftByAKilledWriterAreRemoved() throws {
        let path = try copy(Self.flac)
        let folder = (path as NSString).deletingLastPathComponent
        // A pid that does not run (pid_max is at most 2^22).
        let stale = folder + "/" + TagWriter.tempPrefix(for: path) + "4194305-abc.tmp"
        #expect(FileManager.default.createFile(atPath: stale, contents: Data("half".utf8)))
        let other = folder + "/.unrelated.tmp"
        #expect(FileManager.default.createFile(atPath: other, contents: Data()))
        _ = try writer.write(try edited(try scan(path)))
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: other))
    }

    @Test func temporaryNamesStayUnderNameMax() {
        let long = "/m/" + String(repeating: "ü", count: 120) + ".flac" // 245 bytes
        let temp = TagWriter.tempPath(for: long)
        #expect((temp as NSString).lastPathComponent.utf8.count <= 255)
        #expect(temp.hasPrefix("/m/.ü"))
        #expect(TagWriter.tempPath(for: "/a.flac").hasPrefix("/.a.flac.boomic-\(getpid())-"))
    }

    // MARK: Refusals

    @Test func aReadOnlyFileIsRefusedAndLeftAlone() throws {
        let path = try copy(Self.flac)
        let song = try edited(try scan(path))
        #expect(chmod(path, 0o444) == 0)
        let bytesBefore = try bytes(of: path)
        let reason = "the file is read-only; make it writable (chmod u+w) to write its tags"
        #expect(throws: MediaError.unwritable(path: path, reason: reason)) { try writer.plan(song) }
        #expect(throws: MediaError.unwritable(path: path, reason: reason)) { try writer.write(song) }
        #expect(try bytes(of: path) == bytesBefore)
        // Nothing to write: no complaint.
        var same = try scan(path)
        same.path = path
        #expect(try writer.plan(same).differences.isEmpty)
    }

    @Test func aReadOnlyFolderIsRefused() throws {
        let path = try copy(Self.flac)
        let folder = (path as NSString).deletingLastPathComponent
        let song = try edited(try scan(path))
        #expect(chmod(folder, 0o555) == 0)
        defer { chmod(folder, 0o755) }
        #expect(throws: MediaError.self) { try writer.write(song) }
        do {
            _ = try writer.write(song)
        } catch {
            #expect(error.localizedDescription.hasPrefix("\(path): its folder is read-only"))
            #expect(!error.localizedDescription.contains("\n"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 1)
    }

    @Test func aFileChangedOnDiskIsRefusedUnlessForcedOrAccepted() throws {
        let path = try copy(Self.flac)
        let song = try edited(try scan(path))
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 5), timespec(tv_sec: 1_700_000_000, tv_nsec: 5)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let plan = try writer.plan(song)
        #expect(plan.isChangedOnDisk && !plan.differences.isEmpty)
        #expect(throws: MediaError.self) { try writer.write(song) }
        #expect(try scan(path).title != song.title)

        _ = try writer.write(song, accepting: [plan.stamp])
        try expectTags(of: path, equal: song)

        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        var other = song
        other.title = "Forced"
        _ = try writer.write(other, force: true)
        #expect(try scan(path).title == "Forced")
    }

    @Test func aFieldTheFileCannotHoldIsReportedNotFailed() throws {
        let path = try copy(Self.mp3)
        var song = try scan(path)
        song.track = 100_000 // beyond what a scan accepts as a track number
        song.title = "Held"
        let outcome = try writer.write(song)
        #expect(outcome.didWrite)
        #expect(outcome.unheld == [TagDifference(field: .track, file: .null, library: .int(100_000))])
        #expect(try scan(path).title == "Held")
    }

    @Test func aYearEditedAwayFromTheDateIsWrittenWithANote() throws {
        let path = try copy(Self.flac) // dated 1969-09-26
        var song = try scan(path)
        #expect(song.date == "1969-09-26")
        song.year = 1970
        let outcome = try writer.write(song)
        #expect(outcome.unheld.isEmpty)
        #expect(outcome.notes == [.dateOverriddenByYear(date: "1969-09-26", year: 1970)])
        #expect(outcome.notes.map(\.description) == ["its date 1969-09-26 disagrees with its year 1970, so only the year was written"])
        let back = try scan(path)
        #expect(back.year == 1970 && back.date == nil)
    }

    @Test func aCoverMissingFromTheArtStoreIsANote() throws {
        let path = try copy(Self.flac)
        var song = try scan(path)
        song.art = "0123456789abcdef"
        song.title = "Still written"
        let outcome = try writer.write(song)
        #expect(outcome.notes == [.missingCover(hash: "0123456789abcdef")])
        #expect(outcome.notes.map(\.description) == ["the library's cover is no longer in its art store (0123456789abcdef); its cover was left as it was"])
        #expect(outcome.unheld.isEmpty, "the note explains the cover: it is not also unheld")
        #expect(outcome.remaining.map(\.field) == [.art])
        #expect(try scan(path).title == "Still written")
    }

    @Test func otherHardLinksAreANoteAndKeepTheOldTags() throws {
        let path = try copy(Self.flac)
        let twin = (path as NSString).deletingLastPathComponent + "/twin.flac"
        #expect(link(path, twin) == 0)
        var song = try scan(path)
        song.title = "Only this name"
        let outcome = try writer.write(song)
        #expect(outcome.notes == [.otherHardLinks(count: 1)])
        #expect(outcome.notes.map(\.description) == ["its 1 other hard link still holds the old tags"])
        #expect(try scan(twin).title != "Only this name")
    }

    // MARK: The audio check itself

    @Test func audioComparisonSeesOneFlippedByte() throws {
        for sample in [Self.flac, Self.mp3, Self.wav, "Free Software Choir/Open Voices/02 Libre Dusk.ogg"] {
            let path = try copy(sample)
            let damaged = path + ".copy"
            try FileManager.default.copyItem(atPath: path, toPath: damaged)
            let original = try TagFile(path: path)
            let range = AudioComparison.range(of: original)
            #expect(AudioComparison.difference(original, try TagFile(path: damaged)) == nil)
            let fd = open(damaged, O_WRONLY)
            var byte = original.read(at: range.lowerBound + (range.upperBound - range.lowerBound) / 2, count: 1)[0] ^ 0x10
            #expect(pwrite(fd, &byte, 1, off_t(range.lowerBound + (range.upperBound - range.lowerBound) / 2)) == 1)
            close(fd)
            #expect(AudioComparison.difference(original, try TagFile(path: damaged)) != nil, "\(sample)")
        }
    }

    // MARK: Helpers

    /// The decoded audio (FLAC and MP3), or the WAV data chunk / the Ogg file from its first
    /// audio page (as bytes), for comparing before and after.
    func decoded(_ path: String) throws -> [UInt8] {
        if path.hasSuffix(".flac") {
            try Tool.run(["flac", "-t", "-s", "--no-preserve-modtime", path])
            return try output(["flac", "-d", "-c", "-s", "--no-preserve-modtime", "--force-raw-format", "--endian=little", "--sign=signed", path])
        }
        if path.hasSuffix(".mp3") {
            // sox decodes an ID3v1 trailer as one more frame of noise; TagLib drops an ID3v1 tag
            // that was emptied. Decode the file without it.
            var b = try bytes(of: path)
            if try hasID3v1(path) { b.removeLast(128) }
            let plain = dir.file("decode-\(UUID().uuidString).mp3")
            try Data(b).write(to: URL(fileURLWithPath: plain))
            defer { try? FileManager.default.removeItem(atPath: plain) }
            return try output(["sox", plain, "-t", "raw", "-"])
        }
        if path.hasSuffix(".ogg") { return try output(["sox", path, "-t", "raw", "-"]) }
        return try wavData(path)
    }

    /// The bytes of a WAV file's `data` chunk, found by walking the RIFF chunks.
    func wavData(_ path: String) throws -> [UInt8] {
        let b = try bytes(of: path)
        try #require(b.count > 12 && b[0..<4].elementsEqual("RIFF".utf8))
        var i = 12
        while i + 8 <= b.count {
            let size = Int(b[i + 4]) | Int(b[i + 5]) << 8 | Int(b[i + 6]) << 16 | Int(b[i + 7]) << 24
            if b[i..<(i + 4)].elementsEqual("data".utf8) { return Array(b[(i + 8)..<min(b.count, i + 8 + size)]) }
            i += 8 + size + (size & 1)
        }
        Issue.record("no data chunk in \(path)")
        return []
    }

    func hasID3v1(_ path: String) throws -> Bool {
        let b = try bytes(of: path)
        return b.count >= 128 && b[(b.count - 128)..<(b.count - 125)].elementsEqual("TAG".utf8)
    }

    /// Tags as mutagen reads them, under the keys TagLib uses, and the front cover's bytes.
    func mutagenTags(_ path: String) throws -> (tags: [String: [String]], cover: [UInt8]?) {
        let script = """
            import sys, json, base64, mutagen
            from mutagen.id3 import ID3
            from mutagen.flac import Picture
            f = mutagen.File(sys.argv[1])
            out, cover = {}, None
            if isinstance(f.tags, ID3):
                t = f.tags
                names = {'TIT2': 'TITLE', 'TPE1': 'ARTIST', 'TALB': 'ALBUM', 'TPE2': 'ALBUMARTIST',
                         'TSOP': 'ARTISTSORT', 'TSO2': 'ALBUMARTISTSORT', 'TSOA': 'ALBUMSORT',
                         'TRCK': 'TRACKNUMBER', 'TPOS': 'DISCNUMBER', 'TDRC': 'DATE', 'TCON': 'GENRE',
                         'TCOM': 'COMPOSER', 'TCMP': 'COMPILATION', 'TPE3': 'CONDUCTOR', 'TPUB': 'LABEL',
                         'TDOR': 'ORIGINALDATE', 'TSOC': 'COMPOSERSORT', 'MVNM': 'MOVEMENTNAME',
                         'MVIN': 'MOVEMENTNUMBER', 'GRP1': 'GROUPING', 'TIT1': 'WORK' if 'GRP1' in t else 'GROUPING'}
                for fid, key in names.items():
                    if fid in t: out[key] = [str(x) for x in t[fid].text]
                txxx = {'MUSICBRAINZ ALBUM ID': 'MUSICBRAINZ_ALBUMID', 'MUSICBRAINZ ARTIST ID': 'MUSICBRAINZ_ARTISTID',
                        'MUSICBRAINZ ALBUM ARTIST ID': 'MUSICBRAINZ_ALBUMARTISTID',
                        'MUSICBRAINZ RELEASE GROUP ID': 'MUSICBRAINZ_RELEASEGROUPID',
                        'MUSICBRAINZ RELEASE TRACK ID': 'MUSICBRAINZ_RELEASETRACKID', 'MUSICBRAINZ WORK ID': 'MUSICBRAINZ_WORKID'}
                for fr in t.getall('TXXX'):
                    out[txxx.get(fr.desc.upper(), fr.desc.upper())] = [str(x) for x in fr.text]
                for fr in t.getall('COMM'):
                    if fr.desc == '': out['COMMENT'] = [str(x) for x in fr.text]
                for fr in t.getall('UFID'):
                    if fr.owner == 'http://musicbrainz.org': out['MUSICBRAINZ_TRACKID'] = [fr.data.decode()]
                for fr in t.getall('APIC'):
                    if fr.type == 3: cover = fr.data
            else:
                for key in set(k.upper() for k in f.tags.keys()):
                    if key != 'METADATA_BLOCK_PICTURE': out[key] = f.tags[key]
                pictures = getattr(f, 'pictures', None) or [
                    Picture(base64.b64decode(v)) for v in f.tags.get('metadata_block_picture', [])]
                for p in pictures:
                    if p.type == 3: cover = p.data
            print(json.dumps({'tags': out, 'cover': base64.b64encode(cover).decode() if cover else None}))
            """
        let json = try Tool.run(["/usr/bin/python3", "-c", script, path])
        struct Dump: Decodable { var tags: [String: [String]]; var cover: String? }
        let dump = try JSONDecoder().decode(Dump.self, from: Data(json.utf8))
        return (dump.tags, dump.cover.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) })
    }
}

extension TagFile {
    /// Adds a key Boomic does not own (MOOD=Calm) and saves; false when the format refuses it.
    func withMood() throws -> Bool {
        guard setProperty("MOOD", ["Calm"]) else { return false }
        try save()
        return properties()["MOOD"] == ["Calm"]
    }
}

/// The stdout bytes of a tool (decoded audio is binary, so not through `Tool.run`); empty
/// output is a failure too.
func output(_ arguments: [String]) throws -> [UInt8] {
    let data = try toolOutput(arguments)
    guard !data.isEmpty else { throw Tool.Failure(description: "\(arguments.joined(separator: " ")) failed") }
    return data
}
