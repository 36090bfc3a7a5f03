/// What one beets item brings to its song (`BeetsMapping.values`).
public struct BeetsValues: Equatable, Sendable {
    /// Tag fields, as `Song.edit` takes them.
    public var tags: [SongField: FieldValue] = [:]
    /// beets' `artist` (the credit) and `artists` (the list, beets 2.x).
    public var artist: String?
    public var artists: [String] = []
    public var userFields: [String: String] = [:]
    public var playcount: Int?
    public var skipcount: Int?
    public var lastplayed: Double?
    /// Stars, 0–5.
    public var rating: Int?
    public var added: Double?
    /// `name=value` of what could not be carried, and why.
    public var unknown: [String] = []

    public init() {}
}
