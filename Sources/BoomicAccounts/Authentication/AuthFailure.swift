/// Why a Subsonic request was not authenticated, as Subsonic's error codes say it: the HTTP
/// front answers with `code` and `message` (OpenSubsonic's `error`).
///
/// A wrong name and a wrong password are one failure (40), so an answer never tells which names
/// exist.
public enum AuthFailure: Error, Equatable, Sendable {
    /// 10: a parameter the mechanism needs is absent (`u`, `p`, `t` or `s`).
    case missingParameter(String)
    /// 40: no account has this name, or the password or token is not its.
    case wrongCredentials
    /// 41: token authentication is refused for this account (Subsonic: LDAP users). Boomic
    /// stores every password it needs for tokens, so it never answers this; the front may.
    case tokenAuthenticationNotSupported
    /// 42: the mechanism is refused (OpenSubsonic's servers that turn off passwords).
    case mechanismNotSupported
    /// 43: more than one mechanism in one request (`apiKey` with `u`, `p`, `t` or `s`; `p`
    /// with `t` or `s`).
    case conflictingMechanisms
    /// 44: no account has this API key.
    case invalidAPIKey

    /// Subsonic's error code.
    public var code: Int {
        switch self {
        case .missingParameter: 10
        case .wrongCredentials: 40
        case .tokenAuthenticationNotSupported: 41
        case .mechanismNotSupported: 42
        case .conflictingMechanisms: 43
        case .invalidAPIKey: 44
        }
    }

    /// The error's message, in the words of Subsonic's and OpenSubsonic's documentation.
    public var message: String {
        switch self {
        case .missingParameter(let name): "Required parameter '\(name)' is missing."
        case .wrongCredentials: "Wrong username or password."
        case .tokenAuthenticationNotSupported: "Token authentication not supported for this user."
        case .mechanismNotSupported: "Provided authentication mechanism not supported."
        case .conflictingMechanisms: "Multiple conflicting authentication mechanisms provided."
        case .invalidAPIKey: "Invalid API key."
        }
    }
}
