/// Cheap checks for damage TagLib does not notice.
///
/// TagLib trusts a FLAC file's STREAMINFO, so a FLAC cut off after its header reads as a valid
/// file of the full length. Decoding would find it, but a scan must not decode. These checks read
/// a few header bytes and only reject what is certainly broken: they never refuse a file a
/// decoder would play in full.
enum StreamCheck {
    /// Why the audio stream is certainly damaged, or nil when nothing is known to be wrong.
    static func problem(format: AudioFormat?, length: Int64, read: AudioRange.Reader) -> String? {
        switch format {
        case .flac: return flacProblem(length: length, read: read)
        default: return nil
        }
    }

    /// A FLAC stream must start with a frame right after its metadata, and since every frame is
    /// at least STREAMINFO's minimum frame size, the audio can be no shorter than
    /// (number of frames) × (minimum frame size).
    static func flacProblem(length: Int64, read: AudioRange.Reader) -> String? {
        let start = AudioRange.id3v2Size(read: read)
        let head = read(start, 4 + 4 + 34)
        guard head.count == 42, head[0..<4].elementsEqual("fLaC".utf8), head[4] & 0x7F == 0 else {
            return nil // TagLib accepted it; nothing more to say without STREAMINFO
        }
        let info = Array(head[8...])
        let minBlock = Int64(info[0]) << 8 | Int64(info[1])
        let maxBlock = Int64(info[2]) << 8 | Int64(info[3])
        let minFrame = Int64(info[4]) << 16 | Int64(info[5]) << 8 | Int64(info[6])
        let totalSamples = Int64(info[13] & 0x0F) << 32 | Int64(info[14]) << 24 | Int64(info[15]) << 16
            | Int64(info[16]) << 8 | Int64(info[17])

        guard let audio = AudioRange.flac(length: length, read: read) else {
            return totalSamples > 0 ? "truncated FLAC: the file ends before its first audio frame" : nil
        }
        let sync = read(audio.lowerBound, 2)
        guard sync.count == 2, sync[0] == 0xFF, sync[1] & 0xFE == 0xF8 else {
            return "damaged FLAC: no audio frame where the metadata ends"
        }
        // Fixed block size: every frame but the last holds exactly that many samples. Variable:
        // no frame holds more than the maximum. Either way this many frames at least.
        let perFrame = minBlock == maxBlock ? minBlock : maxBlock
        guard totalSamples > 0, perFrame > 0, minFrame > 0 else { return nil }
        let frames = (totalSamples + perFrame - 1) / perFrame
        let needed = frames * minFrame
        let present = audio.upperBound - audio.lowerBound
        if present < needed {
            return "truncated FLAC: \(present) bytes of audio where at least \(needed) are needed"
        }
        return nil
    }
}
