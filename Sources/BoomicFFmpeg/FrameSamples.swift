import BoomicDecoderPipe
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
        let shift = 32 - bitsPerSample
        // One loop per sample type, so the type is not asked again for every sample.
        switch av_get_packed_sample_fmt(format) {
        case AV_SAMPLE_FMT_U8:
            interleave(frame, from, count, into: &out) { (x: UInt8) in UInt32(bitPattern: Int32(x) - 128) }
        case AV_SAMPLE_FMT_S16:
            interleave(frame, from, count, into: &out) { (x: Int16) in UInt32(bitPattern: Int32(x)) }
        case AV_SAMPLE_FMT_S32:
            interleave(frame, from, count, into: &out) { (x: Int32) in UInt32(bitPattern: x >> Int32(shift)) }
        case AV_SAMPLE_FMT_S64:
            interleave(frame, from, count, into: &out) { (x: Int64) in UInt32(bitPattern: Int32(truncatingIfNeeded: x >> Int64(32 + shift))) }
        case AV_SAMPLE_FMT_FLT:
            interleave(frame, from, count, into: &out) { (x: Float) in x.bitPattern }
        default: // AV_SAMPLE_FMT_DBL
            interleave(frame, from, count, into: &out) { (x: Double) in Float(x).bitPattern }
        }
    }

    /// Appends `count` frames from frame `from` on, each sample of type `T` made a 32-bit word
    /// by `word`, channels interleaved.
    @inline(__always)
    private func interleave<T>(_ frame: UnsafePointer<AVFrame>, _ from: Int, _ count: Int, into out: inout [UInt8],
                               _ word: (T) -> UInt32) {
        let planar = av_sample_fmt_is_planar(format) != 0
        let base = out.count
        out.append(contentsOf: repeatElement(0, count: count * channels * 4))
        out.withUnsafeMutableBytes { raw in
            let dest = raw.baseAddress!.advanced(by: base)
            for ch in 0..<channels {
                let plane = UnsafeRawPointer(frame.pointee.extended_data[planar ? ch : 0]!)
                let first = planar ? from : from * channels + ch
                let step = planar ? 1 : channels
                for i in 0..<count {
                    let x = plane.loadUnaligned(fromByteOffset: (first + i * step) * MemoryLayout<T>.stride, as: T.self)
                    dest.storeBytes(of: word(x).littleEndian, toByteOffset: 4 * (i * channels + ch), as: UInt32.self)
                }
            }
        }
    }
}
