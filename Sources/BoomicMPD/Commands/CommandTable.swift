/// Every command the server answers, by name, and how one is carried out: the permission
/// check, the argument count, then the command itself, each failing with MPD's own code and
/// text.
enum CommandTable {
    static let specs: [String: CommandSpec] = {
        var all: [String: CommandSpec] = [:]
        for spec in ConnectionCommands.all + StatusCommands.all + PlaybackCommands.all + QueueCommands.all
            + DatabaseCommands.all + StoredPlaylistCommands.all
            + UpdateCommands.all + ArtCommands.all + CommentCommands.all + StickerCommands.all
            + BoomicCommands.all {
            precondition(all[spec.name] == nil, "\(spec.name) defined twice")
            all[spec.name] = spec
        }
        // Handled by the connection itself; `idle` is listed by `commands`, the others are not
        // (`unlisted`), as MPD lists them.
        for name in ["idle"] + unlisted {
            all[name] = CommandSpec(name, 0...Int.max) { _ in }
        }
        return all
    }()

    /// Commands MPD's `commands` and `notcommands` leave out.
    static let unlisted = ["noidle", "command_list_begin", "command_list_ok_begin", "command_list_end"]

    /// What `commands` and `notcommands` list.
    static let names = specs.keys.filter { !unlisted.contains($0) }.sorted()

    /// Whether `commands` lists a command for this client (else `notcommands` does): by the
    /// password alone, as MPD decides. `config` is listed to a TCP client too, and answers
    /// that it is for local clients only, as MPD's does.
    static func allowed(_ name: String, for client: ClientState, server: ServerContext) -> Bool {
        guard let spec = specs[name] else { return false }
        return client.authenticated || spec.open
    }

    /// Runs one command line for a client; `index` is its place in a command list.
    static func run(_ line: MPDCommandLine, client: ClientState, server: ServerContext, index: Int) -> Result<Invocation, MPDError> {
        guard let spec = specs[line.command] else {
            return .failure(MPDError(.unknown, "unknown command \"\(line.command)\"", index: index))
        }
        guard client.authenticated || spec.open else {
            return .failure(MPDError(.permission, "you don't have permission for \"\(line.command)\"", command: line.command, index: index))
        }
        guard spec.arguments.contains(line.arguments.count) else {
            // MPD's words: "wrong number" where the count is fixed, else too few or too many.
            let which = spec.arguments.count == 1 ? "wrong number of"
                : line.arguments.count < spec.arguments.lowerBound ? "too few" : "too many"
            return .failure(MPDError(.argument, "\(which) arguments for \"\(line.command)\"", command: line.command, index: index))
        }
        var invocation = Invocation(server: server, client: client, command: line.command, args: line.arguments)
        do {
            try spec.run(&invocation)
            return .success(invocation)
        } catch {
            var e = error
            e.index = index
            if e.command.isEmpty { e.command = line.command }
            return .failure(e)
        }
    }
}
