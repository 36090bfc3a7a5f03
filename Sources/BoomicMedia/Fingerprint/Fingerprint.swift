import BoomicCore
/// The audio fingerprint a rescan uses to recognise a moved or renamed file (DESIGN §1).
///
/// FLAC files carry an MD5 of their decoded audio in STREAMINFO; that is the fingerprint (32 hex
/// digits). Every other file gets the XXH64 (16 hex digits) of a bounded sample of its audio bytes:
/// the length of the audio range, then `window` bytes at its start, middle and end. Tags are never
/// inside the sample (`AudioRange`), so retagging a file keeps its fingerprint, while the three
/// windows tell apart recordings that share a silent intro or a length.
///
/// Complexity: at most three reads of `window` bytes, however large the file.
public enum Fingerprint {
    /// Bytes hashed per window. Three windows of 8 KiB keep a fingerprint under ~10 µs.
    public static let defaultWindow = 8 * 1024

    /// The fingerprint of an open file, or nil if its audio bytes cannot be read.
    public static func of(_ file: TagFile, window: Int = defaultWindow) -> String? {
        // Small header reads are cheap: the shim's read-only stream serves them from one block.
        let read: AudioRange.Reader = { file.read(at: $0, count: $1) }
        if let md5 = file.flacMD5 { return hexString(md5) }
        let format = file.format
        let range = AudioRange.locate(format: format, length: file.length, mpegRange: file.mpegAudioRange,
                                      read: read)
        let sample = sample(of: range, window: window, isOgg: format?.isOgg ?? false, read: read)
        return sample.map { XXH64.hex($0) }
    }

    /// The bytes that get hashed: the range's length (8 bytes, little-endian), then the whole
    /// range if it fits in three windows, else a window at its start, middle and end.
    static func sample(of range: Range<Int64>, window: Int, isOgg: Bool,
                       read: AudioRange.Reader) -> [UInt8]? {
        guard !range.isEmpty, window > 0 else { return nil }
        let count = range.upperBound - range.lowerBound
        var out = withUnsafeBytes(of: count.littleEndian) { Array($0) }
        let w = Int64(window)
        let starts: [Int64] = count <= 3 * w
            ? [range.lowerBound]
            : [range.lowerBound, range.lowerBound + (count - w) / 2, range.upperBound - w]
        let size = count <= 3 * w ? Int(count) : window
        for start in starts {
            guard let bytes = windowBytes(at: start, count: size, isOgg: isOgg, read: read) else {
                return nil
            }
            out.append(contentsOf: bytes)
        }
        return out
    }

    /// `count` bytes at `start`. For Ogg, page headers' sequence numbers and CRCs are zeroed:
    /// a tagger renumbers every later page when the comment header grows by a page.
    private static func windowBytes(at start: Int64, count: Int, isOgg: Bool,
                                    read: AudioRange.Reader) -> [UInt8]? {
        guard isOgg else {
            let bytes = read(start, count)
            return bytes.count == count ? bytes : nil
        }
        // Read a little before the window so a header cut by its start is still recognised.
        let lead = Int(min(start, 26))
        var bytes = read(start - Int64(lead), lead + count)
        guard bytes.count == lead + count else { return nil }
        var i = 0
        while i + 5 <= bytes.count {
            if bytes[i] == 0x4F, bytes[i + 1] == 0x67, bytes[i + 2] == 0x67, bytes[i + 3] == 0x53,
               bytes[i + 4] == 0 {
                var j = i + 18
                while j < min(i + 26, bytes.count) {
                    bytes[j] = 0
                    j += 1
                }
                i += 27
            } else {
                i += 1
            }
        }
        return Array(bytes[lead...])
    }
}
