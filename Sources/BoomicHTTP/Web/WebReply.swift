import Hummingbird
import HTTPTypes

/// What a handler of the page's API answers.
public enum WebReply: Sendable {
    /// A value as JSON (sorted keys, `/` unescaped), with 200 unless told.
    case json(any Encodable & Sendable, status: HTTPResponse.Status = .ok)
    /// `204 No Content`.
    case empty
    /// An HTTP answer made by the handler (media, a picture).
    case http(Response)
}
