import Foundation
import Glibc
import Synchronization

/// Scaled covers on disk, under `$XDG_CACHE_HOME/boomic/covers/` (`~/.cache/boomic/covers/`
/// without it), one JPEG per picture and size, named by the picture's content hash (the art
/// store's) and the size: `0123456789abcdef-300.jpg`. A picture's hash changes with its bytes, so
/// an entry is never stale.
///
/// A file is written under a temporary name and renamed into place, so a reader never sees
/// half a picture. The cache is bounded to `maxFiles` pictures: after a write that passes it,
/// the oldest (by modification time; a hit does not refresh it) are removed down to three
/// quarters of it. Sizes are what clients ask (a few each), so the bound rarely bites; at
/// 300 px a picture is about 30 KB, 2,000 about 60 MB.
enum CoverCache {
    static let maxFiles = 2_000

    /// The folder used instead of the XDG one (tests).
    static let folderOverride = Mutex<String?>(nil)

    static var folder: String {
        if let folder = folderOverride.withLock({ $0 }) { return folder }
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return base + "/boomic/covers"
    }

    static func path(hash: String, size: Int) -> String { "\(folder)/\(hash)-\(size).jpg" }

    /// The cached picture, nil when there is none (or it cannot be read).
    static func read(hash: String, size: Int) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path(hash: hash, size: size)), !data.isEmpty else { return nil }
        return [UInt8](data)
    }

    /// Stores a picture; a failure (a read-only home) only means it is scaled again next time.
    static func write(_ bytes: [UInt8], hash: String, size: Int) {
        let folder = folder
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let target = path(hash: hash, size: size)
        let temporary = "\(folder)/.\(hash)-\(size).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else { return }
        if rename(temporary, target) != 0 { unlink(temporary); return }
        trim(folder)
    }

    /// Removes the oldest pictures when the folder holds more than `limit`, down to three
    /// quarters of it.
    static func trim(_ folder: String, limit: Int = maxFiles) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder), names.count > limit else { return }
        var dated: [(time: Int, path: String)] = []
        for name in names where name.hasSuffix(".jpg") {
            var st = stat()
            let path = folder + "/" + name
            if stat(path, &st) == 0 { dated.append((st.st_mtim.tv_sec * 1_000_000_000 + st.st_mtim.tv_nsec, path)) }
        }
        dated.sort { $0.time < $1.time }
        for entry in dated.prefix(max(0, dated.count - limit * 3 / 4)) { unlink(entry.path) }
    }
}
