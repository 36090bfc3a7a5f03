/// What an authenticator answers.
public enum SubsonicLogin: Sendable, Equatable {
    case user(String)
    case refused(SubsonicError.Code)
}
