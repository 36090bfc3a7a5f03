import HTTPTypes

/// Where a request came from as the client sees the server: its address, the scheme and the
/// host it used. Behind a reverse proxy on the same machine (one that adds TLS), the proxy's
/// `X-Forwarded-For`, `-Proto` and `-Host` say these; they are believed only from a loopback
/// peer, so that a client on the network cannot claim another address in the log.
public struct ForwardedOrigin: Sendable, Equatable {
    /// The client's address: the proxy's last `X-Forwarded-For` entry (the one it added; the
    /// earlier ones are what the client claimed), else the peer's.
    public var client: String
    public var scheme: String
    /// `host[:port]` as the client wrote it; nil when the request named none.
    public var host: String?

    public init(client: String, scheme: String = "http", host: String? = nil) {
        self.client = client
        self.scheme = scheme
        self.host = host
    }

    public init(headers: HTTPFields, authority: String?, peer: String?) {
        let trusted = peer.map(Self.isLoopback) ?? false
        func forwarded(_ name: String) -> String? {
            guard trusted, let field = HTTPField.Name(name), let value = headers[field] else { return nil }
            let last = value.split(separator: ",").last.map { $0.trimmingCharacters(in: " \t") }
            return last.flatMap { $0.isEmpty ? nil : $0 }
        }
        client = forwarded("X-Forwarded-For") ?? peer ?? "unknown"
        let proto = forwarded("X-Forwarded-Proto")?.lowercased()
        scheme = proto == "https" ? "https" : "http"
        host = forwarded("X-Forwarded-Host") ?? authority
    }

    /// The absolute URL of `path` (which starts with `/` and includes the base path).
    public func url(_ path: String) -> String { "\(scheme)://\(host ?? "localhost")\(path)" }

    static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address.hasPrefix("127.") || address.hasPrefix("::ffff:127.") || address == "localhost"
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
