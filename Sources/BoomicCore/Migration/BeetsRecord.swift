/// One beets item as its library database holds it, with its album's row: what
/// `BeetsMapping` turns into a song's values.
///
/// Values are kept as SQLite stored them (beets' column types say little: `INTEGER` columns
/// hold 0 for "none", paths are bytes), so the rules of reading them live in one pure place.
public struct BeetsRecord: Equatable, Sendable {
    /// The item's `id` in beets, for messages.
    public var id: Int
    /// The file's absolute path (beets 2.x keeps it relative to its `directory`; the reader
    /// resolves it).
    public var path: String
    /// The item's own columns (`items`), by name.
    public var item: [String: BeetsValue]
    /// The item's flexible attributes (`item_attributes`), by name.
    public var flex: [String: String]
    /// The columns of the item's album (`albums`), empty for a singleton.
    public var album: [String: BeetsValue]
    /// The album's flexible attributes (`album_attributes`).
    public var albumFlex: [String: String]

    public init(id: Int, path: String, item: [String: BeetsValue] = [:], flex: [String: String] = [:],
                album: [String: BeetsValue] = [:], albumFlex: [String: String] = [:]) {
        self.id = id
        self.path = path
        self.item = item
        self.flex = flex
        self.album = album
        self.albumFlex = albumFlex
    }
}
