import BoomicCore

/// Finds audio files under music folders and reads what they say.
///
/// Two speeds, because a rescan of an unchanged library must not open a single file:
/// - `walk(_:)` lists audio files with their size and mtime (stat only);
/// - `read(_:art:)` and `readAll(_:art:progress:)` open files with TagLib and normalise their
///   tags, audio properties, fingerprint and cover into `FileFacts`.
///
/// Nothing here prints; failures come back as `MediaError` values for the CLI to show.
public struct Scanner: Sendable {
    /// The default audio file extensions (lower case, without the dot).
    public static let defaultExtensions: Set<String> = [
        "flac", "mp3", "wav", "ogg", "oga", "opus", "m4a", "mp4", "aac", "aif", "aiff", "wv", "ape", "mpc",
    ]

    /// File extensions the walk keeps, lower case, without the dot.
    public var extensions: Set<String>
    /// Bytes per fingerprint window (`Fingerprint.defaultWindow`).
    public var fingerprintWindow: Int
    /// How many files `readAll` reads at once; defaults to the number of active cores.
    public var concurrency: Int

    public init(extensions: Set<String> = Scanner.defaultExtensions,
                fingerprintWindow: Int = Fingerprint.defaultWindow,
                concurrency: Int? = nil) {
        self.extensions = Set(extensions.map { $0.lowercased() })
        self.fingerprintWindow = fingerprintWindow
        self.concurrency = max(1, concurrency ?? activeProcessorCount())
    }
}
