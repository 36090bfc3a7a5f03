import BoomicCore
import CFFmpeg

/// How a decoded frame's samples go on the pipe: FFmpeg's many sample formats (planar or
/// interleaved, 8 to 64 bits, integer or float) become `DecoderPipe`'s two: `Int32` holding the
/// source's integer value unscaled, or `Float32`.
struct FrameSamples: Equatable {
    let sampleRate: Int
    let channels: Int
    let format: AVSampleFormat
    /// The width on the pipe's header: what the source really holds (24 for 24-bit ALAC or
    /// WavPack, which FFmpeg hands over as 32-bit samples shifted left).
    let bitsPerSample: Int
    let isFloat: Bool

    init?(frame: UnsafePointer<AVFrame>, rawBits: Int) {
        sampleRate = Int(frame.pointee.sample_rate)
        channels = Int(frame.pointee.ch_layout.nb_channels)
        format = AVSampleFormat(rawValue: frame.pointee.format)
        guard sampleRate > 0, channels > 0 else { return nil }
        switch av_get_packed_sample_fmt(format) {
        case AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_DBL:
            isFloat = true
            bitsPerSample = 32
        case AV_SAMPLE_FMT_U8:
            isFloat = false
            bitsPerSample = 8
        case AV_SAMPLE_FMT_S16:
            isFloat = false
            bitsPerSample = 16
        case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S64:
            isFloat = false
            // 20-bit sources travel in 24 bits, as flac -d writes them.
            bitsPerSample = rawBits > 0 && rawBits <= 32 ? min(32, (rawBits + 7) / 8 * 8) : 32
        default:
            return nil
        }
    }

    func header(totalFrames: Int?, codec: String) -> DecoderPipe.Header {
        DecoderPipe.Header(sampleRate: sampleRate, channels: channels, bitsPerSample: bitsPerSample,
                           isFloat: isFloat, totalFrames: totalFrames, codec: codec)
    }

    /// Appends frames `from..<upTo` of `frame`, interleaved, little-endian, to `out` (`Int32`
    /// or `Float32` per the header).
    func append(_ frame: UnsafePointer<AVFrame>, from: Int, upTo end: Int, to out: inout [UInt8]) {
        let count = min(end, Int(frame.pointee.nb_samples)) - from
        guard count > 0 else { return }
        let planar = av_sample_fmt_is_planar(format) != 0
        let width = Int(av_get_bytes_per_sample(format))
        let base = out.count
        out.append(contentsOf: repeatElement(0, count: count * channels * 4))
        let shift = 32 - bitsPerSample
        out.withUnsafeMutableBytes { raw in
            let dest = raw.baseAddress!.advanced(by: base)
            var o = 0
            for i in from..<(from + count) {
                for ch in 0..<channels {
                    let plane = planar ? frame.pointee.extended_data[ch]! : frame.pointee.extended_data[0]!
                    let index = planar ? i : i * channels + ch
                    let source = UnsafeRawPointer(plane).advanced(by: index * width)
                    let bits: UInt32
                    switch av_get_packed_sample_fmt(format) {
                    case AV_SAMPLE_FMT_U8:
                        bits = UInt32(bitPattern: Int32(source.load(as: UInt8.self)) - 128)
                    case AV_SAMPLE_FMT_S16:
                        bits = UInt32(bitPattern: Int32(source.loadUnaligned(as: Int16.self)))
                    case AV_SAMPLE_FMT_S32:
                        bits = UInt32(bitPattern: source.loadUnaligned(as: Int32.self) >> Int32(shift))
                    case AV_SAMPLE_FMT_S64:
                        bits = UInt32(bitPattern: Int32(truncatingIfNeeded: source.loadUnaligned(as: Int64.self) >> Int64(32 + shift)))
                    case AV_SAMPLE_FMT_FLT:
                        bits = source.loadUnaligned(as: Float.self).bitPattern
                    default: // AV_SAMPLE_FMT_DBL
                        bits = Float(source.loadUnaligned(as: Double.self)).bitPattern
                    }
                    dest.storeBytes(of: bits.littleEndian, toByteOffset: o, as: UInt32.self)
                    o += 4
                }
            }
        }
    }
}
