/// Whether two files carry the same audio bytes, wherever their tags put them.
///
/// The check `TagWriter` runs before it replaces a file: the whole audio range (`AudioRange`) of
/// the rewritten copy must equal the original's, byte for byte. A fingerprint alone samples three
/// windows, and FLAC's is an MD5 kept in a metadata block that a tagger copies without looking at
/// the frames, so neither would notice a damaged frame. Ogg is the exception: a tagger whose
/// comment header needs one page more renumbers every later page, so there each page must match
/// with its sequence number and CRC left out.
///
/// Complexity: reads both audio ranges once, in blocks of `blockSize`.
enum AudioComparison {
    static let blockSize = 1 << 20

    /// Nil when the audio is the same; else why not, in words.
    static func difference(_ a: TagFile, _ b: TagFile) -> String? {
        guard a.format == b.format else { return "the format changed" }
        let ra = range(of: a), rb = range(of: b)
        guard ra.count == rb.count else {
            return "the audio stream is \(rb.count) bytes instead of \(ra.count)"
        }
        if a.format?.isOgg ?? false {
            return oggDifference(a, ra, b, rb)
        }
        let length = ra.upperBound - ra.lowerBound
        var offset: Int64 = 0
        while offset < length {
            let n = Int(min(Int64(blockSize), length - offset))
            let x = a.read(at: ra.lowerBound + offset, count: n)
            let y = b.read(at: rb.lowerBound + offset, count: n)
            guard x.count == n, y.count == n else { return "the audio stream could not be read back" }
            if x != y { return "the audio bytes differ near byte \(offset) of the stream" }
            offset += Int64(n)
        }
        return nil
    }

    static func range(of file: TagFile) -> Range<Int64> {
        AudioRange.locate(format: file.format, length: file.length, mpegRange: file.mpegAudioRange,
                          read: { file.read(at: $0, count: $1) })
    }

    /// Page by page: same headers but for the sequence number and CRC (bytes 18..<26), same
    /// segment tables, same bodies.
    private static func oggDifference(_ a: TagFile, _ ra: Range<Int64>,
                                      _ b: TagFile, _ rb: Range<Int64>) -> String? {
        var pa = ra.lowerBound, pb = rb.lowerBound
        while pa < ra.upperBound {
            guard let x = page(a, at: pa), let y = page(b, at: pb) else {
                return "an Ogg page could not be read back"
            }
            var hx = x.header, hy = y.header
            for i in 18..<26 { hx[i] = 0; hy[i] = 0 }
            if hx != hy || x.body != y.body { return "the Ogg page at byte \(pa - ra.lowerBound) of the stream differs" }
            pa += Int64(x.header.count + x.body.count)
            pb += Int64(y.header.count + y.body.count)
        }
        return pb == rb.upperBound ? nil : "the Ogg streams end differently"
    }

    private static func page(_ file: TagFile, at offset: Int64) -> (header: [UInt8], body: [UInt8])? {
        let fixed = file.read(at: offset, count: 27)
        guard fixed.count == 27, fixed[0..<4].elementsEqual("OggS".utf8) else { return nil }
        let segments = Int(fixed[26])
        let table = file.read(at: offset + 27, count: segments)
        guard table.count == segments else { return nil }
        let size = table.reduce(0) { $0 + Int($1) }
        let body = file.read(at: offset + 27 + Int64(segments), count: size)
        guard body.count == size else { return nil }
        return (fixed + table, body)
    }
}
