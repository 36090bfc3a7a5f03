import Foundation

/// Finds the samples in an AIFF or AIFF-C file: `COMM` (channels, frames, width, the rate as an
/// 80-bit float; in AIFC also the compression type) and the `SSND` chunk's data.
///
/// AIFF samples are big-endian two's complement (8-bit ones too, unlike WAV's). Of AIFC's types
/// the uncompressed ones play: `NONE`/`twos` (big-endian), `sowt` (little-endian, what macOS
/// writes), `in24`/`in32`, `raw ` (unsigned 8-bit), and `fl32`/`fl64` float.
enum AIFFHeader {
    static func parse(_ file: ChunkReader) throws(AudioError) -> PCMLayout {
        let path = file.file.path
        func bytes(_ offset: Int, _ count: Int) throws(AudioError) -> [UInt8] {
            do { return try file.bytes(at: offset, count: count) } catch { throw AudioError(path: path, reason: "cannot read: \(error.reason)") }
        }
        let form = try bytes(0, 12)
        guard form.count == 12, form.fourCC(0) == "FORM", ["AIFF", "AIFC"].contains(form.fourCC(8)) else {
            throw AudioError(path: path, reason: "not an AIFF file (no FORM AIFF header)")
        }
        let isAIFC = form.fourCC(8) == "AIFC"
        var layout: PCMLayout?
        var declaredFrames = 0
        var sound: (offset: Int, bytes: Int?)?
        var at = 12
        while at + 8 <= file.size, layout == nil || sound == nil {
            let head = try bytes(at, 8)
            let id = head.fourCC(0), size = head.be32(4)
            if id == "COMM" {
                let c = try bytes(at + 8, min(size, 64))
                (layout, declaredFrames) = try comm(c, aifc: isAIFC, path: path)
            } else if id == "SSND" {
                let s = try bytes(at + 8, 8)
                guard s.count == 8 else { break }
                let skip = s.be32(0)
                sound = (at + 16 + skip, size >= 8 + skip ? size - 8 - skip : nil)
            }
            at += 8 + size + (size & 1)
        }
        guard var layout else { throw AudioError(path: path, reason: "not an AIFF file (no COMM chunk)") }
        guard let sound else { throw AudioError(path: path, reason: "no SSND chunk: the file is cut short") }
        layout.dataOffset = sound.offset
        // COMM's frame count is the length; SSND's size may include padding to a block size.
        let fromFrames = declaredFrames * layout.frameBytes
        layout.declaredBytes = sound.bytes.map { min($0, fromFrames) } ?? fromFrames
        return layout
    }

    private static func comm(_ c: [UInt8], aifc: Bool, path: String) throws(AudioError) -> (PCMLayout, Int) {
        guard c.count >= 18 else { throw AudioError(path: path, reason: "damaged AIFF header (COMM chunk of \(c.count) bytes)") }
        let channels = c.be16(0), frames = c.be32(2), bits = c.be16(6)
        let rate = Int(extended(Array(c[8..<18])).rounded())
        var encoding = PCMLayout.Encoding.signed, bigEndian = true, container = (bits + 7) / 8
        if aifc {
            guard c.count >= 22 else { throw AudioError(path: path, reason: "damaged AIFF-C header (no compression type)") }
            switch c.fourCC(18) {
            case "NONE", "twos": break
            case "sowt": bigEndian = false
            case "in24": container = 3
            case "in32": container = 4
            case "raw ": encoding = .unsigned
            case "fl32", "FL32": encoding = .float; container = 4
            case "fl64", "FL64": encoding = .float; container = 8
            case let type: throw AudioError(path: path, reason: "AIFF-C compression '\(type)' is not supported; only uncompressed AIFF plays")
            }
        }
        let layout = PCMLayout(sampleRate: rate, channels: channels, containerBytes: container,
                               validBits: encoding == .float ? container * 8 : min(bits, container * 8),
                               encoding: encoding, bigEndian: bigEndian, dataOffset: 0, declaredBytes: nil)
        if let problem = layout.problem() { throw AudioError(path: path, reason: "unsupported AIFF file (\(problem))") }
        return (layout, frames)
    }

    /// An IEEE 754 80-bit extended float (big-endian): sign and 15-bit exponent, then a 64-bit
    /// mantissa with its integer bit explicit.
    static func extended(_ b: [UInt8]) -> Double {
        let exponent = (Int(b[0] & 0x7F) << 8) | Int(b[1])
        var mantissa: UInt64 = 0
        for i in 2..<10 { mantissa = mantissa << 8 | UInt64(b[i]) }
        if exponent == 0 && mantissa == 0 { return 0 }
        let value = Double(mantissa) * pow(2, Double(exponent - 16383 - 63))
        return b[0] & 0x80 != 0 ? -value : value
    }
}
