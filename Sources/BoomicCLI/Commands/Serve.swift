import ArgumentParser
import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicPlayback
import BoomicHTTP
import BoomicStation
import BoomicMPD
import Dispatch
import Foundation

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the library and the player to MPD clients (mpc, ncmpcpp, phone apps).",
        discussion: """
            Speaks MPD's protocol (0.23) on 127.0.0.1:6600 unless --bind says otherwise, and plays on \
            the output config.toml names (or --output). One queue and one player serve every client; \
            the queue and position are saved as `boomic play` saves them, so `boomic play --resume` \
            and the next `boomic serve` go on from there. Changes other boomic commands commit are \
            seen at once. SIGINT, SIGTERM and a client's `kill` save and stop. See Documentation/serve.md. \
            With --http (or `http` in config.toml) it also serves the OpenSubsonic API over HTTP, in \
            the same process over the same rooms: see Documentation/http.md.
            """
    )

    @OptionGroup var options: LibraryOptions
    @Option(help: ArgumentHelp("Where clients connect: HOST:PORT, PORT, or an absolute path for a local socket.", valueName: "ADDRESS"))
    var bind = "127.0.0.1:6600"
    @Option(name: .customLong("password-file"), help: ArgumentHelp("A file whose first line is the password clients must send.", valueName: "FILE"))
    var passwordFile: String?
    @Option(help: ArgumentHelp("An output: alsa, alsa:DEVICE, null or wav:FILE (default: config.toml's, else alsa). Repeat it for several (one per room: MPD's moveoutput).", valueName: "OUTPUT"))
    var output: [String] = []
    @Option(help: ArgumentHelp("Equalizer: a preset, an AutoEq/Equalizer APO file, or bands such as 60=+3,1k=-2.", valueName: "SPEC"))
    var eq: String?
    @Option(help: ArgumentHelp("ReplayGain: off, track, album or auto (album unless random).", valueName: "MODE"))
    var replaygain: ReplayGainMode?
    @Flag(help: "Record no plays.")
    var noRecord = false
    @Option(help: ArgumentHelp("Serve OpenSubsonic over HTTP too, at [ADDRESS:]PORT (a port alone is 127.0.0.1; IPv6 in brackets). Off unless given here or as `http` in config.toml.", valueName: "ADDRESS"))
    var http: String?
    @Option(name: .customLong("http-base"), help: ArgumentHelp("The path the HTTP front is served under behind a proxy, such as /music (default: config.toml's `http_base`, else /).", valueName: "PATH"))
    var httpBase: String?

    func validate() throws {
        do { _ = try MPDServer.Address(parsing: bind) } catch { throw ValidationError(error.localizedDescription) }
        if let http {
            do { _ = try HTTPAddress(parsing: http) } catch { throw ValidationError(error.message) }
        }
        for output in output {
            do { _ = try SinkSpec(parsing: output) } catch { throw ValidationError(error.localizedDescription) }
        }
        if Set(output).count != output.count { throw ValidationError("each --output once") }
        if let eq { try Play.checkEQ(eq) }
    }

    func run() throws {
        var config = try PlayerConfig.load()
        config.output.override(output.first)
        config.replaygain.override(replaygain?.rawValue)
        config.eq.override(eq)
        let address = try MPDServer.Address(parsing: bind)
        let httpAddress = try httpAddress(config)
        let password = try passwordFile.map { path -> String in
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                  let line = text.split(whereSeparator: \.isNewline).first, !line.isEmpty else {
                throw CLIError("cannot read a password from \(path)")
            }
            return String(line)
        }
        let lib = try Library.open(at: options.location, create: false, resident: true)
        let accounts = Self.accounts(lib)
        if let httpAddress {
            do { try httpAddress.check(hasAccounts: accounts.hasAccounts()) } catch { throw CLIError(error.message) }
        }
        let sound = try Play.sound(config, profiles: lib.basis)
        let store = try PlayerStateStore(libraryLocation: lib.location)
        let specs = try (output.isEmpty ? [config.output.value] : output).map { try SinkSpec(parsing: $0) }
        let hub = IdleHub()
        let library = ServerLibrary(session: lib, folders: Self.musicFolders(lib))
        // Every room plays in real time, on null and wav: outputs too: its clients hear (or
        // watch) the position move as on a sound card.
        let rooms = Station(library: library, store: store, outputs: specs, sound: sound, hub: hub, record: !noRecord,
                            warn: { Terminal.warn("boomic serve: \($0)") })
        let following = library.follow(telling: hub, gone: { rooms.dropEntries(of: $0) }, shown: { rooms.refreshEntries(of: $0) })
        library.findPlaylists(telling: hub)
        let watching = lib.watch { Terminal.warn("boomic serve: \($0.localizedDescription)") }
        let stop = DispatchSemaphore(value: 0)
        let context = ServerContext(library: library, rooms: rooms, hub: hub, password: password, version: Boomic.version,
                                    stop: { stop.signal() })
        let server = MPDServer(context: context)
        let web = httpAddress.map { _ in
            Self.httpFront(library: library, rooms: rooms, hub: hub, authenticator: accounts.authenticator,
                           basePath: httpBase ?? config.httpBase.value)
        }
        do {
            try server.start(at: address)
            if let web, let httpAddress {
                do { try web.startWaiting(at: httpAddress) } catch {
                    server.stop()
                    throw error
                }
            }
        } catch {
            rooms.quitAll()
            // Before the library closes on the way out: a refresh of a closed library is no
            // second error line.
            watching.cancel()
            following.cancel()
            throw CLIError(error.localizedDescription)
        }
        // The songs clients see (`stats`): not those whose files were gone at the last scan.
        let present = library.snapshot.basis.songs.values.reduce(0) { $0 + ($1.missing ? 0 : 1) }
        Terminal.warn("boomic serve: listening on \(address)\(httpAddress.map { ", HTTP on \($0)" } ?? ""), \(present) songs")
        let signals = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        stop.wait()
        for s in signals { s.cancel() }
        web?.stopWaiting()
        server.stop()
        rooms.quitAll()
        watching.cancel()
        following.cancel()
        if let shortfall = lib.close() {
            Terminal.warn(Library.unfoldedWALWarning(database: lib.transactor.path, shortfall: shortfall))
        }
        if case let .unix(path) = address { unlink(path) }
    }
}
