import ArgumentParser
import BoomicMPD
import BoomicSystem
import Foundation

/// Where `boomic status`, `next`, `queue` … find the server, and which room they drive.
struct ServerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The server: HOST:PORT or a socket path (default: $BOOMIC_SERVER, else 127.0.0.1:6600).", valueName: "ADDRESS"))
    var server: String?
    @Option(help: ArgumentHelp("The room (MPD partition) to drive (default: default).", valueName: "NAME"))
    var room: String?

    func validate() throws {
        do { _ = try MPDServer.Address(parsing: address, option: server == nil ? "BOOMIC_SERVER" : "--server") } catch {
            throw ValidationError(error.localizedDescription)
        }
    }

    var address: String { server ?? Environment.value("BOOMIC_SERVER") ?? "127.0.0.1:6600" }

    /// A connection to a Boomic server, in the room asked for.
    func connect() throws -> MPDClientConnection {
        do {
            let c = try MPDClientConnection(address: try MPDServer.Address(parsing: address, option: "--server"),
                                            password: Environment.value("BOOMIC_PASSWORD"))
            if let room { try c.command("partition", room) }
            return c
        } catch let failure as MPDClientConnection.Failure {
            if case .refused(.noExist, _) = failure { throw CLIError("no room named '\(room ?? "")'; 'boomic rooms' lists them") }
            throw CLIError(failure.localizedDescription)
        } catch {
            throw CLIError(error.localizedDescription)
        }
    }
}

/// Runs commands on the server, turning a refusal into one line.
private func send(_ options: ServerOptions, _ commands: [[String]]) throws -> [[(String, String)]] {
    let c = try options.connect()
    do {
        return try commands.map { try c.command($0[0], Array($0.dropFirst())) }
    } catch {
        throw CLIError(error.localizedDescription)
    }
}

/// An MPD answer's record for `--json`: a key said once is a string, a key said more than once
/// (a song's genres, artists, composers) the list of its values in order, as python-mpd2 gives
/// them; one dictionary kept only the first.
func jsonRecord(_ pairs: some Sequence<(String, String)>) -> [String: Any] {
    var record: [String: Any] = [:]
    for (key, value) in pairs {
        switch record[key] {
        case nil: record[key] = value
        case let one as String: record[key] = [one, value]
        case let many as [String]: record[key] = many + [value]
        default: break
        }
    }
    return record
}

/// The songs of a list of them (`playlistinfo`): each starts at its `file`.
func songRecords(_ pairs: [(String, String)]) -> [[(String, String)]] {
    var songs: [[(String, String)]] = []
    for pair in pairs {
        if pair.0 == "file" || songs.isEmpty { songs.append([]) }
        songs[songs.count - 1].append(pair)
    }
    return songs
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show what a running 'boomic serve' plays.")
    @OptionGroup var server: ServerOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let answers = try send(server, [["status"], ["currentsong"]])
        if json {
            let data = try JSONSerialization.data(withJSONObject: ["status": jsonRecord(answers[0]), "song": jsonRecord(answers[1])],
                                                  options: [.prettyPrinted, .sortedKeys])
            Out.bytes(data)
            Out.line()
            return
        }
        let status = Dictionary(answers[0], uniquingKeysWith: { a, _ in a })
        let song = Dictionary(answers[1], uniquingKeysWith: { a, _ in a })
        Out.line(Self.lines(status: status, song: song).joined(separator: "\n"))
    }

    static func lines(status: [String: String], song: [String: String]) -> [String] {
        var lines: [String] = []
        let state = status["state"] ?? "stop"
        if let title = song["Title"] ?? song["file"] {
            let who = [song["Artist"], song["Album"]].compactMap { $0 }
            lines.append((state == "play" ? "▶ " : state == "pause" ? "⏸ " : "■ ") + (who + [title]).joined(separator: " - "))
            let pos = (Int(status["song"] ?? "") ?? 0) + 1
            func time(_ s: String?) -> String {
                let t = Int((Double(s ?? "") ?? 0).rounded())
                return "\(t / 60):" + String(format: "%02d", t % 60)
            }
            lines.append("[\(state == "play" ? "playing" : state == "pause" ? "paused" : "stopped")] #\(pos)/\(status["playlistlength"] ?? "0")   \(time(status["elapsed"]))/\(time(status["duration"]))")
        }
        let on = { (k: String) in status[k] == "0" ? "off" : status[k] == "1" ? "on" : status[k] ?? "off" }
        lines.append("volume: \(status["volume"] ?? "?")%   repeat: \(on("repeat"))   random: \(on("random"))   single: \(on("single"))   consume: \(on("consume"))")
        return lines
    }
}

struct Next: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "next", abstract: "Play the next song (on a running 'boomic serve').")
    @OptionGroup var server: ServerOptions
    func run() throws { _ = try send(server, [["next"]]) }
}

struct Prev: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "prev", abstract: "Play the previous song, or the current one from its start after 3 s.")
    @OptionGroup var server: ServerOptions
    func run() throws { _ = try send(server, [["previous"]]) }
}

struct Pause: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause (on a running 'boomic serve').")
    @OptionGroup var server: ServerOptions
    func run() throws { _ = try send(server, [["pause", "1"]]) }
}

struct Toggle: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "toggle", abstract: "Pause if playing, play otherwise.")
    @OptionGroup var server: ServerOptions
    func run() throws {
        let state = Dictionary(try send(server, [["status"]])[0], uniquingKeysWith: { a, _ in a })["state"]
        _ = try send(server, [state == "play" ? ["pause", "1"] : ["play"]])
    }
}

struct Stop: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop playing (on a running 'boomic serve').")
    @OptionGroup var server: ServerOptions
    func run() throws { _ = try send(server, [["stop"]]) }
}

struct QueueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "Show or change the queue of a running 'boomic serve'.",
        subcommands: [Show.self, Add.self, Clear.self],
        defaultSubcommand: Show.self
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "List the queue; ▶ marks the current song.")
        @OptionGroup var server: ServerOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let answers = try send(server, [["status"], ["playlistinfo"]])
            let current = answers[0].first { $0.0 == "songid" }?.1
            let records = songRecords(answers[1])
            if json {
                Out.bytes(try JSONSerialization.data(withJSONObject: records.map(jsonRecord), options: [.prettyPrinted, .sortedKeys]))
                Out.line()
                return
            }
            let songs = records.map { Dictionary($0, uniquingKeysWith: { first, _ in first }) }
            for (i, s) in songs.enumerated() {
                let mark = s["Id"] == current ? "▶" : " "
                let text = [s["Artist"], s["Album"], s["Title"] ?? s["file"]].compactMap { $0 }.joined(separator: " - ")
                Out.line("\(mark) \(String(i + 1).leftPadded(to: 4)) \(text)")
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add the songs a query selects (as for ls) to the end of the queue.")
        @OptionGroup var server: ServerOptions
        @Argument(help: "The query.") var query: [String] = []

        func run() throws {
            let answer = try send(server, [["boomic", "add"] + query])[0]
            let added = answer.first { $0.0 == "added" }?.1 ?? "0"
            // A query that selects nothing is an error for a script, as mpc's add of nothing is.
            guard added != "0" else { throw CLIError("no song matches \(query.isEmpty ? "an empty query" : "'\(query.joined(separator: " "))'"); nothing added") }
            Out.line("added \(added) song\(added == "1" ? "" : "s")")
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Empty the queue.")
        @OptionGroup var server: ServerOptions
        func run() throws { _ = try send(server, [["clear"]]) }
    }
}

struct RoomsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rooms", abstract: "List the rooms (MPD partitions) of a running 'boomic serve', with what each plays.")
    @OptionGroup var server: ServerOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let c = try server.connect()
        do {
            let names = try c.command("listpartitions").filter { $0.0 == "partition" }.map(\.1)
            var rooms: [[String: Any]] = []
            for name in names {
                try c.command("partition", name)
                let status = Dictionary(try c.command("status"), uniquingKeysWith: { a, _ in a })
                let song = Dictionary(try c.command("currentsong"), uniquingKeysWith: { a, _ in a })
                // The room's own outputs: those enabled in it.
                var outputs: [String] = []
                var output = ""
                for (k, v) in try c.command("outputs") {
                    if k == "outputname" { output = v }
                    if k == "outputenabled", v == "1" { outputs.append(output) }
                }
                rooms.append(["name": name, "state": status["state"] ?? "stop", "outputs": outputs,
                              "song": song["Title"] ?? song["file"] ?? "", "artist": song["Artist"] ?? ""])
            }
            if json {
                Out.bytes(try JSONSerialization.data(withJSONObject: rooms, options: [.prettyPrinted, .sortedKeys]))
                Out.line()
                return
            }
            for r in rooms {
                let playing = (r["song"] as? String ?? "").isEmpty ? "" : "  \(r["artist"] as? String ?? "") - \(r["song"] as? String ?? "")"
                Out.line("\(r["name"] as? String ?? "")  [\(r["state"] as? String ?? "")]  \((r["outputs"] as? [String] ?? []).joined(separator: ", "))\(playing)")
            }
        } catch {
            throw CLIError(error.localizedDescription)
        }
    }
}
