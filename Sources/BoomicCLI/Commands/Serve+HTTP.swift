import BoomicAccounts
import BoomicHTTP
import BoomicLibrary
import BoomicMPD
import BoomicStation

/// `boomic serve`'s HTTP front: where it listens (`--http`, else config.toml's `http`), under
/// which path, against which accounts, and its start beside the MPD front.
extension Serve {
    /// The accounts the HTTP front authenticates against (`boomic user`, beside the library),
    /// and whether any exists (a front reachable from the network needs one).
    static func accounts(_ lib: LibrarySession) -> (authenticator: any SubsonicAuthenticator, hasAccounts: () -> Bool) {
        let accounts = Accounts(folder: lib.location)
        let authenticator = AccountsAuthenticator(accounts: accounts, warn: { Terminal.warn("boomic serve: \($0)") })
        return (authenticator, { (try? accounts.hasAccounts()) ?? false })
    }

    /// The HTTP address asked for, nil when the front is off; a bad one in config.toml is
    /// named with its file and line.
    func httpAddress(_ config: PlayerConfig) throws -> HTTPAddress? {
        if let http { return try HTTPAddress(parsing: http) }
        guard !config.http.value.isEmpty else { return nil }
        do {
            return try HTTPAddress(parsing: config.http.value, option: "http")
        } catch {
            guard case let .file(path) = config.http.source else { throw CLIError(error.message) }
            throw ConfigError(path: path, key: "http", line: config.lines["http"], reason: HTTPAddress.expectation(config.http.value))
        }
    }

    /// The HTTP front over the station; its rescan is the MPD `update`'s import, seen at once
    /// by both fronts.
    static func httpFront(library: ServerLibrary, rooms: Station, hub: IdleHub, authenticator: any SubsonicAuthenticator,
                          basePath: String) -> HTTPServer {
        let context = HTTPContext(
            library: library, station: rooms, folders: library.folders, authenticator: authenticator,
            version: Boomic.version, basePath: basePath,
            rescan: {
                _ = try ImportFlow.run(library.session, given: [], within: [], reread: false, message: "subsonic startScan",
                                       events: SilentEvents())
                library.refreshNow()
                if library.findPlaylistsNow() { hub.post([.database]) }
            },
            warn: { Terminal.warn("boomic serve: \($0)") })
        return HTTPServer(context: context)
    }
}
