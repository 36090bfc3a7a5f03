import BoomicCore
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicLibrary
import BoomicStore

@Suite struct SongCodecTests {
    /// Every stored property of `Song`: a new one must be added to `SongCodec` (and this count).
    @Test func coversEveryStoredProperty() {
        let names = Song.storedPropertyNames
        #expect(names.count == 1 + SongCodec.slots.count + 1, "id + the bitmaps' fields + path: \(names)")
        #expect(names.count == SongField.allCases.count + 1)
    }

    @Test func randomSongsRoundTripExactly() throws {
        for seed in Seeds.list(50, from: 1) {
            var rng = SplitMix64(seed: seed)
            let songs = (0..<Int.random(in: 0...40, using: &rng)).map { _ in rng.song() }
            let decoded = try SongCodec.decode(SongCodec.encode(songs))
            #expect(decoded.count == songs.count, "seed \(seed)")
            for (a, b) in zip(songs, decoded) {
                #expect(a.withoutDoubles == b.withoutDoubles, "seed \(seed)")
                #expect(a.doubleBits == b.doubleBits, "seed \(seed)")
            }
        }
    }

    @Test func emptyAndDefaultSongs() throws {
        #expect(try SongCodec.decode(SongCodec.encode([Song]())) == [])
        let bare = Song(id: SongID(UUID()), path: "")
        #expect(try SongCodec.decode(SongCodec.encode([bare])) == [bare])
        // Present-but-empty values are not absent ones.
        var empties = bare
        empties.title = ""
        empties.album = ""
        empties.artists = [""]
        empties.tags = [""]
        empties.added = -0.0
        let back = try SongCodec.decode(SongCodec.encode([empties]))
        #expect(back == [empties])
        #expect(back[0].added.sign == .minus)
    }

    /// The ARTIST credit kept beside the ARTISTS list (issue 9, 2.14) comes back as it was, shared
    /// between the songs that have it, and a song without one has none.
    @Test func artistCreditRoundTrips() throws {
        var credited = Song(id: SongID(UUID()), path: "/music/a.flac")
        credited.artists = ["A", "B"]
        credited.artistCredit = "A feat. B"
        var again = Song(id: SongID(UUID()), path: "/music/b.flac")
        again.artists = ["A", "B"]
        again.artistCredit = "A feat. B"
        var plain = Song(id: SongID(UUID()), path: "/music/c.flac")
        plain.artists = ["A", "B"]
        let songs = [credited, again, plain]
        let bytes = SongCodec.encode(songs)
        let back = try SongCodec.decode(bytes)
        #expect(back == songs)
        #expect(back.map(\.artist) == ["A feat. B", "A feat. B", "A; B"])
        // Written once in the string table, referenced by both songs: fewer bytes than two copies.
        let uncredited = [credited, again].map { var s = $0; s.artistCredit = nil; return s } + [plain]
        #expect(bytes.count - SongCodec.encode(uncredited).count < 2 * (1 + "A feat. B".utf8.count))
        // Blobs of the version before credits are another format: never misread.
        var old = bytes
        old[0] = 4
        #expect(throws: StoreError.self) { try SongCodec.decode(old) }
    }

    @Test func everyTruncationIsAnError() throws {
        var rng = SplitMix64(seed: 99)
        let bytes = SongCodec.encode((0..<4).map { _ in rng.song() })
        for n in 0..<bytes.count {
            #expect(throws: StoreError.self) { try SongCodec.decode(Array(bytes[0..<n])) }
        }
        #expect(throws: StoreError.self) { try SongCodec.decode(bytes + [0]) }
    }

    /// Damaged bytes either decode to something or throw; they never trap or read out of bounds.
    @Test func corruptBytesNeverCrash() throws {
        var rng = SplitMix64(seed: 5)
        let bytes = SongCodec.encode((0..<6).map { _ in rng.song() })
        for _ in 0..<3000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                damaged[Int.random(in: 0..<damaged.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            _ = try? SongCodec.decode(damaged)
        }
        for _ in 0..<500 {
            let junk = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = try? SongCodec.decode([SongCodec.version] + junk)
        }
        #expect(throws: StoreError.self) { try SongCodec.decode([2, 0, 0]) }
        // A count that claims more songs than the bytes could hold fails before allocating.
        #expect(throws: StoreError.self) { try SongCodec.decode([SongCodec.version, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 1]) }
        // Chunks that claim more songs or bytes than there are, or fewer songs than the total.
        #expect(throws: StoreError.self) { try SongCodec.decode([SongCodec.version, 0, 1, 1, 0]) }
        #expect(throws: StoreError.self) { try SongCodec.decode([SongCodec.version, 0, 1, 0, 9]) }
        #expect(throws: StoreError.self) { try SongCodec.decode([SongCodec.version, 1] + [UInt8](repeating: 0, count: 30)) }
        #expect(try SongCodec.decode([SongCodec.version, 0, 1, 0, 2, 0, 0]) == [])
    }

    /// Songs in several chunks (decoded on several threads) come back in order, exactly.
    @Test func chunkedSongsRoundTripInOrder() throws {
        for (seed, n, perChunk) in [(UInt64(1), 40, 3), (2, 17, 2), (3, 9, 1), (4, 100, 40), (5, 5, 8)] {
            var rng = SplitMix64(seed: seed)
            let songs = (0..<n).map { _ in rng.song() }
            let bytes = Self.encode(songs, songsPerChunk: perChunk)
            let decoded = try SongCodec.decode(bytes)
            #expect(decoded.count == n, "seed \(seed)")
            for (a, b) in zip(songs, decoded) {
                #expect(a.id == b.id && a.withoutDoubles == b.withoutDoubles && a.doubleBits == b.doubleBits, "seed \(seed)")
            }
        }
        #expect(SongCodec.chunkCount(50_000) == 6)
        #expect(SongCodec.chunkCount(8_191) == 1)
        #expect(SongCodec.chunkCount(10_000_000) == SongCodec.maxChunks)
    }

    /// Truncated or damaged chunked data (headers, tables, one chunk of several failing while the
    /// others decode) throws or decodes; it never traps, leaks a half-made result or reads past the end.
    @Test func damagedChunksNeverCrash() throws {
        var rng = SplitMix64(seed: 23)
        let bytes = Self.encode((0..<12).map { _ in rng.song() }, songsPerChunk: 3)
        for n in 0..<bytes.count {
            #expect(throws: StoreError.self) { try SongCodec.decode(Array(bytes[0..<n])) }
        }
        for _ in 0..<3000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                // Half the hits land in the header, where the chunk counts and lengths are.
                let at = Bool.random(using: &rng) ? Int.random(in: 0..<min(12, damaged.count), using: &rng)
                    : Int.random(in: 0..<damaged.count, using: &rng)
                damaged[at] = UInt8.random(in: 0...255, using: &rng)
            }
            _ = try? SongCodec.decode(damaged)
        }
    }

    static func encode(_ songs: [Song], songsPerChunk: Int) -> [UInt8] {
        var w = ByteWriter()
        SongCodec.encode(songs, into: &w, songsPerChunk: songsPerChunk)
        return w.bytes
    }

    /// The bulk constructor that opening uses gives the same basis as `init(songs:)`, duplicate
    /// ids included (the later wins), so a checkpoint that decodes to them cannot trap.
    @Test func bulkBasisEqualsTheGeneralOne() throws {
        var rng = SplitMix64(seed: 17)
        let songs = (0..<300).map { _ in rng.song() }
        let decoded = try SongCodec.decode(SongCodec.encode(songs))
        #expect(DataBasis(uniqueSongs: decoded) == DataBasis(songs: decoded))
        #expect(DataBasis(uniqueSongs: decoded).songs.count == 300)
        var dup = decoded[7]
        dup.title = "the later one"
        let withDuplicate = decoded + [dup]
        #expect(DataBasis(uniqueSongs: withDuplicate) == DataBasis(songs: withDuplicate))
        #expect(DataBasis(uniqueSongs: withDuplicate)[dup.id]?.title == "the later one")
        #expect(DataBasis(uniqueSongs: []) == DataBasis())
    }

    @Test func byteReaderRejectsOverlongVarints() throws {
        let bytes: [UInt8] = Array(repeating: 0xFF, count: 10) + [0x01]
        bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            #expect(throws: StoreError.self) { try r.varint() }
        }
        var w = ByteWriter()
        for v in [Int.min, Int.max, 0, -1, 1, 63, -64, 64] { w.int(v) }
        w.varint(.max)
        try w.bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws in
            var r = ByteReader(raw)
            for v in [Int.min, Int.max, 0, -1, 1, 63, -64, 64] { #expect(try r.int() == v) }
            #expect(try r.varint() == .max)
            #expect(r.isAtEnd)
        }
    }
}

extension Song {
    /// The song with its doubles cleared: `==` on doubles cannot see -0.0 or NaN payloads.
    var withoutDoubles: Song {
        var s = self
        s.added = 0
        s.replaygainTrackGain = nil; s.replaygainTrackPeak = nil
        s.replaygainAlbumGain = nil; s.replaygainAlbumPeak = nil
        s.duration = nil
        s.lastplayed = nil; s.bookmark = nil; s.bookmarkSpeed = nil
        return s
    }

    var doubleBits: [UInt64?] {
        [added, replaygainTrackGain, replaygainTrackPeak, replaygainAlbumGain, replaygainAlbumPeak, duration,
         lastplayed, bookmark, bookmarkSpeed]
            .map { $0?.bitPattern }
    }
}

extension SplitMix64 {
    mutating func string() -> String {
        let pool = ["", "a", "Ünïcödé", "東京", "🎷🎺", "Miles Davis", "AC/DC", "a\u{0}b", "e\u{301}", "x\ny",
                    String(repeating: "long ", count: 40)]
        return pool.randomElement(using: &self)!
    }

    mutating func maybe<V>(_ make: (inout SplitMix64) -> V) -> V? {
        Bool.random(using: &self) ? make(&self) : nil
    }

    mutating func extremeInt() -> Int {
        [0, 1, -1, 7, 1969, Int.max, Int.min, Int(Int32.max) + 1, Int.random(in: .min ... .max, using: &self)]
            .randomElement(using: &self)!
    }

    mutating func extremeDouble() -> Double {
        [0, -0.0, 1.5, -7.25, .infinity, -.infinity, .nan, Double(bitPattern: 0x7FF8_0000_0000_BEEF),
         .leastNonzeroMagnitude, .greatestFiniteMagnitude, Double(bitPattern: next())].randomElement(using: &self)!
    }

    mutating func song() -> Song {
        var s = Song(id: SongID(uuid()), path: "/music/" + string())
        s.size = extremeInt()
        s.mtime = extremeInt()
        s.fingerprint = maybe { $0.string() }
        s.missing = Bool.random(using: &self)
        s.added = extremeDouble()
        s.title = maybe { $0.string() }
        s.artists = (0..<Int.random(in: 0...3, using: &self)).map { _ in string() }
        s.artistCredit = maybe { $0.string() }
        s.album = maybe { $0.string() }
        s.albumartist = maybe { $0.string() }
        s.track = maybe { $0.extremeInt() }
        s.tracktotal = maybe { $0.extremeInt() }
        s.disc = maybe { $0.extremeInt() }
        s.disctotal = maybe { $0.extremeInt() }
        s.year = maybe { $0.extremeInt() }
        s.date = maybe { $0.string() }
        s.genre = maybe { $0.string() }
        s.composer = maybe { $0.string() }
        s.compilation = Bool.random(using: &self)
        s.comment = maybe { $0.string() }
        s.replaygainTrackGain = maybe { $0.extremeDouble() }
        s.replaygainTrackPeak = maybe { $0.extremeDouble() }
        s.replaygainAlbumGain = maybe { $0.extremeDouble() }
        s.replaygainAlbumPeak = maybe { $0.extremeDouble() }
        s.mbTrackID = maybe { $0.string() }
        s.mbAlbumID = maybe { $0.string() }
        s.mbArtistID = maybe { $0.string() }
        s.mbAlbumArtistID = maybe { $0.string() }
        s.mbReleaseGroupID = maybe { $0.string() }
        s.duration = maybe { $0.extremeDouble() }
        s.samplerate = maybe { $0.extremeInt() }
        s.bitdepth = maybe { $0.extremeInt() }
        s.channels = maybe { $0.extremeInt() }
        s.bitrate = maybe { $0.extremeInt() }
        s.format = maybe { $0.string() }
        s.tags = (0..<Int.random(in: 0...3, using: &self)).map { _ in string() }
        s.rating = maybe { $0.extremeInt() }
        s.playcount = extremeInt()
        s.favorite = Bool.random(using: &self)
        s.art = maybe { $0.string() }
        s.fileValues = (0..<Int.random(in: 0...2, using: &self)).map { _ in "genre=" + string() }
        s.userFields = Song.normalizedUserFields((0..<Int.random(in: 0...3, using: &self)).map { i in "f\(i)=" + string() })
        s.skipcount = extremeInt()
        s.lastplayed = maybe { $0.extremeDouble() }
        s.bookmark = maybe { $0.extremeDouble() }
        s.bookmarkSpeed = maybe { $0.extremeDouble() }
        s.artistSort = maybe { $0.string() }
        s.albumartistSort = maybe { $0.string() }
        s.albumSort = maybe { $0.string() }
        s.performer = maybe { $0.string() }
        s.conductor = maybe { $0.string() }
        s.label = maybe { $0.string() }
        s.originalDate = maybe { $0.string() }
        s.composerSort = maybe { $0.string() }
        s.work = maybe { $0.string() }
        s.movement = maybe { $0.string() }
        s.movementNumber = maybe { $0.extremeInt() }
        s.movementTotal = maybe { $0.extremeInt() }
        s.grouping = maybe { $0.string() }
        s.mbReleaseTrackID = maybe { $0.string() }
        s.mbWorkID = maybe { $0.string() }
        s.ensemble = maybe { $0.string() }
        s.location = maybe { $0.string() }
        s.start = maybe { $0.extremeInt() }
        s.end = maybe { $0.extremeInt() }
        s.sheet = maybe { $0.string() }
        s.stickers = Song.normalizedStickers((0..<Int.random(in: 0...2, using: &self)).map { i in "Name\(i)=" + string() })
        s.guessed = Array(["title", "track", "disc", "album"].shuffled(using: &self).prefix(Int.random(in: 0...3, using: &self))).sorted()
        return s
    }
}
