import BoomicSystem
import CWavPack
import Glibc

/// A WavPack file open in libwavpack, read through descriptors `AudioFile` opened (the file and,
/// beside a hybrid one, its `.wvc` correction file): libwavpack's own open would open both by
/// path, and a FIFO named like either would hang it. One owner for the context, the reader
/// table libwavpack keeps a pointer to, and the files it reads, all released together.
///
/// Not `Sendable`: it belongs to its decoder's thread.
final class WavPackFile {
    let context: OpaquePointer
    /// The callbacks, at an address that stays put for as long as the context reads through it.
    private let reader: UnsafeMutablePointer<WavpackStreamReader64>
    /// What the context's reads reach through their `id`s: kept alive as long as it.
    private let files: [Source]

    /// Opens `path` with libwavpack's `flags`; with `OPEN_WVC`, the correction file `path` + "c"
    /// too when there is one (a missing or irregular one is left out: the lossy part still plays,
    /// as with `wvunpack`).
    init(path: String, flags: Int32) throws(AudioError) {
        let main = try Source(AudioFile.open(path))
        let correction = flags & OPEN_WVC != 0 ? (try? AudioFile.open(path + "c")).flatMap { try? Source($0) } : nil
        reader = .allocate(capacity: 1)
        reader.initialize(to: Source.callbacks)
        var error = [CChar](repeating: 0, count: 128)
        guard let context = WavpackOpenFileInputEx64(reader, main.id, correction?.id, &error, flags, 0) else {
            reader.deallocate()
            let text = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw AudioError(path: path, reason: "not a WavPack stream (\(text.isEmpty ? "libwavpack cannot open it" : text))")
        }
        self.context = context
        files = [main] + (correction.map { [$0] } ?? [])
    }

    deinit {
        WavpackCloseFile(context)
        reader.deallocate()
    }

    /// One file as libwavpack reads it: a position of its own over `pread`, and the one byte
    /// libwavpack may push back (it reads a byte ahead when it looks for a block header).
    private final class Source {
        let file: FileDescriptor
        let size: Int64
        var position: Int64 = 0
        var pushedBack: Int32 = -1

        init(_ file: FileDescriptor) throws(AudioError) {
            self.file = file
            do {
                size = Int64(try file.status().st_size)
            } catch {
                throw AudioError(path: file.path, reason: "cannot open: \(error.reason)", cause: error)
            }
        }

        var id: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

        static func of(_ id: UnsafeMutableRawPointer?) -> Source { Unmanaged<Source>.fromOpaque(id!).takeUnretainedValue() }

        func read(_ data: UnsafeMutableRawPointer, _ count: Int) -> Int32 {
            var done = 0
            if count > 0, pushedBack >= 0 {
                data.storeBytes(of: UInt8(truncatingIfNeeded: pushedBack), as: UInt8.self)
                pushedBack = -1
                position += 1
                done = 1
            }
            while done < count {
                let n = SystemCall.retryingInterrupts { pread(file.rawValue, data + done, count - done, off_t(position)) }
                if n <= 0 { break }
                done += n
                position += Int64(n)
            }
            return Int32(done)
        }

        func seek(to target: Int64) -> Int32 {
            guard target >= 0 else { return -1 }
            position = target
            pushedBack = -1
            return 0
        }

        /// Reading only: edits and truncation are refused, closing is the owner's.
        static let callbacks = WavpackStreamReader64(
            read_bytes: { id, data, count in of(id).read(data!, Int(count)) },
            write_bytes: { _, _, _ in 0 },
            get_pos: { id in of(id).position },
            set_pos_abs: { id, pos in of(id).seek(to: pos) },
            set_pos_rel: { id, delta, mode in
                let s = of(id)
                switch mode {
                case SEEK_SET: return s.seek(to: delta)
                case SEEK_CUR: return s.seek(to: s.position + delta)
                case SEEK_END: return s.seek(to: s.size + delta)
                default: return -1
                }
            },
            push_back_byte: { id, c in
                let s = of(id)
                guard s.pushedBack < 0, s.position > 0 else { return -1 }
                s.pushedBack = c
                s.position -= 1
                return c
            },
            get_length: { id in of(id).size },
            can_seek: { _ in 1 },
            truncate_here: { _ in -1 },
            close: { _ in 0 }
        )
    }
}
