/// A call's parameters in the order sent, from the query string and, for a form POST
/// (OpenSubsonic's `formPost`), the body: a name may repeat (`id=1&id=2`), and `+` is a space
/// in both, as `application/x-www-form-urlencoded` and Subsonic's servlet read them.
public struct SubsonicParameters: Sendable, Equatable {
    public private(set) var pairs: [(name: String, value: String)]

    public init(_ pairs: [(name: String, value: String)] = []) { self.pairs = pairs }

    /// The pairs of an encoded query or form body (`a=1&b=x%20y`); a name without `=` has the
    /// empty value, an empty piece is skipped, a bad `%` escape is kept as it is.
    public init(encoded: String) {
        pairs = []
        append(encoded: encoded)
    }

    public mutating func append(encoded: String) {
        for piece in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let (name, value): (Substring, Substring)
            if let eq = piece.firstIndex(of: "=") {
                (name, value) = (piece[..<eq], piece[piece.index(after: eq)...])
            } else {
                (name, value) = (piece, "")
            }
            pairs.append((Self.decode(name), Self.decode(value)))
        }
    }

    /// The first value of `name`.
    public subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// Every value of `name`, in order.
    public func all(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    public func contains(_ name: String) -> Bool { pairs.contains { $0.name == name } }

    /// The value of a parameter the call needs; error 10 naming it when absent.
    public func required(_ name: String) throws(SubsonicError) -> String {
        guard let value = self[name] else { throw SubsonicError.missing(name) }
        return value
    }

    /// An integer parameter; error 10 when present but not a number, as a missing one would be.
    public func int(_ name: String) throws(SubsonicError) -> Int? {
        guard let text = self[name] else { return nil }
        guard let n = Int(text) else { throw SubsonicError(.missingParameter, "Parameter \(name) must be a whole number.") }
        return n
    }

    /// A boolean parameter (`true`/`false`, any case; `1`/`0`).
    public func bool(_ name: String) -> Bool? {
        switch self[name]?.lowercased() {
        case "true", "1": true
        case "false", "0": false
        default: nil
        }
    }

    /// Percent-decoding with `+` as a space; bytes that are not UTF-8 become U+FFFD.
    static func decode(_ text: some StringProtocol) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            let b = utf8[i]
            if b == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if b == UInt8(ascii: "%"), i + 2 < utf8.count, let hi = hex(utf8[i + 1]), let lo = hex(utf8[i + 2]) {
                bytes.append(hi << 4 | lo)
                i += 2
            } else {
                bytes.append(b)
            }
            i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    public static func == (a: SubsonicParameters, b: SubsonicParameters) -> Bool {
        a.pairs.count == b.pairs.count && zip(a.pairs, b.pairs).allSatisfy { $0 == $1 }
    }
}
