import BoomicCore
import Hummingbird

extension LibraryAPI {
    /// `GET api/cover/{id}?size=300`: a song's, album's or artist's picture (or the art store's
    /// hash the rows give), scaled and cached: `getCoverArt`'s code, called with the session's
    /// user instead of credentials in the URL.
    static func cover(_ call: WebCall) async throws -> WebReply {
        var parameters = SubsonicParameters([("id", try call.path("id"))])
        if let size = try number(call, "size") { parameters.append(encoded: "size=\(size)") }
        return try await subsonic("getCoverArt", parameters, call, CoverEndpoints.coverArt)
    }

    /// `GET api/stream/{id}`: the song's audio for the page's `<audio>`: `stream`'s code (the
    /// file as it is with `Range` and `206`, or a transcode when `format=opus|mp3` asks, which
    /// the page does for a format browsers do not play), as the session's user via "web".
    static func stream(_ call: WebCall) async throws -> WebReply {
        var parameters = SubsonicParameters([("id", try call.path("id")), ("c", "web")])
        if let format = call.query["format"], ["opus", "mp3", "raw"].contains(format) { parameters.append(encoded: "format=\(format)") }
        return try await subsonic("stream", parameters, call, MediaEndpoints.stream)
    }

    /// Runs an OpenSubsonic media endpoint for the page: its bytes as they are, its error 70 as
    /// 404 and any other as 500, in the API's JSON.
    static func subsonic(_ name: String, _ parameters: SubsonicParameters, _ call: WebCall,
                         _ endpoint: (SubsonicCall) async throws -> SubsonicReply) async throws -> WebReply {
        let subsonic = SubsonicCall(endpoint: name, parameters: parameters, user: call.user, origin: call.origin,
                                    head: call.head, front: call.front)
        do {
            switch try await endpoint(subsonic) {
            case let .http(response): return .http(response)
            case .answer: throw WebError(.internalServerError, "\(name) answered no media.")
            }
        } catch let error as SubsonicError {
            throw WebError(error.code == .notFound ? .notFound : .internalServerError, error.message)
        }
    }
}
