/// How long an Ogg Vorbis or Opus file plays, from the granule position of its last page: for
/// files TagLib 1.13 gives no length, those whose audio all fits in the page after the headers
/// (a few seconds at most: interludes, jingles), where TagLib's first and last audio pages are
/// one. MPD shows those lengths; without one a client shows 0:00 and cannot seek.
enum OggDuration {
    /// The bytes searched for the last page, from the end: an Ogg page is at most 65,307 bytes.
    static let tail = 65_536 + 27

    /// Seconds, or nil when no page with a granule position is found.
    /// - Parameters:
    ///   - sampleRate: Vorbis's, from its header (Opus always counts at 48 kHz).
    ///   - read: bytes of the file at an offset.
    static func seconds(isOpus: Bool, sampleRate: Int?, length: Int64, read: (Int64, Int) -> [UInt8]) -> Double? {
        let start = max(0, length - Int64(tail))
        let bytes = read(start, Int(length - start))
        guard bytes.count >= 27 else { return nil }
        var at = bytes.count - 27
        var granule: Int64?
        while at >= 0 {
            if bytes[at] == 0x4F, bytes[at + 1] == 0x67, bytes[at + 2] == 0x67, bytes[at + 3] == 0x53, bytes[at + 4] == 0 {
                let g = (0..<8).reduce(Int64(0)) { $0 | Int64(bytes[at + 6 + $1]) << (8 * Int64($1)) }
                if g > 0 { granule = g; break }
            }
            at -= 1
        }
        guard let granule else { return nil }
        if isOpus {
            // OpusHead, in the first page: its pre-skip (samples to drop) at offset 10.
            let head = read(0, 512)
            guard let h = head.firstRange(of: Array("OpusHead".utf8))?.lowerBound, head.count >= h + 12 else { return nil }
            let preSkip = Int64(head[h + 10]) | Int64(head[h + 11]) << 8
            return granule > preSkip ? Double(granule - preSkip) / 48_000 : nil
        }
        guard let sampleRate, sampleRate > 0 else { return nil }
        return Double(granule) / Double(sampleRate)
    }
}
