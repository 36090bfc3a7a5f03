/// How uncompressed samples lie in a WAV or AIFF file: what `WAVHeader` and `AIFFHeader` find and
/// `PCMFileDecoder` reads by.
struct PCMLayout: Equatable {
    enum Encoding: Equatable {
        /// Two's complement integers, left-justified in their container (the unused low bits are 0).
        case signed
        /// WAV's 8-bit samples: unsigned, 128 is silence.
        case unsigned
        /// IEEE float, 4 or 8 bytes.
        case float
    }

    var sampleRate: Int
    var channels: Int
    /// Bytes each sample takes in the file.
    var containerBytes: Int
    /// Bits that carry the value (a 20-bit sample in a 3-byte container: 20).
    var validBits: Int
    var encoding: Encoding
    var bigEndian: Bool
    /// Where the first sample is.
    var dataOffset: Int
    /// The data's length as the header says it; nil when the header does not know (a WAV file
    /// whose writer never came back to fill it in says 0 or 0xFFFFFFFF).
    var declaredBytes: Int?

    var frameBytes: Int { containerBytes * channels }

    /// What the decoder delivers: integers at their own width, or float for float files (both
    /// 32- and 64-bit, delivered as 32-bit float; see `PCMFileDecoder`).
    var format: PCMFormat {
        encoding == .float
            ? .float(sampleRate: sampleRate, channels: channels)
            : PCMFormat(sampleRate: sampleRate, channels: channels, bitsPerSample: validBits)
    }

    /// Checks what every reader of the layout relies on; the reason when it does not hold.
    func problem() -> String? {
        if channels < 1 || channels > 64 { return "\(channels) channels" }
        if sampleRate < 1 || sampleRate > 1_536_000 { return "a sample rate of \(sampleRate) Hz" }
        switch encoding {
        case .float:
            if containerBytes != 4 && containerBytes != 8 { return "\(containerBytes * 8)-bit float samples" }
        case .signed, .unsigned:
            if containerBytes < 1 || containerBytes > 4 { return "\(containerBytes * 8)-bit containers" }
            if validBits < 1 || validBits > containerBytes * 8 { return "\(validBits)-bit samples in \(containerBytes * 8)-bit containers" }
        }
        return nil
    }
}
