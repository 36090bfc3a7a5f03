import CFFmpeg
import Glibc

/// `boomic-ffmpeg scale --size N`: an image (any FFmpeg reads: JPEG, PNG, GIF, BMP, WebP, …) on
/// standard input, a JPEG whose longer side is N on standard output, scaled by libswscale.
/// Never larger than the original: a JPEG that already fits is passed on byte for byte, any
/// other image that fits is re-encoded as a JPEG of its own size. Transparency is dropped.
struct ScaleCommand {
    var size: Int

    static let usage = """
        usage: boomic-ffmpeg scale --size N

        Reads an image (JPEG, PNG, GIF, BMP, WebP…) on standard input and writes a JPEG whose longer
        side is N pixels on standard output, keeping its proportions. An image no larger than N is
        not enlarged: a JPEG is written back unchanged, any other image as a JPEG of its own size.
        A damaged or unknown image is one line on standard error and exit status 1.
        """

    /// The largest image read: a cover larger than this is not a cover.
    static let maxBytes = 64 << 20

    init(arguments: ArraySlice<String>) throws(InputError) {
        guard arguments.count == 2, arguments.first == "--size", let n = Int(arguments.last!), (1...10_000).contains(n) else {
            throw InputError(reason: "scale needs --size N (1 to 10000)", usage: true)
        }
        size = n
    }

    func run() throws(InputError) {
        let bytes = try Self.readStandardInput()
        guard !bytes.isEmpty else { throw InputError(reason: "not an image: standard input is empty") }
        let image = try DecodedImage(bytes: bytes)
        let width = Int(image.frame.pointee.width), height = Int(image.frame.pointee.height)
        let longer = max(width, height)
        if longer <= size && image.isJPEG {
            bytes.withUnsafeBytes { StreamOutput.writeAll($0.baseAddress!, $0.count) }
            return
        }
        let scale = longer <= size ? 1 : Double(size) / Double(longer)
        let target = (width: max(1, Int((Double(width) * scale).rounded())), height: max(1, Int((Double(height) * scale).rounded())))
        let jpeg = try Self.encodeJPEG(image.frame, width: target.width, height: target.height)
        jpeg.withUnsafeBytes { StreamOutput.writeAll($0.baseAddress!, $0.count) }
    }

    private static func readStandardInput() throws(InputError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw InputError(reason: "cannot read standard input: \(String(cString: strerror(errno)))") }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
            guard bytes.count <= maxBytes else { throw InputError(reason: "the image is larger than \(maxBytes >> 20) MB") }
        }
    }

    /// Scales `source` to `width`×`height` (full-range YUV 4:2:0, what JPEG holds) and encodes it
    /// with FFmpeg's JPEG encoder at quality 3 (of 2–31, lower is better).
    private static func encodeJPEG(_ source: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) throws(InputError) -> [UInt8] {
        guard let encoder = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else { throw InputError(reason: "this FFmpeg has no JPEG encoder") }
        var codec = avcodec_alloc_context3(encoder)
        var scaled = av_frame_alloc()
        var packet = av_packet_alloc()
        defer {
            av_packet_free(&packet)
            av_frame_free(&scaled)
            avcodec_free_context(&codec)
        }
        guard let codec, let scaled, let packet else { throw InputError(reason: "out of memory") }
        let format = AV_PIX_FMT_YUVJ420P
        scaled.pointee.width = Int32(width)
        scaled.pointee.height = Int32(height)
        scaled.pointee.format = format.rawValue
        guard av_frame_get_buffer(scaled, 0) >= 0 else { throw InputError(reason: "out of memory") }
        let flags = width < Int(source.pointee.width) ? SWS_AREA : SWS_BICUBIC
        guard let scaler = sws_getContext(source.pointee.width, source.pointee.height, AVPixelFormat(source.pointee.format),
                                          Int32(width), Int32(height), format, flags, nil, nil, nil) else {
            throw InputError(reason: "cannot scale an image of this pixel format")
        }
        defer { sws_freeContext(scaler) }
        var r = sws_scale_frame(scaler, scaled, source)
        guard r >= 0 else { throw InputError(reason: "cannot scale the image (\(MediaInput.describe(r)))") }

        codec.pointee.width = Int32(width)
        codec.pointee.height = Int32(height)
        codec.pointee.pix_fmt = format
        codec.pointee.time_base = AVRational(num: 1, den: 1)
        codec.pointee.flags |= AV_CODEC_FLAG_QSCALE
        codec.pointee.global_quality = 3 * FF_QP2LAMBDA
        scaled.pointee.quality = codec.pointee.global_quality
        scaled.pointee.pts = 0
        r = avcodec_open2(codec, encoder, nil)
        guard r >= 0 else { throw InputError(reason: "cannot open the JPEG encoder (\(MediaInput.describe(r)))") }
        r = avcodec_send_frame(codec, scaled)
        if r >= 0 { r = avcodec_receive_packet(codec, packet) }
        guard r >= 0, let data = packet.pointee.data else { throw InputError(reason: "cannot encode the JPEG (\(MediaInput.describe(r)))") }
        return Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
    }
}

/// The first picture of an image held in memory, decoded through libavformat's image demuxers
/// (found by probing the bytes) and the codec they name. Owns every FFmpeg handle it makes.
final class DecodedImage {
    private let bytes: [UInt8]
    private var position = 0
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var container: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    let frame: UnsafeMutablePointer<AVFrame>
    private(set) var isJPEG = false

    init(bytes: [UInt8]) throws(InputError) {
        self.bytes = bytes
        guard let decoded = av_frame_alloc() else { throw InputError(reason: "out of memory") }
        frame = decoded
        try open()
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        avformat_close_input(&container)
        if let io { av_freep(&io.pointee.buffer) }
        avio_context_free(&io)
    }

    private func open() throws(InputError) {
        let size: Int32 = 1 << 16
        guard let buffer = av_malloc(Int(size)) else { throw InputError(reason: "out of memory") }
        io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), size, 0, Unmanaged.passUnretained(self).toOpaque(), { opaque, out, count in
            let image = Unmanaged<DecodedImage>.fromOpaque(opaque!).takeUnretainedValue()
            let n = min(Int(count), image.bytes.count - image.position)
            guard n > 0 else { return cff_error_eof() }
            image.bytes.withUnsafeBytes { UnsafeMutableRawPointer(out!).copyMemory(from: $0.baseAddress! + image.position, byteCount: n) }
            image.position += n
            return Int32(n)
        }, nil, { opaque, offset, whence in
            let image = Unmanaged<DecodedImage>.fromOpaque(opaque!).takeUnretainedValue()
            let target: Int
            switch whence & ~Int32(AVSEEK_FORCE) {
            case Int32(AVSEEK_SIZE): return Int64(image.bytes.count)
            case SEEK_SET: target = Int(offset)
            case SEEK_CUR: target = image.position + Int(offset)
            case SEEK_END: target = image.bytes.count + Int(offset)
            default: return -1
            }
            guard (0...image.bytes.count).contains(target) else { return -1 }
            image.position = target
            return Int64(target)
        })
        guard io != nil else {
            av_free(buffer)
            throw InputError(reason: "out of memory")
        }
        var opened = avformat_alloc_context()
        guard let allocated = opened else { throw InputError(reason: "out of memory") }
        allocated.pointee.pb = io
        var r = avformat_open_input(&opened, nil, nil, nil)
        guard r >= 0, let opened else { throw InputError(reason: "not an image (\(MediaInput.describe(r)))") }
        container = opened
        r = avformat_find_stream_info(opened, nil)
        var decoder: UnsafePointer<AVCodec>?
        let index = r < 0 ? r : av_find_best_stream(opened, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let stream = opened.pointee.streams[Int(index)] else {
            throw InputError(reason: "not an image (\(MediaInput.describe(index)))")
        }
        isJPEG = stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_MJPEG
        codec = avcodec_alloc_context3(decoder)
        packet = av_packet_alloc()
        guard let codec, let packet else { throw InputError(reason: "out of memory") }
        r = avcodec_parameters_to_context(codec, stream.pointee.codecpar)
        // Damage is an error here, not something to hide: a cover half grey is worse than none.
        codec.pointee.err_recognition |= AV_EF_EXPLODE
        if r >= 0 { r = avcodec_open2(codec, decoder, nil) }
        guard r >= 0 else { throw InputError(reason: "cannot open the \(String(cString: decoder.pointee.name)) decoder (\(MediaInput.describe(r)))") }
        while true {
            r = avcodec_receive_frame(codec, frame)
            if r >= 0 { break }
            guard r == cff_error_again() else { throw InputError(reason: "a damaged image (\(MediaInput.describe(r)))") }
            r = av_read_frame(opened, packet)
            if r < 0 {
                avcodec_send_packet(codec, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == index else { continue }
            r = avcodec_send_packet(codec, packet)
            guard r >= 0 || r == cff_error_again() else { throw InputError(reason: "a damaged image (\(MediaInput.describe(r)))") }
        }
        guard frame.pointee.width > 0, frame.pointee.height > 0 else { throw InputError(reason: "an image of no size") }
    }
}
