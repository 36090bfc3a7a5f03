import BoomicCore
import BoomicLibrary

/// What the station needs of the library: the session that records plays and names the
/// library's folder, and the newest snapshot's songs, read whenever a room resolves a song.
public protocol StationLibrary: Sendable {
    var session: LibrarySession { get }
    /// The songs as the station plays them now (a front that follows commits hands the newest).
    var basis: DataBasis { get }
}

/// A library seen as of one basis: `boomic play`'s, which plays the songs of its start (or of
/// `--as-of`) to the end of its run.
public struct FixedLibrary: StationLibrary {
    public let session: LibrarySession
    public let basis: DataBasis

    public init(session: LibrarySession, basis: DataBasis) {
        self.session = session
        self.basis = basis
    }
}
