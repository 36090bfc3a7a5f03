/// What the household says about an album or an artist: starred (when) and rated.
///
/// A small library entity under an `AnnotationKey`, changed by whole values like playlists
/// (`Assertion.annotation`), so starring has history, `undo` and rollback. Songs keep their own
/// star and rating in their `favorite` and `rating` fields. An annotation that says nothing
/// (neither starred nor rated) is not kept: the generation deletes it.
public struct Annotation: Hashable, Sendable, Codable {
    /// When it was starred (seconds since 1970); nil when it is not starred.
    public var starred: Double?
    /// Stars from 1 to 5; nil when unrated.
    public var rating: Int?

    public init(starred: Double? = nil, rating: Int? = nil) {
        self.starred = starred
        self.rating = rating
    }

    public var isEmpty: Bool { starred == nil && rating == nil }
}
