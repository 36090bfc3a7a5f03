import Hummingbird
import HTTPTypes

extension HTTPContext {
    /// A Subsonic answer as an HTTP response: 200 (Subsonic says failure in the body) unless
    /// `status` says otherwise.
    func render(_ response: SubsonicResponse, as format: SubsonicFormat, status: HTTPResponse.Status = .ok) -> Response {
        let text = format.encode(response, serverVersion: version)
        return Response(status: status, headers: [.contentType: format.contentType], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
