import Glibc

/// The length iTunes writes into an M4A's `iTunSMPB` tag (`----:com.apple.iTunes:iTunSMPB`,
/// text ` 00000000 00000840 000001CA 00000000003F31F6 …`: zero, encoder delay, padding, samples,
/// in hex). FFmpeg reads only the delay from it (it trims the start), so an iTunes file without
/// an edit list would play its last frame's padding; the sample count says where the music ends.
struct ITunesGapless: Equatable {
    var delay: Int
    var padding: Int
    var samples: Int

    /// Reads the tag from the file's `moov` box, wherever it sits; nil when there is none.
    init?(file: InputFile) {
        var offset: Int64 = 0
        while true {
            var header = file.bytes(at: offset, count: 8)
            guard header.count == 8 else { return nil }
            var size = Self.uint32(header, 0)
            var headerSize = 8
            if size == 1 {
                let large = file.bytes(at: offset + 8, count: 8)
                guard large.count == 8 else { return nil }
                header += large
                size = Self.uint32(header, 8) << 32 | Self.uint32(header, 12)
                headerSize = 16
            } else if size == 0 {
                return nil
            }
            guard size >= headerSize else { return nil }
            if String(decoding: header[4..<8], as: UTF8.self) == "moov" {
                // A moov box holds the sample tables: tens of MB for a long file at most.
                let length = min(size - headerSize, 1 << 26)
                let moov = file.bytes(at: offset + Int64(headerSize), count: length)
                guard moov.count == length else { return nil }
                self.init(moov: moov)
                return
            }
            offset += Int64(size)
        }
    }

    /// Finds the tag's `data` box after its name inside a `moov` box's bytes.
    init?(moov: [UInt8]) {
        let name = Array("iTunSMPB".utf8), data = Array("data".utf8)
        guard let at = Self.find(name, in: moov, from: 0),
              let box = Self.find(data, in: moov, from: at + name.count), box - at < 64, box >= 4 else { return nil }
        let size = Self.uint32(moov, box - 4)
        let start = box + 12, end = box - 4 + size
        guard size >= 16, end <= moov.count else { return nil }
        let fields = String(decoding: moov[start..<end], as: UTF8.self).split(separator: " ").compactMap { Int($0, radix: 16) }
        guard fields.count >= 4, fields[3] > 0 else { return nil }
        delay = fields[1]
        padding = fields[2]
        samples = fields[3]
    }

    private static func uint32(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }

    private static func find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Int? {
        guard hay.count >= needle.count, from <= hay.count - needle.count else { return nil }
        var i = from
        while i <= hay.count - needle.count {
            if hay[i] == needle[0] && Array(hay[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }
}
