/// The stream `boomic-ffmpeg` writes on its standard output and the player reads: decoded audio
/// from a separate process.
///
/// FFmpeg's libraries as Debian builds them are GPL-bound (`--enable-gpl`), so `boomic` never
/// links them; the formats only FFmpeg decodes (AAC and ALAC in M4A, WavPack, APE, Musepack, …)
/// are decoded by a small program of their own, `boomic-ffmpeg FILE [--start FRAME]`, and reach
/// the player through a pipe. A crash inside FFmpeg on a hostile file then ends that song, not
/// the player.
///
/// The stream is a sequence of packets, each a kind byte, a little-endian `UInt32` length and
/// that many bytes:
/// - `H` once, first: the header, as text (`rate=44100 channels=2 bits=16 float=0 frames=88200
///   codec=alac`);
/// - `P` samples: whole frames, interleaved, little-endian `Int32` holding the source's integer
///   values unscaled (a 24-bit sample stays within ±2^23), or `Float32` (±1.0) when `float=1`;
/// - `W` a warning that did not stop decoding (a damaged packet played as silence);
/// - `E` the error that stopped it, then the program exits 1;
/// - `Z` the clean end. A stream that stops without `Z` was cut short (the decoder crashed).
public enum DecoderPipe {
    public enum Kind: UInt8, Sendable {
        case header = 0x48   // H
        case samples = 0x50  // P
        case warning = 0x57  // W
        case error = 0x45    // E
        case end = 0x5A      // Z
    }

    /// The longest packet a reader accepts: a bound on what a broken or hostile writer can make
    /// it allocate.
    public static let maxPacket = 1 << 24

    /// The shape of the samples that follow, and what the file says of its length.
    public struct Header: Equatable, Sendable {
        public var sampleRate: Int
        public var channels: Int
        /// The source's sample width: 8 to 32 for integers, 32 for float.
        public var bitsPerSample: Int
        public var isFloat: Bool
        /// Frames in the whole file, when the container says.
        public var totalFrames: Int?
        /// FFmpeg's name of the codec (`alac`, `aac`, `wavpack`), for messages.
        public var codec: String

        public init(sampleRate: Int, channels: Int, bitsPerSample: Int, isFloat: Bool, totalFrames: Int?, codec: String) {
            self.sampleRate = sampleRate
            self.channels = channels
            self.bitsPerSample = bitsPerSample
            self.isFloat = isFloat
            self.totalFrames = totalFrames
            self.codec = codec
        }

        /// The header packet's text.
        public var text: String {
            "rate=\(sampleRate) channels=\(channels) bits=\(bitsPerSample) float=\(isFloat ? 1 : 0) frames=\(totalFrames ?? -1) codec=\(codec)"
        }

        /// Reads a header packet's text; nil when a field is missing or out of range, so a
        /// reader never opens a sink with a nonsense format.
        public init?(text: String) {
            var fields: [Substring: Substring] = [:]
            for word in text.split(separator: " ") {
                guard let eq = word.firstIndex(of: "=") else { return nil }
                fields[word[..<eq]] = word[word.index(after: eq)...]
            }
            guard let rate = fields["rate"].flatMap({ Int($0) }), (1...1_536_000).contains(rate),
                  let channels = fields["channels"].flatMap({ Int($0) }), (1...64).contains(channels),
                  let bits = fields["bits"].flatMap({ Int($0) }), (8...32).contains(bits),
                  let float = fields["float"], float == "0" || float == "1",
                  let frames = fields["frames"].flatMap({ Int($0) })
            else { return nil }
            self.init(sampleRate: rate, channels: channels, bitsPerSample: float == "1" ? 32 : bits,
                      isFloat: float == "1", totalFrames: frames >= 0 ? frames : nil,
                      codec: String(fields["codec"] ?? "?"))
        }
    }

    /// One packet's bytes: kind, length, payload.
    public static func packet(_ kind: Kind, _ payload: some Collection<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = [kind.rawValue]
        bytes.reserveCapacity(5 + payload.count)
        let n = UInt32(payload.count)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: n >> UInt32(shift))) }
        bytes.append(contentsOf: payload)
        return bytes
    }

    /// A text packet (header, warning, error).
    public static func packet(_ kind: Kind, text: String) -> [UInt8] {
        packet(kind, Array(text.utf8))
    }
}

/// Cuts a byte stream, fed in pieces of any size, into `DecoderPipe` packets.
public struct DecoderPipeParser: Sendable {
    public enum Failure: Error, Equatable, Sendable {
        case unknownKind(UInt8)
        case tooLong(Int)
    }

    private var buffer: [UInt8] = []
    private var start = 0

    public init() {}

    /// Bytes received and not yet part of a whole packet.
    public var pending: Int { buffer.count - start }

    public mutating func feed(_ bytes: some Collection<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole packet, or nil until more bytes come. `body` sees the payload in place.
    public mutating func next<R>(_ body: (DecoderPipe.Kind, UnsafeBufferPointer<UInt8>) throws -> R) throws -> R? {
        guard pending >= 5 else { return nil }
        let raw = buffer[start]
        guard let kind = DecoderPipe.Kind(rawValue: raw) else { throw Failure.unknownKind(raw) }
        var length = 0
        for i in 0..<4 { length |= Int(buffer[start + 1 + i]) << (8 * i) }
        guard length <= DecoderPipe.maxPacket else { throw Failure.tooLong(length) }
        guard pending >= 5 + length else { return nil }
        let from = start + 5
        start = from + length
        return try buffer.withUnsafeBufferPointer { b in
            try body(kind, UnsafeBufferPointer(rebasing: b[from..<(from + length)]))
        }
    }
}
