/// Finds where a file's audio bytes are, so that a fingerprint never covers tags.
///
/// Each container keeps its tags somewhere else: ID3v2 ahead of MP3 frames and ID3v1/APE after
/// them, FLAC metadata blocks ahead of the frames, WAV/AIFF chunks beside the `data`/`SSND` chunk,
/// MP4 `moov` beside `mdat`, Ogg comment packets in the header pages. Only headers are read, a few
/// bytes at a time, through `read`; nothing here touches the file system, so tests feed it arrays.
enum AudioRange {
    /// Reads up to `count` bytes at `offset` (fewer at the end of the file).
    typealias Reader = (_ offset: Int64, _ count: Int) -> [UInt8]

    /// The audio bytes of a file of `length` bytes in `format`. `mpegRange` is TagLib's frame
    /// range for MP3. Falls back to the file minus leading ID3v2 and trailing ID3v1/APE tags, and
    /// to the whole file when even that is empty.
    static func locate(format: AudioFormat?, length: Int64, mpegRange: Range<Int64>?,
                       read: Reader) -> Range<Int64> {
        let found: Range<Int64>?
        switch format {
        case .mp3: found = mpegRange
        case .flac: found = flac(length: length, read: read)
        case .wav: found = riffChunk("data", length: length, read: read)
        case .aiff: found = aiffChunk(length: length, read: read)
        case .m4a: found = mp4Atom("mdat", length: length, read: read)
        case .some(let f) where f.isOgg: found = oggAudio(length: length, read: read)
        default: found = nil
        }
        let whole: Range<Int64> = 0..<max(0, length)
        if let r = found?.clamped(to: whole), !r.isEmpty { return r }
        let stripped = withoutGenericTags(length: length, read: read).clamped(to: whole)
        return stripped.isEmpty ? whole : stripped
    }

    // MARK: - Containers

    /// After the `fLaC` marker and the last metadata block (used when STREAMINFO has no MD5).
    static func flac(length: Int64, read: Reader) -> Range<Int64>? {
        var offset = id3v2Size(read: read)
        guard read(offset, 4) == Array("fLaC".utf8) else { return nil }
        offset += 4
        for _ in 0..<1024 {
            let h = read(offset, 4)
            guard h.count == 4 else { return nil }
            let size = Int64(h[1]) << 16 | Int64(h[2]) << 8 | Int64(h[3])
            offset += 4 + size
            if h[0] & 0x80 != 0 { return offset < length ? offset..<length : nil }
        }
        return nil
    }

    /// The body of the first chunk `id` of a RIFF (WAV) file.
    static func riffChunk(_ id: String, length: Int64, read: Reader) -> Range<Int64>? {
        let header = read(0, 12)
        guard header.count == 12, header[0..<4].elementsEqual("RIFF".utf8) else { return nil }
        return chunk(id, from: 12, length: length, bigEndian: false, read: read)
    }

    /// The body of the `SSND` chunk of an AIFF or AIFF-C file.
    static func aiffChunk(length: Int64, read: Reader) -> Range<Int64>? {
        let header = read(0, 12)
        guard header.count == 12, header[0..<4].elementsEqual("FORM".utf8) else { return nil }
        return chunk("SSND", from: 12, length: length, bigEndian: true, read: read)
    }

    private static func chunk(_ id: String, from start: Int64, length: Int64, bigEndian: Bool,
                              read: Reader) -> Range<Int64>? {
        let wanted = Array(id.utf8)
        var offset = start
        for _ in 0..<4096 {
            let h = read(offset, 8)
            guard h.count == 8 else { return nil }
            let size = bigEndian ? Int64(be32(h, 4)) : Int64(le32(h, 4))
            let body = offset + 8
            if Array(h[0..<4]) == wanted {
                // Streamed WAVs leave the size 0 or 0xFFFFFFFF: the data runs to the end.
                let end = (size == 0 || size == 0xFFFF_FFFF) ? length : min(length, body + size)
                return body..<end
            }
            offset = body + size + (size & 1)
            if offset >= length { return nil }
        }
        return nil
    }

    /// The body of the first top-level MP4 atom `type` (the audio lives in `mdat`).
    static func mp4Atom(_ type: String, length: Int64, read: Reader) -> Range<Int64>? {
        let wanted = Array(type.utf8)
        var offset: Int64 = 0
        for _ in 0..<1024 {
            let h = read(offset, 16)
            guard h.count >= 8 else { return nil }
            var size = Int64(be32(h, 0))
            var headerSize: Int64 = 8
            if size == 1 {
                guard h.count == 16 else { return nil }
                size = Int64(bitPattern: UInt64(be32(h, 8)) << 32 | UInt64(be32(h, 12)))
                headerSize = 16
            } else if size == 0 {
                size = length - offset
            }
            guard size >= headerSize else { return nil }
            // A truncated file can claim an atom larger than what is left: clamp, never overflow.
            let end = size > length - offset ? length : offset + size
            if Array(h[4..<8]) == wanted { return (offset + headerSize)..<end }
            offset = end
            if offset >= length { return nil }
        }
        return nil
    }

    /// From the first Ogg page that ends an audio packet. Header pages (identification, comments,
    /// setup) have granule position 0, or -1 while a long comment packet continues.
    static func oggAudio(length: Int64, read: Reader) -> Range<Int64>? {
        var offset: Int64 = 0
        for _ in 0..<8192 {
            let h = read(offset, 27 + 255)
            guard h.count >= 27, h[0..<4].elementsEqual("OggS".utf8) else { return nil }
            let segments = Int(h[26])
            guard h.count >= 27 + segments else { return nil }
            let body = h[27..<(27 + segments)].reduce(0) { $0 + Int64($1) }
            let granule = UInt64(le32(h, 6)) | UInt64(le32(h, 10)) << 32
            if granule != 0 && granule != UInt64.max { return offset..<length }
            offset += 27 + Int64(segments) + body
            if offset >= length { return nil }
        }
        return nil
    }

    /// The file without a leading ID3v2 tag and trailing ID3v1 and APEv2 tags: how APE, WavPack,
    /// Musepack and damaged files keep their tags.
    static func withoutGenericTags(length: Int64, read: Reader) -> Range<Int64> {
        let start = id3v2Size(read: read)
        var end = length
        if end - 128 >= start, read(end - 128, 3) == Array("TAG".utf8) { end -= 128 }
        if end - 32 >= start {
            let footer = read(end - 32, 32)
            if footer.count == 32, footer[0..<8].elementsEqual("APETAGEX".utf8) {
                let size = Int64(le32(footer, 12))
                let hasHeader = le32(footer, 20) & 0x8000_0000 != 0
                end -= size + (hasHeader ? 32 : 0)
            }
        }
        return start < end ? start..<end : 0..<0
    }

    /// The size of an ID3v2 tag at the start of the file (header and footer included), else 0.
    static func id3v2Size(read: Reader) -> Int64 {
        let h = read(0, 10)
        guard h.count == 10, h[0..<3].elementsEqual("ID3".utf8),
              h[6] < 0x80, h[7] < 0x80, h[8] < 0x80, h[9] < 0x80 else { return 0 }
        let size = Int64(h[6]) << 21 | Int64(h[7]) << 14 | Int64(h[8]) << 7 | Int64(h[9])
        return 10 + size + (h[5] & 0x10 != 0 ? 10 : 0)
    }

    // MARK: - Bytes

    private static func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }

    private static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }
}
