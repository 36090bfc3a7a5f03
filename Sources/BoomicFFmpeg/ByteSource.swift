import CFFmpeg
import Glibc

/// What libavformat reads an `InputFile` through: a custom I/O context (`avio_alloc_context`)
/// with a position of its own, so each `MediaInput` over the file reads independently and no
/// path is opened again. Owns the context and its buffer; the `AVFormatContext` that uses it
/// must be closed first (`avformat_close_input` leaves a custom context to its owner).
final class ByteSource {
    let file: InputFile
    private var position: Int64 = 0
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    /// libavformat's usual read size.
    private static let bufferSize: Int32 = 1 << 16

    init(_ file: InputFile) throws(InputError) {
        self.file = file
        guard let buffer = av_malloc(Int(Self.bufferSize)) else { throw InputError(reason: "out of memory") }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, opaque, { opaque, buffer, size in
            let source = Unmanaged<ByteSource>.fromOpaque(opaque!).takeUnretainedValue()
            let n = source.file.read(at: source.position, count: Int(size), into: buffer!)
            if n < 0 { return cff_error_io() }
            if n == 0 { return cff_error_eof() }
            source.position += Int64(n)
            return Int32(n)
        }, nil, { opaque, offset, whence in
            let source = Unmanaged<ByteSource>.fromOpaque(opaque!).takeUnretainedValue()
            let target: Int64
            switch whence & ~Int32(AVSEEK_FORCE) {
            case Int32(AVSEEK_SIZE): return source.file.size
            case SEEK_SET: target = offset
            case SEEK_CUR: target = source.position + offset
            case SEEK_END: target = source.file.size + offset
            default: return -1
            }
            guard target >= 0 else { return -1 }
            source.position = target
            return target
        })
        guard context != nil else {
            av_free(buffer)
            throw InputError(reason: "out of memory")
        }
    }

    deinit {
        // The buffer may have been replaced by libavformat: free the one the context holds.
        if let context { av_freep(&context.pointee.buffer) }
        avio_context_free(&context)
    }
}
