/// One client's MPD conversation as a state machine: a request line in, actions out (answer
/// these bytes, run this off the loop, wait for idle, close), carried out by its connection
/// (`SessionPort`) in the order they come. It knows no channel: the connection reads, frames
/// and writes. One request at a time — a command, a command list, or `idle` — each answered
/// with `OK` or one `ACK` line, in the order they came: while work of one runs off the loop, or
/// its client has not taken the answers so far, nothing after it is carried out.
final class MPDSession {
    /// What the server announces: the protocol version of Debian 12's MPD.
    static let greeting = "OK MPD 0.23.5\n"
    /// More commands in one list than any client sends: refused, not run.
    static let maxListLength = 10_000

    let server: ServerContext
    let client: ClientState
    /// A command list being read (`command_list_begin` … `command_list_end`).
    private var list: (ok: Bool, lines: [MPDCommandLine])?
    /// A command list that went over the limit: the rest of it is skipped.
    private var listOverflowed = false
    /// A command list waiting for its client to take the answers so far: what is left of it,
    /// carried on when the client takes them (`writable`). One list's answers are never all
    /// held at once (9,999 `listallinfo` to a client that does not read would be gigabytes).
    private var pausedList: ListPlace?
    /// Work off the loop, until its outcome comes back (`resume`).
    private var blocked: Blocked?

    init(server: ServerContext, client: ClientState) {
        self.server = server
        self.client = client
    }

    /// The next request can be carried out: no list paused, no work off the loop.
    var isReady: Bool { pausedList == nil && blocked == nil }
    /// Work of this client's runs off the loop.
    var isBlocked: Bool { blocked != nil }
    /// Between requests: no list being read or run, no work off the loop.
    var isSettled: Bool { list == nil && pausedList == nil && blocked == nil }

    /// Carries out one request. False when it stands where it is: its work off the loop decides
    /// (`resume`) whether it is passed or carried out again.
    func take(_ request: RequestLine, _ port: SessionPort) -> Bool {
        switch request {
        case .tooLong:
            port.perform(.text(MPDError(.argument, "line too long").line + "\n"))
        case .badText:
            port.perform(.text(MPDError(.argument, "not UTF-8").line + "\n"))
        case let .line(text):
            return take(text, port)
        }
        return true
    }

    private func take(_ text: String, _ port: SessionPort) -> Bool {
        if client.mayBeIdle {
            // MPD drops the spaces and tabs that end a line, not those that start one.
            if text.hasPrefix("noidle"), text.utf8.dropFirst(6).allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                // The idle's answer: what ended it (a change just now), or nothing changed;
                // nothing when it was answered already (MPD says nothing either).
                if let changed = client.idle.endWait() { port.perform(.text(Self.idleAnswer(changed))) }
                client.mayBeIdle = false
                return true
            }
            let (waiting, changed) = client.idle.over()
            // In idle, only noidle is allowed; MPD hangs up on anything else.
            guard !waiting else {
                port.perform(.close)
                return true
            }
            // A change ended the idle before this request came, and its answer is on its way
            // to this loop from the thread that made it: it goes first, here.
            if let changed { port.perform(.text(Self.idleAnswer(changed))) }
        }
        client.mayBeIdle = false
        // The poll every client keeps sending: its last answer again while nothing it is made of
        // changed (what `CommandTable` would answer, without the parsing and the dispatch).
        if list == nil, text == "status", client.authenticated, let answer = StatusCommands.keptAnswer(for: client, server: server) {
            port.perform(.bytes(answer))
            return true
        }
        // Every MPD command starts with a lower-case letter; MPD hangs up without an answer on
        // a line that does not (an empty one, `PING`, a badly routed HTTP request).
        guard let first = text.utf8.first, first >= 0x61 && first <= 0x7A else {
            port.perform(.close)
            return true
        }
        // `noidle` while not waiting does nothing, in a command list too (MPD takes it before
        // the list does, so it is no command of the list and gets no `list_OK`).
        if text == "noidle" { return true }
        let line: MPDCommandLine
        do { line = try MPDCommandLine.parse(text) } catch {
            port.perform(.text(error.line + "\n"))
            if MPDCommandLine.hasNoCommandWord(error) { port.perform(.close) }
            return true
        }
        if list != nil {
            if line.command == "command_list_end" {
                runList(port)
            } else if listOverflowed {
                return true
            } else if list!.lines.count >= Self.maxListLength {
                listOverflowed = true
            } else {
                list!.lines.append(line)
            }
            return true
        }
        switch line.command {
        case "command_list_end":
            // Outside a list MPD knows no such command.
            port.perform(.text(MPDError(.unknown, "unknown command \"command_list_end\"").line + "\n"))
        case "command_list_begin", "command_list_ok_begin":
            list = (line.command == "command_list_ok_begin", [])
            listOverflowed = false
        case "noidle" where line.arguments.isEmpty:
            break  // not waiting: nothing to end (MPD says nothing either)
        case "noidle":
            // With arguments it is no command MPD knows.
            port.perform(.text(MPDError(.unknown, "unknown command \"noidle\"").line + "\n"))
        case "idle":
            idle(line, index: 0, port)
        default:
            switch run(line, index: 0, ending: "OK\n", list: nil, port) {
            case .done, .stopped: break
            case .stands: return false
            }
        }
        return true
    }

    /// How one command of a request went.
    private enum Step {
        /// Answered (or failed): the next one follows.
        case done
        /// Answered, and nothing after it runs now (a failure ends its list; a close; a long
        /// answer or work off the loop under way).
        case stopped
        /// It waits off the loop where it stands, and is carried out again or passed then.
        case stands
    }

    /// Runs one command (outside a list, `list` is nil) and answers it with `ending` after its
    /// response.
    private func run(_ line: MPDCommandLine, index: Int, ending: String, list: ListPlace?, _ port: SessionPort) -> Step {
        switch CommandTable.run(line, client: client, server: server, index: index) {
        case let .success(invocation):
            // `close` and `kill` end the connection without an answer, as MPD's do.
            if invocation.closes {
                port.perform(.close)
                return .stopped
            }
            if let work = invocation.blocking {
                block(Background(lane: .serial, command: line.command, index: index) { () throws(MPDError) -> Outcome in
                    try work()
                    return .answered(nil)
                }, ending: ending, list: list.map { $0.advanced }, standing: false, port)
                return .stopped
            }
            if let read = invocation.reading {
                block(Background(lane: .beside, command: line.command, index: index) { () throws(MPDError) -> Outcome in
                    .answered(try read())
                }, ending: ending, list: list.map { $0.advanced }, standing: false, port)
                return .stopped
            }
            guard port.perform(.response(invocation.response, ending: ending, command: line.command, index: index)) else {
                return .stopped
            }
            return port.isStreaming ? .stopped : .done
        case let .failure(error) where error.isRoomRestarting:
            // Another client's `moveoutput` replaces the room's player, or the room sleeps: the
            // command waits for the new player (queued behind the restart, or woken here, off
            // the loop), then it is carried out again.
            let (rooms, room) = (server.rooms, client.room)
            block(Background(lane: .serial, command: line.command, index: index) { () throws(MPDError) -> Outcome in
                _ = rooms.player(room)
                return .again
            }, ending: ending, list: list, standing: true, port)
            return .stands
        case let .failure(error):
            port.perform(.text(error.line + "\n"))
            return .stopped
        }
    }

    private func runList(_ port: SessionPort) {
        guard let (ok, lines) = list else { return }
        list = nil
        if listOverflowed {
            listOverflowed = false
            port.perform(.text(MPDError(.argument, "command list too long (over \(Self.maxListLength) commands)").line + "\n"))
            return
        }
        continueList(ListPlace(ok: ok, lines: lines, next: 0), port)
    }

    /// Runs a list from `place.next` on; pauses (`pausedList`) when the client has not taken
    /// the answers so far, after at least one command, so that every call makes progress.
    private func continueList(_ place: ListPlace, _ port: SessionPort) {
        let (ok, lines) = (place.ok, place.lines)
        for i in place.next..<lines.count {
            let line = lines[i]
            if i > place.next, !port.isWritable {
                pausedList = ListPlace(ok: ok, lines: lines, next: i)
                return
            }
            if ["command_list_begin", "command_list_ok_begin"].contains(line.command) {
                // A list in a list: MPD reads it as no command at all.
                port.perform(.text(MPDError(.unknown, "unknown command \"\(line.command)\"", index: i).line + "\n"))
                return
            }
            if line.command == "noidle" {
                // A bare `noidle` was taken before the list; with arguments it is no command.
                port.perform(.text(MPDError(.unknown, "unknown command \"noidle\"", index: i).line + "\n"))
                return
            }
            if line.command == "idle" {
                // As in MPD, an idle ends the list: what follows it is not run, and the list
                // gets no `OK`; the idle's answer comes when it ends.
                idle(line, index: i, port)
                return
            }
            let here = ListPlace(ok: ok, lines: lines, next: i)
            switch run(line, index: i, ending: ok ? "list_OK\n" : "", list: here, port) {
            case .done: continue
            case .stands: return
            case .stopped:
                // A long answer goes on as the client reads it; the list after it.
                if port.isStreaming { pausedList = here.advanced }
                return
            }
        }
        port.perform(.text("OK\n"))
    }

    /// Hands work off the loop; nothing more is carried out for this client until `resume`.
    /// `standing`: the request itself stands where it was read (or at `list.next`).
    private func block(_ work: Background, ending: String, list: ListPlace?, standing: Bool, _ port: SessionPort) {
        blocked = Blocked(ending: ending, list: list, standing: standing)
        port.perform(.background(work))
    }

    /// The work off the loop is done: its answer, then the rest of its command list, as if it
    /// had never left the loop. True when the request that stood waiting is passed.
    func resume(_ outcome: Outcome, _ port: SessionPort) -> Bool {
        guard let done = blocked else { return false }
        blocked = nil
        switch outcome {
        case let .failed(error):
            port.perform(.text(error.line + "\n"))
        case .again, .answered:
            if case let .answered(response) = outcome {
                port.perform(.response(response ?? MPDResponse(), ending: done.ending, command: "", index: 0))
            }
            if let rest = done.list {
                continueList(done.standing && outcome.passes ? rest.advanced : rest, port)
            }
        }
        return done.standing && done.list == nil && outcome.passes
    }

    /// The client took its answers: a paused list goes on.
    func writable(_ port: SessionPort) {
        guard let paused = pausedList else { return }
        pausedList = nil
        continueList(paused, port)
    }

    private func idle(_ line: MPDCommandLine, index: Int, _ port: SessionPort) {
        guard client.authenticated else {
            port.perform(.text(MPDError(.permission, "you don't have permission for \"idle\"", command: "idle", index: index).line + "\n"))
            return
        }
        var mask: Set<Subsystem> = []
        for name in line.arguments {
            guard let s = Subsystem(rawValue: name.lowercased()) else {
                port.perform(.text(MPDError(.argument, "Unrecognized idle event: \(name)", command: "idle", index: index).line + "\n"))
                return
            }
            mask.insert(s)
        }
        if mask.isEmpty { mask = Set(Subsystem.allCases) }
        client.mayBeIdle = true
        // Answered at once if something changed already (after the answers before it, before
        // those of the requests after it), else when a change wakes it (`idleEnded`), unless a
        // request read meanwhile took the answer first (`take`).
        port.perform(.idle(mask))
    }

    /// A change ended the client's `idle`: its answer, if no request took it first.
    func idleEnded(_ port: SessionPort) {
        guard let changed = client.idle.take() else { return }
        client.mayBeIdle = false
        port.perform(.text(Self.idleAnswer(changed)))
    }

    /// `changed: …` for each subsystem, in MPD's order, then `OK`.
    static func idleAnswer(_ changed: Set<Subsystem>) -> String {
        Subsystem.allCases.filter(changed.contains).map { "changed: \($0.rawValue)\n" }.joined() + "OK\n"
    }
}

/// A command list and the place of the next command to run in it.
private struct ListPlace {
    let ok: Bool
    let lines: [MPDCommandLine]
    let next: Int

    var advanced: ListPlace { ListPlace(ok: ok, lines: lines, next: next + 1) }
}

/// Work off the loop: what ends its answer (`OK`, `list_OK`, nothing) and the rest of its
/// command list; `standing`: the request itself is still where it was read (the waiting
/// request, or the list's `next`), to be carried out again or passed once answered.
private struct Blocked {
    let ending: String
    let list: ListPlace?
    let standing: Bool
}
