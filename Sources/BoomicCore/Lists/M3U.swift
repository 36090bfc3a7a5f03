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
    /// (streams) are returned as they are, so the caller can say it skipped them. With
    /// `trimming`, spaces and tabs around an entry go, as MPD reads a playlist file (a file
    /// name may begin or end with spaces, so an import keeps them).
    public static func parse(_ text: String, base: String, trimming: Bool = false) -> (name: String?, paths: [String]) {
        var name: String?
        var paths: [String] = []
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            // Only line ends are stripped: a file name may begin or end with spaces.
            var line = Substring(raw)
            while line.last == "\r" { line.removeLast() }
            if line.first == "\u{FEFF}" { line.removeFirst() }
            if line.allSatisfy(\.isWhitespace) { continue }
            if line.hasPrefix("#") {
                if line.hasPrefix("#PLAYLIST:") { name = String(line.dropFirst("#PLAYLIST:".count)).trimmingCharacters(in: .whitespaces) }
                continue
            }
            if trimming { line = line.drop { $0 == " " || $0 == "\t" } }
            while trimming, line.last == " " || line.last == "\t" { line.removeLast() }
            paths.append(path(of: String(line), base: base))
        }
        return (name, paths)
    }

    /// What one entry of a playlist names: a path made absolute against `base` and
    /// standardized; a `file://` URL's path, percent escapes decoded (VLC and Audacious write
    /// them; a raw space is taken too); any other URL (a stream) as it is.
    public static func path(of entry: String, base: String) -> String {
        if let rest = fileURLPath(entry) {
            return normalized(rest.removingPercentEncoding ?? rest)
        }
        if isURL(entry) { return entry }
        return normalized(entry.hasPrefix("/") ? entry : base + "/" + entry)
    }

    /// A URL's scheme and `://` lead it: `http://…`, `sftp://…`.
    public static func isURL(_ entry: String) -> Bool {
        let bytes = entry.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8) else { return false }
        func letter(_ b: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b | 0x20) }
        func other(_ b: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
        }
        let scheme = bytes[..<colon]
        guard let first = scheme.first, letter(first) else { return false }
        return scheme.allSatisfy { letter($0) || other($0) }
    }

    /// The path of a `file://` URL (`file:///a/b`, `file://localhost/a/b`), escapes still in it;
    /// nil for anything else, a URL naming another host included.
    private static func fileURLPath(_ entry: String) -> String? {
        guard entry.utf8.count > 7, entry.prefix(7).lowercased() == "file://" else { return nil }
        let rest = entry.dropFirst(7)
        if rest.hasPrefix("/") { return String(rest) }
        if rest.lowercased().hasPrefix("localhost/") { return String(rest.dropFirst("localhost".count)) }
        return nil
    }

    /// `.` and `..` and repeated slashes removed by text alone, never by following symbolic
    /// links: the library keeps the paths as the scan walked them, links and all.
    public static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The playlist as M3U8 text. With `relativeTo`, paths under that folder or beside it are
    /// written relative to it (`../Other/x.flac`), so the file and the music can move together.
    public static func render(name: String, entries: [Entry], relativeTo base: String?) -> String {
        var out = "#EXTM3U\n#PLAYLIST:\(oneLine(name))\n"
        for e in entries {
            if e.duration != nil || e.title != nil {
                out += "#EXTINF:\(Int((e.duration ?? -1).rounded())),\(oneLine(e.title ?? ""))\n"
            }
            var path = base.map { relative(e.path, to: $0) } ?? e.path
            // A line starting with # is a comment, and leading spaces may be trimmed by readers.
            if path.first == "#" || path.first?.isWhitespace == true { path = "./" + path }
            out += path + "\n"
        }
        return out
    }

    /// `path` relative to the folder `base` (both absolute and standardized).
    public static func relative(_ path: String, to base: String) -> String {
        let p = path.split(separator: "/", omittingEmptySubsequences: true)
        let b = base.split(separator: "/", omittingEmptySubsequences: true)
        var common = 0
        while common < min(p.count, b.count) && p[common].utf8.elementsEqual(b[common].utf8) { common += 1 } // names are bytes
        let up = Array(repeating: "..", count: b.count - common)
        return (up + p[common...].map(String.init)).joined(separator: "/")
    }

    private static func oneLine(_ s: String) -> String {
        String(s.map { $0.isNewline ? " " : $0 })
    }
}
