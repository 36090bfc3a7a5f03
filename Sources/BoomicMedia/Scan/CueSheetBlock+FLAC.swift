import BoomicCore

extension CueSheetBlock {
    /// The block type of `CUESHEET` in a FLAC's metadata.
    static let flacBlockType: UInt8 = 5

    /// The first `CUESHEET` block of a FLAC file, found by walking the metadata blocks' headers
    /// through `read` (the file TagLib already has open: no second open, and no block but this
    /// one is read whole, so a big picture costs nothing); nil when there is none or it is
    /// damaged. libFLAC and metaflac read the first such block too.
    static func inFLAC(length: Int64, read: AudioRange.Reader) -> CueSheetBlock? {
        var offset = AudioRange.id3v2Size(read: read)
        guard read(offset, 4) == Array("fLaC".utf8) else { return nil }
        offset += 4
        for _ in 0..<1024 {
            let h = read(offset, 4)
            guard h.count == 4 else { return nil }
            let size = Int(h[1]) << 16 | Int(h[2]) << 8 | Int(h[3])
            offset += 4
            if h[0] & 0x7F == flacBlockType {
                guard offset + Int64(size) <= length else { return nil }
                let body = read(offset, size)
                return body.count == size ? CueSheetBlock(body: body) : nil
            }
            offset += Int64(size)
            if h[0] & 0x80 != 0 { return nil }
        }
        return nil
    }
}
