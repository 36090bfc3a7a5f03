/// What `boomic-ffmpeg encode` is asked for: the codec, its bit rate, and the shape of the PCM
/// that comes in on standard input (32-bit float, little-endian, interleaved).
struct EncodeOptions {
    enum Format: String {
        case opus, mp3

        /// FFmpeg's encoder: Debian's libavcodec59 has both (`ffmpeg -encoders`).
        var encoder: String { self == .opus ? "libopus" : "libmp3lame" }
        /// FFmpeg's muxer: Opus goes in Ogg pages, MP3 is its own stream of frames.
        var muxer: String { self == .opus ? "ogg" : "mp3" }
        /// The bit rates (kbit/s) the encoder accepts; asked-for rates are clamped into them.
        var bitRates: ClosedRange<Int> { self == .opus ? 6...510 : 8...320 }

        /// The bit rates the encoder takes for `channels` encoded channels: libopus 6 to 256
        /// kbit/s a channel, within `bitRates`.
        func bitRates(channels: Int) -> ClosedRange<Int> {
            self == .opus ? max(6, 6 * channels)...min(510, 256 * channels) : bitRates
        }
    }

    var format: Format
    var kbps: Int
    var rate: Int
    var channels: Int

    static let usage = """
        usage: boomic-ffmpeg encode --format opus|mp3 --bitrate KBPS --rate HZ --channels N

        Reads interleaved 32-bit float PCM, little-endian (±1.0 full scale), at HZ with N channels,
        on standard input, and writes an Ogg Opus or an MP3 stream on standard output as it is
        encoded, for an HTTP response: nothing is sought back to (the MP3 has no Xing header, the
        Ogg's last page alone says where the music ends). Opus is encoded at 48 kHz, MP3 at HZ when
        MP3 has that rate (else 44.1 or 48 kHz); more than two channels are mixed down to stereo.
        KBPS is clamped to the codec's range (Opus 6–256 a channel, 510 at most, constrained VBR;
        MP3 8–320, constant). The reader going away ends the program quietly (exit 0).
        """

    init(arguments: ArraySlice<String>) throws(InputError) {
        var arguments = arguments
        var format: Format?, kbps: Int?, rate: Int?, channels: Int?
        while let argument = arguments.popFirst() {
            let value = arguments.popFirst()
            switch argument {
            case "--format":
                guard let chosen = value.flatMap(Format.init(rawValue:)) else { throw InputError(reason: "--format is opus or mp3", usage: true) }
                format = chosen
            case "--bitrate":
                guard let n = value.flatMap({ Int($0) }), n > 0 else { throw InputError(reason: "--bitrate needs kbit/s, above 0", usage: true) }
                kbps = n
            case "--rate":
                guard let n = value.flatMap({ Int($0) }), (1_000...768_000).contains(n) else { throw InputError(reason: "--rate needs a sample rate in Hz (1000 to 768000)", usage: true) }
                rate = n
            case "--channels":
                guard let n = value.flatMap({ Int($0) }), (1...8).contains(n) else { throw InputError(reason: "--channels needs 1 to 8", usage: true) }
                channels = n
            default:
                throw InputError(reason: "unknown option \(argument)", usage: true)
            }
        }
        guard let format, let kbps, let rate, let channels else {
            throw InputError(reason: "encode needs --format, --bitrate, --rate and --channels", usage: true)
        }
        self.format = format
        self.rate = rate
        self.channels = channels
        let allowed = format.bitRates(channels: min(channels, 2))
        self.kbps = min(max(kbps, allowed.lowerBound), allowed.upperBound)
    }

    /// The rate the encoder runs at: Opus's own 48 kHz; MP3's nearest of its rates.
    var outputRate: Int {
        switch format {
        case .opus: return 48_000
        case .mp3:
            let rates = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000]
            if rates.contains(rate) { return rate }
            if rate > 48_000 { return rate % 11_025 == 0 ? 44_100 : 48_000 }
            return rates.first { $0 >= rate } ?? 48_000
        }
    }

    /// Stereo at most: MP3 has no more, and a phone plays no more.
    var outputChannels: Int { min(channels, 2) }
}
