import Foundation

/// Where the HTTP front listens: `--http [ADDR:]PORT` (or config.toml's `http`), written as
/// `--bind` is: `PORT` alone is loopback, an IPv6 address goes in brackets (`[::1]:4040`).
public struct HTTPAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `PORT`, `HOST:PORT` or `[IPv6]:PORT`; an error names `option`, the flag or key the text
    /// came from.
    public init(parsing text: String, option: String = "--http") throws(HTTPServerError) {
        let bad = HTTPServerError("\(option) \(Self.expectation(text))")
        if let port = Int(text) {
            guard (1...65_535).contains(port) else { throw bad }
            self.init(host: "127.0.0.1", port: port)
            return
        }
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (1...65_535).contains(port) else { throw bad }
        var host = String(text[..<colon])
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { throw bad }
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            throw bad  // an IPv6 address without its brackets: the port is not clear
        }
        guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == " " || $0 == "[" || $0 == "]" }) else { throw bad }
        self.init(host: host, port: port)
    }

    /// What the syntax is, against what was given: `takes [ADDRESS:]PORT (…), not 'x'`.
    public static func expectation(_ text: String) -> String {
        "takes [ADDRESS:]PORT (such as 4040, 127.0.0.1:4040 or [::1]:4040), not '\(text)'"
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Only this machine can connect: 127.0.0.0/8, ::1 (also as an IPv4-mapped address) and
    /// `localhost`. Any other name may resolve to anything, so it is not loopback.
    public var isLoopback: Bool {
        if host.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        return mapped && bytes[12] == 127
    }

    /// Refuses an address other machines can reach while no account exists: with no account
    /// nobody can log in, so the only reason to listen there is a mistake (the rule:
    /// loopback unless told otherwise, and never open to the network without accounts).
    public func check(hasAccounts: Bool) throws(HTTPServerError) {
        guard isLoopback || hasAccounts else {
            throw HTTPServerError("--http \(self) is reachable from other machines and no account exists: add one with `boomic user add NAME` first, or serve on 127.0.0.1")
        }
    }
}
