import Foundation
import Hummingbird

/// Authentication of `/rest` calls over a `SubsonicAuthenticator`: exactly one mechanism per
/// call — `apiKey` (OpenSubsonic), `u` with `t` and `s` (token), or `u` with `p` (the password,
/// plain or `enc:` hex) — else error 10 (none) or 43 (more than one). Only endpoints marked
/// open (`getOpenSubsonicExtensions`) pass without. A failure waits `loginDelay` (the
/// request's task sleeps; the event loop serves others) and is logged with the user name and
/// the client's address, never the password, token or key.
struct SubsonicAuthMiddleware: RouterMiddleware {
    typealias Context = HTTPRequestContext

    let front: HTTPContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let endpoint = front.endpoints[context.subsonic.endpoint], !endpoint.isOpen else {
            return try await next(request, context)  // open, or unknown: the handler answers 70
        }
        let parameters = context.subsonic.parameters
        try Self.checkVersion(parameters)
        var context = context
        context.subsonic.user = try await authenticate(parameters, origin: ForwardedOrigin(
            headers: request.headers, authority: request.head.authority, peer: context.peer))
        return try await next(request, context)
    }

    /// `v` is needed and must be a Subsonic 1.x version (OpenSubsonic clients also send later
    /// 1.x minors, which Boomic serves); `c` names the client.
    static func checkVersion(_ parameters: SubsonicParameters) throws(SubsonicError) {
        let version = try parameters.required("v")
        guard let major = version.split(separator: ".").first.flatMap({ Int($0) }) else {
            throw SubsonicError(.missingParameter, "Parameter v must be a version such as 1.16.1.")
        }
        if major < 1 { throw SubsonicError(.clientMustUpgrade) }
        if major > 1 { throw SubsonicError(.serverMustUpgrade) }
        _ = try parameters.required("c")
    }

    /// The user the call's credentials name, or the error that refuses them.
    func authenticate(_ p: SubsonicParameters, origin: ForwardedOrigin) async throws -> String {
        let login: SubsonicLogin
        let who: String
        if let key = p["apiKey"] {
            guard !p.contains("u"), !p.contains("p"), !p.contains("t"), !p.contains("s") else {
                throw SubsonicError(.conflictingMechanisms, "Multiple conflicting authentication mechanisms provided: apiKey with u, p, t or s.")
            }
            who = "an API key"
            login = await front.authenticator.authenticate(apiKey: key)
        } else {
            let user = try p.required("u")
            who = "user '\(Self.loggable(user))'"
            switch (p["t"], p["s"], p["p"]) {
            case (.some, .some, .some), (.some, nil, .some), (nil, .some, .some):
                throw SubsonicError(.conflictingMechanisms, "Multiple conflicting authentication mechanisms provided: p with t and s.")
            case let (token?, salt?, nil):
                login = await front.authenticator.authenticate(user: user, token: token.lowercased(), salt: salt)
            case (.some, nil, nil): throw SubsonicError.missing("s")
            case (nil, .some, nil): throw SubsonicError.missing("t")
            case let (nil, nil, password?):
                if password.hasPrefix("enc:") {
                    guard let clear = Self.hexDecoded(password.dropFirst(4)) else {
                        login = .refused(.wrongCredentials)
                        break
                    }
                    login = await front.authenticator.authenticate(user: user, password: clear)
                } else {
                    login = await front.authenticator.authenticate(user: user, password: password)
                }
            case (nil, nil, nil):
                throw SubsonicError(.missingParameter, "Required parameter is missing: p, or t and s, or apiKey.")
            }
        }
        switch login {
        case let .user(name): return name
        case let .refused(code):
            front.warn("failed login of \(who) from \(origin.client): \(code.message)")
            try? await Task.sleep(for: front.loginDelay)
            throw SubsonicError(code)
        }
    }

    /// A user name as the log shows it: one line, at most 64 characters (a name is whatever a
    /// client sent, and a log line is no place for 50 kB of it).
    static func loggable(_ name: String) -> String {
        let line = SubsonicError.oneLine(name)
        return line.count > 64 ? String(line.prefix(63)) + "…" : line
    }

    /// `enc:`'s hex (either case) as UTF-8 text; nil when it is not hex or not UTF-8.
    static func hexDecoded(_ hex: Substring) -> String? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            guard let hi = SubsonicParameters.hex(digits[i]), let lo = SubsonicParameters.hex(digits[i + 1]) else { return nil }
            bytes.append(hi << 4 | lo)
            i += 2
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
