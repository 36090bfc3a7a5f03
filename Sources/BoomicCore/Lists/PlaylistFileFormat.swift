/// The playlist files other players leave in music folders, and `playlist import` reads: M3U
/// and M3U8, PLS and XSPF (the formats of Debian's MPD but its stream-only ASX and RSS).
public enum PlaylistFileFormat: String, CaseIterable, Sendable {
    case m3u, m3u8, pls, xspf

    /// The format a file's extension names, without regard to case; nil for any other file.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// The format of a file whose extension names none: an INI section is PLS, XML is XSPF,
    /// anything else a list of paths.
    public static func sniffed(_ text: String) -> PlaylistFileFormat {
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if start.lowercased().hasPrefix("[playlist]") { return .pls }
        return start.hasPrefix("<") ? .xspf : .m3u
    }

    /// The file's name for itself (M3U's `#PLAYLIST:`, XSPF's `<title>`) and the paths it lists, each read as
    /// `M3U.path(of:base:)` reads an entry; nil when the text is not of this format. With
    /// `trimming`, spaces around an M3U entry go, as MPD reads them (the other formats' values
    /// are always trimmed).
    public func parse(_ text: String, base: String, trimming: Bool = false) -> (name: String?, paths: [String])? {
        switch self {
        case .m3u, .m3u8: M3U.parse(text, base: base, trimming: trimming)
        case .pls: PLS.parse(text, base: base).map { (nil, $0) }
        case .xspf: XSPF.parse(text, base: base)
        }
    }
}
