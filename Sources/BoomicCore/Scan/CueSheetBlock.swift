/// A FLAC file's `CUESHEET` metadata block: where each track of a CD image starts, in samples.
///
/// The block is what `flac --cuesheet` and `metaflac --import-cuesheet-from` store: track numbers,
/// offsets and index points, ISRCs and the disc's catalog number, but no titles or performers
/// (those are in the sheet's text, the `CUESHEET` tag, when the ripper kept it). Offsets are
/// samples per channel from the start of the audio; an index's offset counts from its track's.
public struct CueSheetBlock: Hashable, Sendable, Codable {
    public struct Index: Hashable, Sendable, Codable {
        /// 0 is the pregap, 1 where the track starts, more are sub-indexes.
        public var number: Int
        /// Samples from the track's offset.
        public var offset: Int64

        public init(number: Int, offset: Int64) {
            self.number = number
            self.offset = offset
        }
    }

    public struct Track: Hashable, Sendable, Codable {
        /// 1–99 on a CD; the lead-out is 170 on a CD, 255 otherwise.
        public var number: Int
        /// Samples from the start of the audio.
        public var offset: Int64
        public var isrc: String?
        public var isAudio: Bool
        public var indexes: [Index]

        public init(number: Int, offset: Int64, isrc: String? = nil, isAudio: Bool = true, indexes: [Index]) {
            self.number = number
            self.offset = offset
            self.isrc = isrc
            self.isAudio = isAudio
            self.indexes = indexes
        }

        /// Where the track's own audio starts (its `INDEX 01`, else its first index, else its
        /// offset), in samples from the start of the audio.
        public var start: Int64 {
            offset + ((indexes.first(where: { $0.number == 1 }) ?? indexes.first)?.offset ?? 0)
        }
    }

    /// The disc's media catalog number (`CATALOG`); nil when blank.
    public var catalog: String?
    public var leadIn: Int64
    public var isCD: Bool
    /// The tracks in the block's order, the lead-out last.
    public var tracks: [Track]

    public init(catalog: String? = nil, leadIn: Int64 = 0, isCD: Bool, tracks: [Track]) {
        self.catalog = catalog
        self.leadIn = leadIn
        self.isCD = isCD
        self.tracks = tracks
    }

    /// The tracks without the lead-out.
    public var audioTracks: [Track] {
        tracks.filter { $0.number != 170 && $0.number != 255 }
    }

    /// The lead-out's offset: the number of samples the sheet covers.
    public var leadOut: Int64? {
        tracks.last.flatMap { $0.number == 170 || $0.number == 255 ? $0.offset : nil }
    }

    /// Parses a block's body (the bytes after its 4-byte header), as the FLAC format lays it
    /// out; nil when the body is shorter than its counts say.
    public init?(body: [UInt8]) {
        var at = 0
        func bytes(_ n: Int) -> ArraySlice<UInt8>? {
            guard n <= body.count - at else { return nil }
            defer { at += n }
            return body[at..<(at + n)]
        }
        func u64() -> Int64? {
            bytes(8).map { $0.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }.map { Int64(bitPattern: $0) }
        }
        func text(_ raw: ArraySlice<UInt8>) -> String? {
            let printable = raw.prefix { $0 != 0 }
            let s = String(decoding: printable, as: UTF8.self).trimmingSpaces
            return s.isEmpty ? nil : s
        }
        guard let catalogBytes = bytes(128), let leadIn = u64(), let flags = bytes(259), let count = bytes(1)?.first
        else { return nil }
        var tracks: [Track] = []
        for _ in 0..<Int(count) {
            guard let offset = u64(), let number = bytes(1)?.first, let isrc = bytes(12),
                  let trackFlags = bytes(14), let indexCount = bytes(1)?.first else { return nil }
            var indexes: [Index] = []
            for _ in 0..<Int(indexCount) {
                guard let indexOffset = u64(), let indexNumber = bytes(1)?.first, bytes(3) != nil else { return nil }
                indexes.append(Index(number: Int(indexNumber), offset: indexOffset))
            }
            tracks.append(Track(number: Int(number), offset: offset, isrc: text(isrc),
                                isAudio: trackFlags.first! & 0x80 == 0, indexes: indexes))
        }
        self.init(catalog: text(catalogBytes), leadIn: leadIn, isCD: flags.first! & 0x80 != 0, tracks: tracks)
    }
}

private extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
