/// A Subsonic error: one of the protocol's codes and a message of one line. Handlers throw it;
/// the front answers it in the format the client asked for, with HTTP 200 as Subsonic does (a
/// client reads `status="failed"`, not the HTTP status).
public struct SubsonicError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Subsonic's error codes (the API's `error` element).
    public enum Code: Int, Sendable, CaseIterable {
        case generic = 0
        case missingParameter = 10
        case clientMustUpgrade = 20
        case serverMustUpgrade = 30
        case wrongCredentials = 40
        case tokenNotSupported = 41
        case mechanismNotSupported = 42
        case conflictingMechanisms = 43
        case invalidAPIKey = 44
        case notAuthorized = 50
        case notFound = 70

        /// The message Subsonic's documentation gives the code.
        public var message: String {
            switch self {
            case .generic: "A generic error."
            case .missingParameter: "Required parameter is missing."
            case .clientMustUpgrade: "Incompatible Subsonic REST protocol version. Client must upgrade."
            case .serverMustUpgrade: "Incompatible Subsonic REST protocol version. Server must upgrade."
            case .wrongCredentials: "Wrong username or password."
            case .tokenNotSupported: "Token authentication not supported."
            case .mechanismNotSupported: "Provided authentication mechanism not supported."
            case .conflictingMechanisms: "Multiple conflicting authentication mechanisms provided."
            case .invalidAPIKey: "Invalid API key."
            case .notAuthorized: "User is not authorized for the given operation."
            case .notFound: "The requested data was not found."
            }
        }
    }

    public let code: Code
    /// One line: a client shows it as it is, and a log keeps it on one line.
    public let message: String

    public init(_ code: Code, _ message: String? = nil) {
        self.code = code
        self.message = Self.oneLine(message ?? code.message)
    }

    /// Error 10 naming the parameter that is missing.
    public static func missing(_ parameter: String) -> SubsonicError {
        SubsonicError(.missingParameter, "Required parameter is missing: \(parameter).")
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// Line breaks and other control characters as spaces, runs of spaces as one.
    static func oneLine(_ text: String) -> String {
        var out = ""
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let space = scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" || scalar == " "
            if space {
                if !lastWasSpace, !out.isEmpty { out.append(" ") }
                lastWasSpace = true
            } else {
                out.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        return lastWasSpace ? String(out.dropLast()) : out
    }
}
