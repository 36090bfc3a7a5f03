import BoomicCore
import BoomicLibrary
import BoomicStation

/// What every request of the HTTP front reads: the library (its newest basis and session), the
/// station (its rooms and change feed), the accounts, the endpoint table and the settings. One
/// per server, shared by every request; immutable but for the scan it may run.
public final class HTTPContext: Sendable {
    public let library: any StationLibrary
    /// The rooms of `boomic serve`; nil for a front without players (tests).
    public let station: Station?
    /// The library's music folders, one Subsonic music folder each (id = position + 1).
    public let folders: [String]
    public let authenticator: any SubsonicAuthenticator
    /// OpenSubsonic's `serverVersion`: Boomic's version.
    public let version: String
    /// The path the front is served under (`--http-base /music`): "" or `/NAME…` without a
    /// trailing slash.
    public let basePath: String
    /// How long a failed login waits before it is answered: a guesser gets one try per delay
    /// per connection, and no event loop waits (the request's task sleeps).
    public let loginDelay: Duration
    /// The endpoints by name (without `.view`).
    public let endpoints: [String: SubsonicEndpoint]
    /// The front's one-line notes (failed logins, a scan that failed): the CLI prints them.
    public let warn: @Sendable (String) -> Void
    let scans: ScanJobs
    /// Scrobbles, now playing, bookmarks and play queues, and the queue their commits run on.
    public let annotations: AnnotationContext
    /// The catalog of the newest basis, built once per basis (`SubsonicCall.catalog()`).
    public let catalogs = CatalogCache()
    /// The web page's logged-in sessions (in memory: a restart logs out).
    public let sessions: WebSessions
    /// The routes of the web page's API (`BASE/api/…`).
    public let webRoutes: [WebRoute]
    /// The rooms' change feed as the page's event streams read it (`RoomEvents`).
    public let roomFeed = RoomFeed()

    /// - rescan: the library's rescan (`startScan`), run on a thread of its own; by default
    ///   Boomic's import over the music folders as one transaction.
    public init(library: any StationLibrary, station: Station?, folders: [String], authenticator: any SubsonicAuthenticator,
                version: String, basePath: String = "", loginDelay: Duration = .seconds(1),
                endpoints: [SubsonicEndpoint] = SubsonicEndpoints.all,
                webRoutes: [WebRoute] = WebAPI.all, sessions: WebSessions = WebSessions(),
                rescan: (@Sendable () throws -> Void)? = nil, warn: @escaping @Sendable (String) -> Void) {
        self.library = library
        self.station = station
        self.folders = folders
        self.authenticator = authenticator
        self.version = version
        self.basePath = Self.normalized(basePath: basePath)
        self.loginDelay = loginDelay
        self.endpoints = Dictionary(endpoints.map { ($0.name, $0) }) { _, later in later }
        self.webRoutes = webRoutes
        self.sessions = sessions
        self.warn = warn
        let session = library.session
        annotations = AnnotationContext(session: session)
        scans = ScanJobs(rescan: rescan ?? {
            _ = try ImportFlow.run(session, given: [], within: [], reread: false, message: "subsonic startScan", events: SilentEvents())
        }, warn: warn)
    }

    /// The newest basis: what a call reads from start to end.
    public var basis: DataBasis { library.basis }

    /// `/music/` and `music` as `/music`; `/` and "" as "".
    public static func normalized(basePath: String) -> String {
        let parts = basePath.split(separator: "/", omittingEmptySubsequences: true)
        return parts.isEmpty ? "" : "/" + parts.joined(separator: "/")
    }
}
