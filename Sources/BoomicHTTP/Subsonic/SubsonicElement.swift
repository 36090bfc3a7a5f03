/// One element of a Subsonic answer, written once and encoded as XML or JSON by Subsonic's
/// conventions: scalars are attributes (JSON members), a nested element is a child element (a
/// JSON object), a list is the child element repeated (a JSON array, even of one or none), a
/// list of scalars is a child element per value with the value as its text (a JSON array of
/// values), and an element's text (a lyric's lines) is its XML text and JSON's `value` member.
///
/// Members keep the order they were added in, so answers read (and compare) the same every time.
public struct SubsonicElement: Sendable, Equatable {
    public enum Member: Sendable, Equatable {
        case value(SubsonicValue)
        case element(SubsonicElement)
        case elements([SubsonicElement])
        case values([SubsonicValue])
    }

    public private(set) var members: [(name: String, member: Member)] = []
    /// The element's text content: XML text, JSON `value`.
    public var text: String?

    public init() {}

    public init(_ attributes: KeyValuePairs<String, SubsonicValue?>) {
        for (name, value) in attributes { self[name] = value }
    }

    /// A scalar member by name; setting nil removes it (Subsonic leaves out what it does not
    /// know rather than writing an empty value). Setting one already there replaces it in place.
    public subscript(name: String) -> SubsonicValue? {
        get {
            guard let i = members.firstIndex(where: { $0.name == name }), case let .value(v) = members[i].member else { return nil }
            return v
        }
        set { set(name, newValue.map(Member.value)) }
    }

    /// A nested element, a list of elements or a list of values under `name`.
    public mutating func set(_ name: String, _ member: Member?) {
        let at = members.firstIndex { $0.name == name }
        switch (at, member) {
        case let (i?, member?): members[i].member = member
        case let (i?, nil): members.remove(at: i)
        case let (nil, member?): members.append((name, member))
        case (nil, nil): break
        }
    }

    /// An element with room for `capacity` members, for a builder that knows how many it adds.
    init(capacity: Int) { members.reserveCapacity(capacity) }

    /// Adds a member that is not set yet, without looking for it as `set` and the subscript do:
    /// for a builder that sets each name once (`SubsonicSong.child`, the longest element, is
    /// written for every song of a page). Nil adds nothing.
    mutating func add(_ name: String, _ value: SubsonicValue?) {
        if let value { members.append((name, .value(value))) }
    }

    mutating func add(_ name: String, _ member: Member) { members.append((name, member)) }

    public mutating func set(_ name: String, element: SubsonicElement) { set(name, .element(element)) }
    public mutating func set(_ name: String, list: [SubsonicElement]) { set(name, .elements(list)) }
    public mutating func set(_ name: String, values: [SubsonicValue]) { set(name, .values(values)) }

    /// The member under `name`, for tests and for handlers that build on one another's answers.
    public func member(_ name: String) -> Member? { members.first { $0.name == name }?.member }

    public static func == (a: SubsonicElement, b: SubsonicElement) -> Bool {
        a.text == b.text && a.members.count == b.members.count
            && zip(a.members, b.members).allSatisfy { $0.name == $1.name && $0.member == $1.member }
    }
}
