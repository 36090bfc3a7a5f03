import CFFmpeg

/// Why a file could not be decoded, in words for the player's one line.
struct InputError: Error {
    var reason: String
    /// The command line was wrong (exit status 64), not the input.
    var usage = false
}

/// One audio file opened through libavformat and libavcodec: the best audio stream and its
/// decoder, giving decoded frames one at a time. Owns every FFmpeg handle it makes.
///
/// A damaged packet is not an error: it is counted in `lostFrames` (its length, from the
/// packet's duration) so the writer can put that much silence in its place and positions and
/// gapless joins stay true, as the player's own decoders do.
final class MediaInput {
    let file: InputFile
    /// What libavformat reads the file through; closed after `container`.
    private let source: ByteSource
    private var container: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// The frame `nextFrame()` fills.
    private(set) var frame: UnsafeMutablePointer<AVFrame>?
    let stream: UnsafeMutablePointer<AVStream>
    let streamIndex: Int32
    private var draining = false
    /// Frames lost to damaged packets since the last `nextFrame()`, and why.
    var lostFrames = 0
    var lostReason = ""
    /// Damaged packets in a row: a file that is nothing but damage stops decoding.
    private var damagedInARow = 0

    init(file: InputFile) throws(InputError) {
        self.file = file
        source = try ByteSource(file)
        var opened = avformat_alloc_context()
        guard let allocated = opened else { throw InputError(reason: "out of memory") }
        allocated.pointee.pb = source.context
        // The path is FFmpeg's hint from the extension only: the bytes come through `source`.
        // On failure, avformat_open_input frees the context it was given.
        var r = avformat_open_input(&opened, file.path, nil, nil)
        guard r >= 0, let opened else { throw InputError(reason: "cannot open (\(Self.describe(r)))") }
        container = opened
        r = avformat_find_stream_info(opened, nil)
        guard r >= 0 else {
            avformat_close_input(&container)
            throw InputError(reason: "cannot read the stream (\(Self.describe(r)))")
        }
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(opened, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let chosen = opened.pointee.streams[Int(index)] else {
            avformat_close_input(&container)
            throw InputError(reason: index == cff_error_stream_not_found() ? "no audio stream" : "no decoder for its audio (\(Self.describe(index)))")
        }
        streamIndex = index
        stream = chosen
        // Cover art in an M4A is a video stream: never read its packets.
        for i in 0..<Int(opened.pointee.nb_streams) where Int32(i) != index {
            opened.pointee.streams[i]?.pointee.discard = AVDISCARD_ALL
        }
        codec = avcodec_alloc_context3(decoder)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard let codec, packet != nil, frame != nil else {
            close()
            throw InputError(reason: "out of memory")
        }
        r = avcodec_parameters_to_context(codec, chosen.pointee.codecpar)
        codec.pointee.pkt_timebase = chosen.pointee.time_base
        if r >= 0 { r = avcodec_open2(codec, decoder, nil) }
        guard r >= 0 else {
            close()
            throw InputError(reason: "cannot open the \(String(cString: decoder.pointee.name)) decoder (\(Self.describe(r)))")
        }
    }

    deinit { close() }

    private func close() {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        avformat_close_input(&container)
    }

    /// FFmpeg's short name of the codec (`alac`, `aac`, `wavpack`).
    var codecName: String {
        guard let name = avcodec_get_name(stream.pointee.codecpar.pointee.codec_id) else { return "?" }
        return String(cString: name)
    }

    /// The decoder's idea of the sample precision (a 24-bit ALAC decodes into 32-bit samples).
    var bitsPerRawSample: Int { Int(codec?.pointee.bits_per_raw_sample ?? 0) }

    /// The stream's length in frames at `rate`, when the container says.
    func totalFrames(rate: Int) -> Int? {
        let noPTS = cff_no_pts()
        if stream.pointee.duration != noPTS, stream.pointee.duration > 0 {
            return Int(av_rescale_q(stream.pointee.duration, stream.pointee.time_base, AVRational(num: 1, den: Int32(rate))))
        }
        if let container, container.pointee.duration != noPTS, container.pointee.duration > 0 {
            return Int(av_rescale(container.pointee.duration, Int64(rate), Int64(AV_TIME_BASE)))
        }
        return nil
    }

    /// The stream's exact length in frames at `rate`, where the container is known to state it
    /// exactly: an MP4's sample table and edit list do (the edit list is how an encoder says
    /// how much of the last AAC frame is padding, which the decoder itself does not trim), while
    /// other containers' durations may be estimates from the bit rate.
    /// An iTunes file may have no edit list but an `iTunSMPB` tag saying the same.
    func exactLength(rate: Int) -> Int? {
        guard let container, let name = container.pointee.iformat?.pointee.name,
              String(cString: name).hasPrefix("mov,") else { return nil }
        let stated = totalFrames(rate: rate)
        guard let itunes = ITunesGapless(file: file) else { return stated }
        return min(stated ?? itunes.samples, itunes.samples)
    }

    /// A frame's time in the stream's time base, or nil when it has none.
    var framePTS: Int64? {
        guard let frame else { return nil }
        let t = frame.pointee.best_effort_timestamp != cff_no_pts() ? frame.pointee.best_effort_timestamp : frame.pointee.pts
        return t == cff_no_pts() ? nil : t
    }

    /// Decodes the next frame into `frame`; false at the end of the stream.
    func nextFrame() throws(InputError) -> Bool {
        guard let codec, let frame, let packet, let container else { return false }
        while true {
            let r = avcodec_receive_frame(codec, frame)
            if r >= 0 {
                damagedInARow = 0
                return true
            }
            if r == cff_error_eof() { return false }
            if r != cff_error_again() {
                // The decoder refused what it was given: the frame it would have made is lost.
                try damaged(duration: 0, r)
                continue
            }
            if draining { return false }
            let read = av_read_frame(container, packet)
            if read < 0 {
                // A damaged stretch of the container: the demuxer skips on to what it can read
                // next (a file that is nothing but damage ends here).
                if read == cff_error_invalid_data() && damagedInARow < 500 && container.pointee.pb?.pointee.eof_reached == 0 {
                    damagedInARow += 1
                    continue
                }
                // The end of the file, or a read error at it: hand the decoder what it holds.
                if read != cff_error_eof() && read != cff_error_invalid_data() && container.pointee.pb?.pointee.error != 0 {
                    throw InputError(reason: "cannot read (\(Self.describe(read)))")
                }
                draining = true
                avcodec_send_packet(codec, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(codec, packet)
            if sent < 0 && sent != cff_error_again() {
                try damaged(duration: packet.pointee.duration, sent)
            }
        }
    }

    /// Counts the frames of a damaged packet as lost: its duration when the container gives
    /// one, else the codec's frame size.
    private func damaged(duration: Int64, _ code: Int32) throws(InputError) {
        damagedInARow += 1
        if damagedInARow > 500 { throw InputError(reason: "decoding stopped: \(Self.describe(code))") }
        guard let codec else { return }
        let rate = Int32(max(codec.pointee.sample_rate, 1))
        var frames = duration > 0 ? Int(av_rescale_q(duration, stream.pointee.time_base, AVRational(num: 1, den: rate))) : 0
        if frames == 0 { frames = Int(codec.pointee.frame_size) }
        lostFrames += frames
        lostReason = Self.describe(code)
    }

    /// Moves to the start of the file or near `timestamp` (stream time base, at or before it),
    /// dropping what the decoder holds.
    func seek(to timestamp: Int64) throws(InputError) {
        guard let container, let codec else { return }
        let r = av_seek_frame(container, streamIndex, timestamp, AVSEEK_FLAG_BACKWARD)
        guard r >= 0 else { throw InputError(reason: "cannot seek (\(Self.describe(r)))") }
        avcodec_flush_buffers(codec)
        draining = false
    }

    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        cff_describe(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

}
