import BoomicCore

/// Finds audio files under music folders and reads what they say.
///
/// Two speeds, because a rescan of an unchanged library must not open a single file:
/// - `walk(_:options:)` / `list(roots:options:)` list audio files with size and mtime (stat only);
/// - `read(_:art:options:)` and `readAll(_:art:options:progress:)` open files with TagLib and
///   normalise their tags, audio properties, fingerprint and cover into `FileFacts`.
///
/// Nothing here prints; failures come back as `MediaError` values for the CLI to show.
///
/// ```swift
/// let listed = try MediaScanner.list(roots: ["/music"])
/// let art = try ArtStore(directory: library + "/art")
/// let (facts, failures) = MediaScanner.readAll(listed, art: art) { n in bar.advance(by: n) }
/// ```
public enum MediaScanner {
    /// The default audio file extensions (lower case, without the dot).
    public static let defaultExtensions: Set<String> = [
        "flac", "mp3", "wav", "ogg", "oga", "opus", "m4a", "mp4", "aac", "aif", "aiff", "wv", "ape", "mpc",
        "tta", "wma", "spx",
    ]

    /// How to scan; the defaults suit a library import.
    public struct Options: Hashable, Sendable {
        /// File extensions the walk keeps, lower case, without the dot.
        public var extensions: Set<String>
        /// Bytes per fingerprint window (`Fingerprint.defaultWindow`).
        public var fingerprintWindow: Int
        /// How many files `readAll` reads at once: the number of active cores by default.
        public var concurrency: Int
        /// Whether the walk lists only files whose real path lies inside the folders walked
        /// (or the homes): for files Boomic reads whole and sends, such as playlist files,
        /// where a link out of the music folders (`x.m3u` to `/etc/shadow`) must not even be
        /// listed. Audio files follow links anywhere (false), as MPD's
        /// `follow_outside_symlinks` does.
        public var confined: Bool

        public init(extensions: Set<String> = MediaScanner.defaultExtensions,
                    fingerprintWindow: Int = Fingerprint.defaultWindow,
                    concurrency: Int? = nil, confined: Bool = false) {
            self.extensions = Set(extensions.map { $0.lowercased() })
            self.fingerprintWindow = fingerprintWindow
            self.concurrency = max(1, concurrency ?? activeProcessorCount())
            self.confined = confined
        }
    }
}
