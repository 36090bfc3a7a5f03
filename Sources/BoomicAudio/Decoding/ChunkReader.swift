import BoomicSystem
import Glibc

/// Reads bytes at an offset of an open file (`pread`), for the chunk walks of WAV and AIFF
/// headers and for the samples themselves: no file position to keep in step.
struct ChunkReader {
    let file: FileDescriptor
    let size: Int

    init(_ file: FileDescriptor) throws(SystemError) {
        self.file = file
        size = Int(try file.status().st_size)
    }

    /// Up to `count` bytes at `offset` into `buffer`; fewer only at the end of the file.
    func read(at offset: Int, count: Int, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        var done = 0
        while done < count {
            let n = SystemCall.retryingInterrupts {
                pread(file.rawValue, buffer.baseAddress! + done, count - done, off_t(offset + done))
            }
            guard n >= 0 else { throw SystemError(.read, path: file.path, errno: errno) }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// `count` bytes at `offset` (fewer at the end of the file), for headers.
    func bytes(at offset: Int, count: Int) throws(SystemError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        // withUnsafeMutableBytes only rethrows untyped errors, so carry the typed one out.
        let n = out.withUnsafeMutableBytes { b in Result { () throws(SystemError) in try read(at: offset, count: count, into: b) } }
        out.removeLast(count - (try n.get()))
        return out
    }
}

extension Array where Element == UInt8 {
    func le16(_ i: Int) -> Int { Int(self[i]) | Int(self[i + 1]) << 8 }
    func le32(_ i: Int) -> Int { le16(i) | le16(i + 2) << 16 }
    func be16(_ i: Int) -> Int { Int(self[i]) << 8 | Int(self[i + 1]) }
    func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
    func fourCC(_ i: Int) -> String { String(decoding: self[i..<(i + 4)], as: UTF8.self) }
}
