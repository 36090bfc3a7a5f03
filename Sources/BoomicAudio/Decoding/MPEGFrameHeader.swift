/// The four bytes that start an MPEG audio frame, parsed: enough to know where the next frame
/// starts, and whether a frame belongs to the same stream as the first (a damaged header, or
/// bytes in a frame's data that happen to look like one, mostly do not).
struct MPEGFrameHeader: Equatable {
    /// 1 = MPEG-1, 2 = MPEG-2, 25 = MPEG-2.5.
    let version: Int
    let layer: Int
    let sampleRate: Int
    let isMono: Bool
    /// The whole frame, header included, in bytes.
    let length: Int

    /// Nil when the bytes are no header, a reserved value is set, or the bit rate is "free"
    /// (the length is then not in the header).
    init?(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        let versionBits = Int(b1 >> 3) & 3, layerBits = Int(b1 >> 1) & 3
        let bitrateIndex = Int(b2 >> 4), rateIndex = Int(b2 >> 2) & 3
        guard versionBits != 1, layerBits != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3, b3 & 3 != 2 else { return nil }
        version = [25, 0, 2, 1][versionBits]
        layer = 4 - layerBits
        let rates = [44_100, 48_000, 32_000]
        sampleRate = rates[rateIndex] / (version == 1 ? 1 : version == 2 ? 2 : 4)
        isMono = b3 >> 6 == 3
        let kbps = Self.bitrates[version == 1 ? layer - 1 : layer == 1 ? 3 : 4][bitrateIndex]
        let padding = Int(b2 >> 1) & 1
        let bitrate = kbps * 1000
        switch layer {
        case 1: length = (12 * bitrate / sampleRate + padding) * 4
        case 3 where version != 1: length = 72 * bitrate / sampleRate + padding
        default: length = 144 * bitrate / sampleRate + padding
        }
    }

    /// Another frame of the same stream: the same version, layer, rate and channel count.
    func matches(_ other: MPEGFrameHeader) -> Bool {
        version == other.version && layer == other.layer && sampleRate == other.sampleRate && isMono == other.isMono
    }

    /// Kbit/s by index: MPEG-1 layers I, II, III; MPEG-2/2.5 layer I; MPEG-2/2.5 layers II, III.
    private static let bitrates: [[Int]] = [
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    ]
}
