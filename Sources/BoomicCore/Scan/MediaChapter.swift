/// One chapter of a file as the file states it: an MP3's ID3v2 `CHAP` frame.
///
/// Times are milliseconds from the start of the audio, unchecked: a chapter may end before it
/// starts, overlap another or lie past the file's end, and whoever makes songs of chapters
/// decides what to do with that. The byte offsets are the frame's optional hints (nil when
/// the frame leaves them unset).
public struct MediaChapter: Hashable, Sendable, Codable {
    /// The text of the chapter's embedded `TIT2` frame; nil when it has none.
    public var title: String?
    public var startMilliseconds: Int
    public var endMilliseconds: Int
    public var startByte: Int?
    public var endByte: Int?

    public init(title: String?, startMilliseconds: Int, endMilliseconds: Int,
                startByte: Int? = nil, endByte: Int? = nil) {
        self.title = title
        self.startMilliseconds = startMilliseconds
        self.endMilliseconds = endMilliseconds
        self.startByte = startByte
        self.endByte = endByte
    }
}
