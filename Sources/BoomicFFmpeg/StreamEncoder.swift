import CFFmpeg
import Glibc

/// `boomic-ffmpeg encode`: float PCM from standard input through libswresample (to the
/// encoder's rate, sample format and channels) into libopus or libmp3lame, muxed into Ogg or
/// MP3 on standard output (`StreamOutput`). Owns every FFmpeg handle it makes.
///
/// Memory stays small whatever the song's length: one block of input, the resampler's and
/// the FIFO's few frames, and the muxer's page. A reader that stops reading stops this
/// program at its next write, and so stops its own reading of standard input: the back
/// pressure reaches the decoder that feeds it.
final class StreamEncoder {
    private let options: EncodeOptions
    private let output: StreamOutput
    private var muxer: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private var fifo: OpaquePointer?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let stream: UnsafeMutablePointer<AVStream>
    private let sampleFormat: AVSampleFormat
    /// Samples per encoded frame (960 for Opus's 20 ms at 48 kHz, 1152 for MP3).
    private let frameSize: Int32
    private var nextPTS: Int64 = 0

    /// Input frames read per block: about 0.1 s.
    private static let blockFrames = 4096

    init(_ options: EncodeOptions) throws(InputError) {
        self.options = options
        output = try StreamOutput()
        guard let encoder = avcodec_find_encoder_by_name(options.format.encoder) else {
            throw InputError(reason: "this FFmpeg has no \(options.format.encoder) encoder")
        }
        var made: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&made, nil, options.format.muxer, nil) >= 0, let made else {
            throw InputError(reason: "this FFmpeg has no \(options.format.muxer) muxer")
        }
        muxer = made
        made.pointee.pb = output.context
        made.pointee.flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_FLUSH_PACKETS
        made.pointee.flush_packets = 1

        sampleFormat = Self.sampleFormat(of: encoder)
        codec = avcodec_alloc_context3(encoder)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard let codec, packet != nil, frame != nil, let created = avformat_new_stream(made, nil) else {
            throw InputError(reason: "out of memory")
        }
        stream = created
        codec.pointee.sample_fmt = sampleFormat
        codec.pointee.sample_rate = Int32(options.outputRate)
        av_channel_layout_default(&codec.pointee.ch_layout, Int32(options.outputChannels))
        codec.pointee.bit_rate = Int64(options.kbps) * 1000
        codec.pointee.time_base = AVRational(num: 1, den: Int32(options.outputRate))
        if made.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        // Opus: constrained VBR, so the rate asked for (a client's `maxBitRate`) is what the
        // stream averages; libopus's free VBR spends up to 1.4 times it on simple music.
        var encoderOptions: OpaquePointer?
        if options.format == .opus { av_dict_set(&encoderOptions, "vbr", "constrained", 0) }
        var r = avcodec_open2(codec, encoder, &encoderOptions)
        av_dict_free(&encoderOptions)
        guard r >= 0 else { throw InputError(reason: "cannot open \(options.format.encoder) (\(MediaInput.describe(r)))") }
        frameSize = codec.pointee.frame_size > 0 ? codec.pointee.frame_size : 1152
        r = avcodec_parameters_from_context(created.pointee.codecpar, codec)
        guard r >= 0 else { throw InputError(reason: "cannot set up the stream (\(MediaInput.describe(r)))") }
        created.pointee.time_base = codec.pointee.time_base

        var muxerOptions: OpaquePointer?
        if options.format == .mp3 {
            // No ID3 tag in front (the client has the song's tags), no Xing frame (it is filled
            // in by seeking back at the end, which a stream cannot).
            av_dict_set(&muxerOptions, "id3v2_version", "0", 0)
            av_dict_set(&muxerOptions, "write_xing", "0", 0)
        }
        r = avformat_write_header(made, &muxerOptions)
        av_dict_free(&muxerOptions)
        guard r >= 0 else { throw InputError(reason: "cannot start the \(options.format.muxer) stream (\(MediaInput.describe(r)))") }

        var inLayout = AVChannelLayout()
        av_channel_layout_default(&inLayout, Int32(options.channels))
        defer { av_channel_layout_uninit(&inLayout) }
        r = swr_alloc_set_opts2(&resampler, &codec.pointee.ch_layout, sampleFormat, Int32(options.outputRate),
                                &inLayout, AV_SAMPLE_FMT_FLT, Int32(options.rate), 0, nil)
        if r >= 0 { r = swr_init(resampler) }
        guard r >= 0 else { throw InputError(reason: "cannot set up the resampler (\(MediaInput.describe(r)))") }
        fifo = av_audio_fifo_alloc(sampleFormat, Int32(options.outputChannels), frameSize * 4)
        guard fifo != nil else { throw InputError(reason: "out of memory") }
    }

    deinit {
        av_audio_fifo_free(fifo)
        swr_free(&resampler)
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        if let muxer { avformat_free_context(muxer) }
    }

    /// The encoder's sample format: float when it takes float (both do), else its first.
    private static func sampleFormat(of encoder: UnsafePointer<AVCodec>) -> AVSampleFormat {
        var formats: [AVSampleFormat] = []
        if var p = encoder.pointee.sample_fmts {
            while p.pointee != AV_SAMPLE_FMT_NONE {
                formats.append(p.pointee)
                p += 1
            }
        }
        return [AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP].first(where: formats.contains) ?? formats.first ?? AV_SAMPLE_FMT_S16
    }

    /// Reads standard input to its end, encoding and writing as it goes, then ends the stream.
    func run() throws(InputError) {
        let frameBytes = 4 * options.channels
        var block = [UInt8](repeating: 0, count: Self.blockFrames * frameBytes)
        var filled = 0
        var ended = false
        while !ended {
            let n = block.withUnsafeMutableBytes { read(0, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                ended = true
            } else {
                filled += n
            }
            let frames = filled / frameBytes
            guard frames > 0 && (ended || filled == block.count || frames >= Self.blockFrames / 4) else { continue }
            // withUnsafeBytes rethrows only untyped errors: carry the typed one out.
            try block.withUnsafeBytes { raw in
                Result { () throws(InputError) in try convert(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), frames: frames) }
            }.get()
            // A partial frame at the end of a read waits for the rest of its bytes.
            let rest = filled - frames * frameBytes
            if rest > 0 { block.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[(frames * frameBytes)..<filled])) } }
            filled = rest
        }
        try convert(nil, frames: 0)
        try encodeFrames(final: true)
        try encode(nil)
        let r = av_write_trailer(muxer)
        guard r >= 0 else { throw InputError(reason: "cannot end the stream (\(MediaInput.describe(r)))") }
        avio_flush(output.context)
    }

    /// Puts input frames (nil: what the resampler holds) through the resampler into the FIFO and
    /// encodes every whole frame it then holds.
    private func convert(_ input: UnsafePointer<UInt8>?, frames: Int) throws(InputError) {
        let r = cff_convert_into(resampler, fifo, input, Int32(frames), sampleFormat, Int32(options.outputChannels))
        guard r >= 0 else { throw InputError(reason: "cannot resample (\(MediaInput.describe(r)))") }
        try encodeFrames(final: false)
    }

    /// Encodes the FIFO's whole frames; with `final`, its last short one too (both encoders take
    /// a short last frame and pad it themselves).
    private func encodeFrames(final: Bool) throws(InputError) {
        while true {
            let held = av_audio_fifo_size(fifo)
            guard held >= frameSize || (final && held > 0), let frame else { return }
            let count = min(held, frameSize)
            av_frame_unref(frame)
            frame.pointee.nb_samples = count
            frame.pointee.format = sampleFormat.rawValue
            frame.pointee.sample_rate = Int32(options.outputRate)
            av_channel_layout_copy(&frame.pointee.ch_layout, &codec!.pointee.ch_layout)
            var r = av_frame_get_buffer(frame, 0)
            guard r >= 0 else { throw InputError(reason: "out of memory") }
            r = cff_fifo_read_frame(fifo, frame, count)
            guard r >= 0 else { throw InputError(reason: "cannot read the FIFO (\(MediaInput.describe(r)))") }
            frame.pointee.pts = nextPTS
            nextPTS += Int64(count)
            try encode(frame)
        }
    }

    /// Sends a frame (nil: the end) to the encoder and muxes every packet it gives back.
    private func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws(InputError) {
        guard let codec, let packet else { return }
        var r = avcodec_send_frame(codec, frame)
        guard r >= 0 else { throw InputError(reason: "cannot encode (\(MediaInput.describe(r)))") }
        while true {
            r = avcodec_receive_packet(codec, packet)
            if r == cff_error_again() || r == cff_error_eof() { return }
            guard r >= 0 else { throw InputError(reason: "cannot encode (\(MediaInput.describe(r)))") }
            av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            r = av_write_frame(muxer, packet)
            av_packet_unref(packet)
            guard r >= 0 else { throw InputError(reason: "cannot write the stream (\(MediaInput.describe(r)))") }
        }
    }
}
