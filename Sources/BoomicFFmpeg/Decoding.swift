import BoomicDecoderPipe
import CFFmpeg

/// The whole run: open, send the header, find the first frame wanted, send every frame after
/// it, end.
enum Decoding {
    /// Frames decoded before a seek target and thrown away, so that a codec whose output
    /// depends on the frame before (AAC's overlapped transform) gives at the target exactly
    /// what a decode from the start gives there. FFmpeg's own `seek_preroll` is added (Opus).
    static let preroll = 4096

    static func run(file: InputFile, from start: Int, into writer: inout PipeWriter) throws(InputError) {
        var input = try MediaInput(file: file)
        guard try input.nextFrame(), let first = input.frame else {
            throw InputError(reason: "no audio in it")
        }
        guard let shape = FrameSamples(frame: first, rawBits: input.bitsPerRawSample) else {
            throw InputError(reason: "an unsupported sample format (\(input.codecName))")
        }
        // Musepack: FFmpeg keeps the filter delay and the last frame's padding; the file's header
        // says how much to trim. Counted from the start, so a seek decodes from there.
        let musepack = input.codecName == "musepack8" ? MusepackHeader(file: file) : nil
        let exact = input.exactLength(rate: shape.sampleRate)
        let total = musepack?.samples ?? exact ?? input.totalFrames(rate: shape.sampleRate)
        writer.send(.header, text: shape.header(totalFrames: total, codec: input.codecName).text)

        let origin = input.framePTS
        // Where to stop: by the frames' times (MP4), or by counting what was sent (Musepack).
        let end = musepack == nil ? exact : nil
        var left = musepack.map { $0.samples - start }
        var skip = 0
        var frameReady = true
        if start > 0 || musepack != nil {
            switch musepack == nil ? try seek(input, to: start, rate: shape.sampleRate) : .unknown {
            case .within(let before):
                skip = before
            case .pastTheEnd:
                frameReady = false
            case .unknown:
                // No timestamps to go by, or the container could not seek: decode from the start
                // and count.
                input = try MediaInput(file: file)
                skip = start + (musepack?.leading ?? 0)
                frameReady = try input.nextFrame()
                while frameReady, let frame = input.frame, skip >= Int(frame.pointee.nb_samples) {
                    skip -= Int(frame.pointee.nb_samples)
                    frameReady = try input.nextFrame()
                }
            }
            input.lostFrames = 0
        }

        while frameReady, let frame = input.frame {
            if input.lostFrames > 0 {
                let lost = input.lostFrames
                writer.send(.warning, text: "\(lost) samples (\(seconds(lost, shape.sampleRate)) s) lost to damage (\(input.lostReason)), played as silence")
                writer.sendSamples { $0.append(contentsOf: repeatElement(0, count: lost * shape.channels * 4)) }
                left = left.map { $0 - lost }
                input.lostFrames = 0
            }
            guard FrameSamples(frame: frame, rawBits: input.bitsPerRawSample) == shape else {
                writer.send(.warning, text: "the stream changes its format midway; the rest is not played")
                break
            }
            var count = Int(frame.pointee.nb_samples)
            if let end, let origin, let pts = input.framePTS {
                // The padding after the last frame's real end (MP4 edit lists): not heard.
                count = max(0, min(count, end - position(pts - origin, input, shape.sampleRate)))
            }
            if let remaining = left {
                count = min(count, skip + max(0, remaining))
                left = remaining - max(0, count - skip)
            }
            writer.sendSamples { shape.append(frame, from: skip, upTo: count, to: &$0) }
            skip = 0
            frameReady = try input.nextFrame()
        }
        writer.send(.end, text: "")
    }

    enum SeekResult {
        /// The current frame holds the target, after this many of its samples.
        case within(Int)
        case pastTheEnd
        /// Timestamps cannot say where the decoder is.
        case unknown
    }

    /// Seeks to a little before `start` and decodes up to the frame holding it.
    private static func seek(_ input: MediaInput, to start: Int, rate: Int) throws(InputError) -> SeekResult {
        // Near the start, decoding from it is cheap and exact: a container's seek to its very
        // beginning need not put back the encoder delay it trimmed at the open (MP4's).
        let preroll = preroll + Int(input.stream.pointee.codecpar.pointee.seek_preroll)
        guard let origin = input.framePTS, start > preroll else { return .unknown }
        let base = input.stream.pointee.time_base
        let perSample = AVRational(num: 1, den: Int32(rate))
        let target = av_rescale_q(Int64(max(0, start - preroll)), perSample, base)
        do {
            try input.seek(to: origin + target)
        } catch {
            return .unknown
        }
        while try input.nextFrame() {
            guard let pts = input.framePTS, let frame = input.frame else { return .unknown }
            let position = position(pts - origin, input, rate)
            // Landed after the target: the container seeks coarsely; count from the start.
            if position > start { return .unknown }
            if position + Int(frame.pointee.nb_samples) > start { return .within(start - position) }
        }
        return .pastTheEnd
    }

    /// A time since the first frame's, in sample frames.
    private static func position(_ time: Int64, _ input: MediaInput, _ rate: Int) -> Int {
        Int(av_rescale_q(time, input.stream.pointee.time_base, AVRational(num: 1, den: Int32(rate))))
    }

    private static func seconds(_ frames: Int, _ rate: Int) -> String {
        let ms = frames * 1000 / max(rate, 1)
        return "\(ms / 1000).\(String(ms % 1000 + 1000).dropFirst())"
    }
}
