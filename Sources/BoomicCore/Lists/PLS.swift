import Foundation

/// The `.pls` playlist (Winamp's, still written by VLC, Audacious and radio sites): an INI
/// `[playlist]` section of `File1=…`, `Title1=…`, `Length1=…`.
///
/// Read as MPD reads it: keys without regard to case, spaces around keys and values dropped,
/// entries by their number (so `File2` before `File1` still comes second), the section ending at
/// the next one. Unlike MPD, a file without `NumberOfEntries` still lists its entries.
public enum PLS {
    /// MPD's bound on entries: a hostile `File999999999=` allocates nothing.
    public static let maxEntries = 65_536

    /// The paths the file lists, in its numbering, each as `M3U.path(of:base:)` reads an entry;
    /// nil when the text has no `[playlist]` section.
    public static func parse(_ text: String, base: String) -> [String]? {
        var inSection = false, sawSection = false
        var files: [Int: String] = [:]
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                if inSection { break } // another section: MPD reads only [playlist]
                inSection = line.lowercased() == "[playlist]"
                sawSection = sawSection || inSection
                continue
            }
            guard inSection, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            guard key.hasPrefix("file"), let n = Int(key.dropFirst(4)), (1...maxEntries).contains(n) else { continue }
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if !value.isEmpty { files[n] = M3U.path(of: String(value), base: base) }
        }
        guard sawSection else { return nil }
        return files.keys.sorted().compactMap { files[$0] }
    }
}
