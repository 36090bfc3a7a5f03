import Foundation
import Synchronization

/// The web page's logged-in sessions, held in memory: a restart of `boomic serve` logs everyone
/// out (Documentation/http.md, "The web page").
///
/// A session is named by 32 random bytes (the cookie's value) and carries its own CSRF token,
/// 32 other random bytes the page sends in `X-CSRF-Token` with every change. It ends at logout,
/// `idle` after its last request, or `lifetime` after the login, whichever comes first. Expired
/// sessions are dropped as new ones are made, so the table holds no more than the logins of
/// the last `lifetime`.
public final class WebSessions: Sendable {
    /// One login.
    public struct Session: Sendable, Equatable {
        /// The cookie's value.
        public let id: String
        public let user: String
        /// What `X-CSRF-Token` must say on every change.
        public let csrf: String
        public let created: Double
        public var lastUsed: Double
    }

    public let idle: Double
    public let lifetime: Double
    private let sessions = Mutex<[String: Session]>([:])
    /// The time now, seconds since 1970 (tests pass their own).
    let now: @Sendable () -> Double

    public init(idle: Duration = .seconds(7 * 86_400), lifetime: Duration = .seconds(30 * 86_400),
                now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.idle = Double(idle.components.seconds)
        self.lifetime = Double(lifetime.components.seconds)
        self.now = now
    }

    /// A new session of `user`.
    public func start(user: String) -> Session {
        let time = now()
        let session = Session(id: Self.randomToken(), user: user, csrf: Self.randomToken(), created: time, lastUsed: time)
        sessions.withLock { all in
            all = all.filter { isLive($0.value, at: time) }
            all[session.id] = session
        }
        return session
    }

    /// The live session a cookie names, its last use moved to now; nil for an unknown, ended or
    /// expired one.
    public func find(_ id: String) -> Session? {
        let time = now()
        return sessions.withLock { all -> Session? in
            guard var session = all[id] else { return nil }
            guard isLive(session, at: time) else {
                all[id] = nil
                return nil
            }
            session.lastUsed = time
            all[id] = session
            return session
        }
    }

    /// Ends a session (logout).
    public func end(_ id: String) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
    }

    /// How many sessions are held (live or not yet dropped).
    public var count: Int { sessions.withLock { $0.count } }

    private func isLive(_ session: Session, at time: Double) -> Bool {
        time - session.lastUsed < idle && time - session.created < lifetime
    }

    /// 32 bytes from the system's secure generator (`getrandom`), in base64url without padding:
    /// 43 characters that a cookie and a header carry as they are.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Compares two tokens in time that depends on their lengths only, not on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}
