import BoomicSystem
import Foundation

/// Why an account could not be read, added or changed: one sentence, what went wrong and what to
/// do. A failed login is not an error of this kind but an `AuthFailure` (Subsonic's codes).
public enum AccountError: Error, Equatable, Sendable {
    /// No account has this name.
    case unknownUser(String)
    /// An account has this name already (names are compared without regard to case).
    case userExists(String)
    /// The name cannot be an account's: `reason` says why.
    case invalidName(String, reason: String)
    /// An empty password.
    case emptyPassword
    /// An API key's label that is too long or holds control characters.
    case invalidLabel(String)
    /// The user has no API key with this id.
    case unknownKey(user: String, id: String)
    /// The key file is not the one the users file's passwords were encrypted with.
    case keyMismatch(keyFile: String, usersFile: String)
    /// The users file holds accounts but the key file that encrypts their passwords is gone.
    case keyMissing(keyFile: String, usersFile: String)
    /// A file is not what Boomic wrote: `detail` says what is wrong with it.
    case damaged(path: String, detail: String)
    /// A system call failed (reading, writing, locking one of the files).
    case system(SystemError)
    /// The system's libcrypto cannot be opened or lacks a function (`LibCrypto`).
    case cryptoMissing(String)
}

extension AccountError: LocalizedError, CustomStringConvertible {
    public var description: String {
        switch self {
        case .unknownUser(let name):
            return "there is no account named '\(name)'; 'boomic user ls' lists them"
        case .userExists(let name):
            return "there is an account named '\(name)' already; 'boomic user passwd \(name)' changes its password"
        case .invalidName(let name, let reason):
            return "'\(name)' cannot name an account: \(reason)"
        case .emptyPassword:
            return "the password is empty; give one of at least one character"
        case .invalidLabel(let label):
            return "'\(label.unicodeScalars.map { $0.escaped(asASCII: false) }.joined())' cannot label a key: "
                + "a label is at most 100 characters, without control characters"
        case .unknownKey(let user, let id):
            return "'\(user)' has no API key \(id); 'boomic user key ls \(user)' lists them"
        case .keyMismatch(let keyFile, let usersFile):
            return "\(keyFile) is not the key the passwords in \(usersFile) were encrypted with; "
                + "put back the key file that came with that users file (a backup keeps them together), "
                + "or move both away and add the accounts again"
        case .keyMissing(let keyFile, let usersFile):
            return "\(keyFile) is missing, and without it the passwords in \(usersFile) cannot be read; "
                + "put back the key file that came with that users file, or move the users file away and add the accounts again"
        case .damaged(let path, let detail):
            return "\(path) is damaged (\(detail)); restore it from a backup ('boomic backup' copies it), "
                + "or move it away and add the accounts again"
        case .system(let error):
            return error.description
        case .cryptoMissing(let detail):
            return "accounts need OpenSSL's libcrypto: \(detail)"
        }
    }

    public var errorDescription: String? { description }
}
