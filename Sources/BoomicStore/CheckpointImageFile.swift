import BoomicSystem
import Foundation

/// The newest image checkpoint's bytes beside the log (`library.sqlite` → `library.image`),
/// which opening maps instead of copying the blob out of SQLite (storage.md, "Where it lives").
///
/// A cache of a cache: the file is used only when its 72-byte header equals the first 72 bytes of
/// the checkpoint row it stands for. The header holds the seq, the codec format, the total length
/// and the checksum of the directory, which holds every block's checksum; so equal headers mean
/// the same bytes, and a flipped byte in a block is still caught at its first touch. Anything
/// else (missing, foreign, truncated, another seq) is replaced from the row. The file is only
/// ever replaced whole by a rename (`AtomicFile.writeUnique`), so a process that mapped the old
/// one keeps reading it intact.
struct CheckpointImageFile: Sendable {
    /// The image's header, which names the bytes it heads.
    static let headerSize = 72

    let path: String

    /// The file beside the log at `logPath`: its name with `.image` for `.sqlite`.
    init(besideLog logPath: String) {
        let base = logPath.hasSuffix(".sqlite") ? String(logPath.dropLast(".sqlite".count)) : logPath
        path = base + ".image"
    }

    /// The file mapped, when it is a regular file that begins with `header`; nil otherwise.
    func mapped(matching header: [UInt8]) -> ImageBytes? {
        // A length other than the header's is refused before any byte past the header is read.
        guard let file = try? MappedFile(path: path), file.count >= header.count,
              file.bytes.prefix(header.count).elementsEqual(header),
              ImageLayout.totalLength(header) == UInt64(file.count) else { return nil }
        return ImageBytes(mapping: file)
    }

    /// Replaces the file with `bytes` (with the log's permission bits: it holds the same
    /// library), deletes the temporary files of killed writers, and maps what it wrote. Nil when
    /// it cannot be written (a full disk, a folder that is not writable) or another process
    /// replaced it meanwhile with other bytes: the caller then reads its own copy.
    func replace(with bytes: UnsafeRawBufferPointer, logPath: String) -> ImageBytes? {
        guard write(bytes, logPath: logPath) else { return nil }
        return mapped(matching: Array(bytes.prefix(Self.headerSize)))
    }

    /// `replace` without the mapping: whether the file was written.
    @discardableResult
    func write(_ bytes: UnsafeRawBufferPointer, logPath: String) -> Bool {
        guard bytes.count >= Self.headerSize else { return false }
        AtomicFile.removeLeftovers(of: path)
        let mode = (try? SystemCall.status(of: logPath).st_mode).map { $0 & 0o666 }
        return (try? AtomicFile.writeUnique(bytes, to: path, mode: mode)) != nil
    }
}
