import Hummingbird

/// What a handler answers: a payload in the `subsonic-response` (in the format asked), or an
/// HTTP response of its own (a stream, a picture).
public enum SubsonicReply: Sendable {
    case answer(SubsonicElement)
    case http(Response)

    /// `ping`'s answer: the header alone.
    public static var empty: SubsonicReply { .answer(SubsonicElement()) }

    /// An answer of one member, `name`, such as `musicFolders`.
    public static func answer(_ name: String, _ element: SubsonicElement) -> SubsonicReply {
        var body = SubsonicElement()
        body.set(name, element: element)
        return .answer(body)
    }
}
