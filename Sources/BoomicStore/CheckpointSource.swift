/// Where the checkpoint an open started from came from (tests assert that a second open maps the
/// image file rather than copying the checkpoint out of SQLite again).
enum CheckpointSource: Sendable, Equatable {
    /// No checkpoint: the log was replayed from the initial basis (or a state in memory used).
    case none
    /// Decoded in place from the row by a codec without images.
    case decoded
    /// The image file beside the log, mapped: nothing copied.
    case mappedImage
    /// Copied out of the row into the image file, which was then mapped.
    case wroteImage
    /// Copied out of the row into memory (a library that cannot be written, or time travel).
    case copiedBlob
}
