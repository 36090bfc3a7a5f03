/// Finds the samples in a RIFF WAVE file: the `fmt ` chunk (PCM, IEEE float, or
/// WAVE_FORMAT_EXTENSIBLE with either subformat) and where the `data` chunk starts, walking the
/// chunks in between (each padded to an even size, whatever its own size says).
enum WAVHeader {
    static func parse(_ file: ChunkReader) throws(AudioError) -> PCMLayout {
        let path = file.file.path
        func bytes(_ offset: Int, _ count: Int) throws(AudioError) -> [UInt8] {
            do { return try file.bytes(at: offset, count: count) } catch { throw AudioError(path: path, reason: "cannot read: \(error.reason)") }
        }
        let riff = try bytes(0, 12)
        guard riff.count == 12, riff.fourCC(0) == "RIFF", riff.fourCC(8) == "WAVE" else {
            throw AudioError(path: path, reason: "not a WAV file (no RIFF WAVE header)")
        }
        var layout: PCMLayout?
        var at = 12
        while at + 8 <= file.size {
            let head = try bytes(at, 8)
            let id = head.fourCC(0), size = head.le32(4)
            if id == "fmt " {
                layout = try fmt(try bytes(at + 8, min(size, 64)), path: path)
            } else if id == "data" {
                guard var layout else { throw AudioError(path: path, reason: "not a WAV file (data before fmt)") }
                layout.dataOffset = at + 8
                // 0 and 0xFFFFFFFF: a writer that was cut off or streamed; the data runs to the end.
                layout.declaredBytes = size == 0 || size == 0xFFFF_FFFF ? nil : size
                return layout
            }
            at += 8 + size + (size & 1)
        }
        throw AudioError(path: path, reason: layout == nil ? "not a WAV file (no fmt chunk)" : "no data chunk: the file is cut short")
    }

    private static func fmt(_ f: [UInt8], path: String) throws(AudioError) -> PCMLayout {
        guard f.count >= 16 else { throw AudioError(path: path, reason: "damaged WAV header (fmt chunk of \(f.count) bytes)") }
        var tag = f.le16(0)
        let channels = f.le16(2), rate = f.le32(4), blockAlign = f.le16(12), bits = f.le16(14)
        var valid = bits
        if tag == 0xFFFE {
            guard f.count >= 40 else { throw AudioError(path: path, reason: "damaged WAV header (short WAVE_FORMAT_EXTENSIBLE)") }
            let v = f.le16(18)
            if v > 0 { valid = v }
            tag = f.le16(24) // the subformat GUID begins with the format tag
        }
        let container = channels > 0 ? blockAlign / channels : 0
        let encoding: PCMLayout.Encoding
        switch tag {
        case 1: encoding = container == 1 ? .unsigned : .signed
        case 3: encoding = .float
        default: throw AudioError(path: path, reason: "WAV format 0x\(String(tag, radix: 16)) is not PCM; only PCM and float WAV files play")
        }
        let layout = PCMLayout(sampleRate: rate, channels: channels, containerBytes: container, validBits: min(valid, container * 8),
                               encoding: encoding, bigEndian: false, dataOffset: 0, declaredBytes: nil)
        if let problem = layout.problem() { throw AudioError(path: path, reason: "unsupported WAV file (\(problem))") }
        return layout
    }
}
