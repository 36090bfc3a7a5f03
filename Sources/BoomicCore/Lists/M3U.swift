import Foundation

/// Extended M3U in UTF-8 (`.m3u8`), the playlist format every player reads: one path per line,
/// with `#EXTM3U`, `#EXTINF:seconds,Artist - Title` and `#PLAYLIST:name` as comments.
///
/// Pure text in, text out; which songs the paths name is the caller's business.
public enum M3U {
    public struct Entry: Hashable, Sendable {
        public var path: String
        public var duration: Double?
        public var title: String?

        public init(path: String, duration: Double? = nil, title: String? = nil) {
            self.path = path
            self.duration = duration
            self.title = title
        }
    }

    /// The file's playlist name (`#PLAYLIST:`) and its paths, made absolute against `base` (the
    /// folder the file is in) and standardized. `file://` URLs are read as paths; other URLs
    /// (streams) are returned as they are, so the caller can say it skipped them.
    public static func parse(_ text: String, base: String) -> (name: String?, paths: [String]) {
        var name: String?
        var paths: [String] = []
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("\u{FEFF}") { line.removeFirst() }
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if line.hasPrefix("#PLAYLIST:") { name = String(line.dropFirst("#PLAYLIST:".count)).trimmingCharacters(in: .whitespaces) }
                continue
            }
            if line.hasPrefix("file://"), let url = URL(string: line), url.isFileURL {
                paths.append((url.path as NSString).standardizingPath)
            } else if line.range(of: "^[A-Za-z][A-Za-z0-9+.-]*://", options: .regularExpression) != nil {
                paths.append(line)
            } else {
                let path = line.hasPrefix("/") ? line : base + "/" + line
                paths.append((path as NSString).standardizingPath)
            }
        }
        return (name, paths)
    }

    /// The playlist as M3U8 text. With `relativeTo`, paths under that folder or beside it are
    /// written relative to it (`../Other/x.flac`), so the file and the music can move together.
    public static func render(name: String, entries: [Entry], relativeTo base: String?) -> String {
        var out = "#EXTM3U\n#PLAYLIST:\(oneLine(name))\n"
        for e in entries {
            if e.duration != nil || e.title != nil {
                out += "#EXTINF:\(Int((e.duration ?? -1).rounded())),\(oneLine(e.title ?? ""))\n"
            }
            out += (base.map { relative(e.path, to: $0) } ?? e.path) + "\n"
        }
        return out
    }

    /// `path` relative to the folder `base` (both absolute and standardized).
    public static func relative(_ path: String, to base: String) -> String {
        let p = path.split(separator: "/", omittingEmptySubsequences: true)
        let b = base.split(separator: "/", omittingEmptySubsequences: true)
        var common = 0
        while common < min(p.count, b.count) && p[common] == b[common] { common += 1 }
        let up = Array(repeating: "..", count: b.count - common)
        return (up + p[common...].map(String.init)).joined(separator: "/")
    }

    private static func oneLine(_ s: String) -> String {
        String(s.map { $0.isNewline ? " " : $0 })
    }
}
