import BoomicCore
import BoomicPlayback
import BoomicStation

/// One command being carried out: its arguments, who asked, and the response it writes.
struct Invocation {
    let server: ServerContext
    let client: ClientState
    let command: String
    let args: [String]
    var response = MPDResponse()
    /// Set by `close`: the connection ends after the response.
    var closes = false
    /// Work that waits on more than the library (a room's players stopping and starting again
    /// on other outputs, which takes 0.1 s and up to the 2 s a player is given to stop): run
    /// off the event loop, one such work at a time, and answered when it is done, so that the
    /// other clients on the loop are not kept waiting. The client's own requests after it wait;
    /// its answer is `OK` or the error it throws (the command writes no response of its own).
    var blocking: (@Sendable () throws(MPDError) -> Void)?
    /// Work that reads files (a cover's bytes, a song file's tags): run off the event loop,
    /// beside the other clients' work, and answered with the response it makes, so that a file
    /// on a sleeping disk or a stalled network mount keeps no other client waiting. The
    /// client's own requests after it wait.
    var reading: (@Sendable () throws(MPDError) -> MPDResponse)?

    var snapshot: ServerLibrary.Snapshot { server.library.snapshot }
    /// The player of the client's room (a room deleted under it falls back to `default`).
    /// Kept by the connection while the rooms stay as they are, so a command takes no lock
    /// shared with every other client to find it.
    /// Throws `MPDError.roomRestarting` while another client's `moveoutput` replaces the
    /// room's player: a command to the player that is going would be lost, so the connection
    /// waits for the new one and carries the command out again (`MPDSession`). Throws it too
    /// while the room sleeps: waking it reads its state file and opens its outputs, which the
    /// connection has done off the loop before it carries the command out again.
    var player: ServerPlayer {
        get throws(MPDError) {
            guard !server.rooms.isRestarting(client.room) else { throw .roomRestarting }
            return try server.player(for: client)
        }
    }

    /// Carries out `commands` on the client's player and answers from the status after them
    /// (`answer` adds its lines to the response).
    mutating func perform(_ commands: [PlaybackCommand],
                          answer: (PlaybackStatus, inout MPDResponse) throws(MPDError) -> Void) throws(MPDError) {
        try answer(try player.perform(commands), &response)
    }

    func error(_ code: MPDError.Code, _ message: String) -> MPDError {
        MPDError(code, message, command: command)
    }

    /// Refuses a URL (`http://…`, or what Cantata probes with, `mpd-client://…`) as MPD refuses
    /// a scheme none of its plugins reads: Boomic plays the library's files, no streams, so
    /// every scheme but `file://` (a local path) is one.
    func refuseURL(_ uri: String) throws(MPDError) {
        if M3U.isURL(uri), !uri.lowercased().hasPrefix("file://") { throw error(.argument, "Unsupported URI scheme") }
    }

    /// Whether a client's path names a local file as MPD reads one: an absolute path or a
    /// `file://` URL.
    static func isLocalFile(_ uri: String) -> Bool { uri.hasPrefix("/") || uri.hasPrefix("file://") }

    /// Refuses a local file's path to a client that is not on the local socket, as MPD does
    /// ("Access denied"); a local client's is looked up in the library by whoever asked.
    func refuseLocalFileOverTCP(_ uri: String) throws(MPDError) {
        if Self.isLocalFile(uri), !client.isLocal { throw error(.permission, "Access denied") }
    }

    /// A whole number argument, as MPD parses them: digits past what a number holds are
    /// "too large", anything else no integer.
    func int(_ i: Int) throws(MPDError) -> Int { try integer(args[i]) }

    /// `int`, of a text.
    func integer(_ text: String) throws(MPDError) -> Int {
        guard let n = Int(text) else {
            throw error(.argument, (Self.isOverflow(text) ? "Number too large: " : "Integer expected: ") + text)
        }
        return n
    }

    /// A whole number, sign and all, with more digits than `Int` holds.
    static func isOverflow(_ text: some StringProtocol) -> Bool {
        let digits = text.first == "-" || text.first == "+" ? Substring(text.dropFirst()) : Substring(text)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// An unsigned number, as MPD's `strtoul` into 32 bits reads it: a negative one or one past
    /// 4294967295 is "too large".
    func unsigned(_ i: Int) throws(MPDError) -> Int {
        let n = try int(i)
        guard n >= 0, n <= Int(UInt32.max) else { throw error(.argument, "Number too large: \(args[i])") }
        return n
    }

    func number(_ i: Int) throws(MPDError) -> Double {
        guard let d = Double(args[i]), d.isFinite else { throw error(.argument, "Float expected: \(args[i])") }
        return d
    }

    /// `0` or `1`.
    func bool(_ i: Int) throws(MPDError) -> Bool {
        switch args[i] {
        case "0": return false
        case "1": return true
        default: throw error(.argument, "Boolean (0/1) expected: \(args[i])")
        }
    }

    /// How a command holds a range to the queue's `count` entries, as MPD's commands do.
    enum RangeBounds {
        /// Most (`playlistinfo`, `plchanges`, `prio`, `delete`, `shuffle`): the end is cut to
        /// the queue; a start past its end is an error, one at its end selects nothing.
        case window
        /// `move`: every position must be an entry.
        case entries
        /// `load`'s range of a stored playlist: both ends are cut to it, so a range past its
        /// end loads nothing.
        case clipped
    }

    /// `N`, `START:END` or `START:` (to the end), parsed as MPD parses a range (`-1` alone is
    /// the whole queue, for old clients), as positions `0..<count`.
    func range(_ i: Int, count: Int, _ bounds: RangeBounds = .window) throws(MPDError) -> Range<Int> {
        let text = args[i]
        if text == "-1" { return 0..<count }
        let parsed = try range(text)
        let start = parsed.lowerBound, end = parsed.upperBound
        switch bounds {
        case .window:
            guard start <= count else { throw error(.argument, "Bad song index") }
        case .entries:
            guard start < count, end <= count || end == Int(Int32.max) else { throw error(.argument, "Bad song index") }
        case .clipped:
            break
        }
        return min(start, count)..<min(end, count)
    }

    /// `N` (`N:N+1`), `START:END` or `START:` (to `Int32.max`), as MPD parses a range, with
    /// its errors.
    func range(_ text: String) throws(MPDError) -> Range<Int> {
        func number(_ part: Substring) throws(MPDError) -> Int {
            guard let n = Int(part) else {
                throw error(.argument, (part.first?.isNumber == true && Self.isOverflow(part) ? "Number too large: " : "Integer or range expected: ") + text)
            }
            guard n >= 0 else { throw error(.argument, "Number is negative: \(text)") }
            guard n <= Int(Int32.max) else { throw error(.argument, "Number too large: \(text)") }
            return n
        }
        guard let colon = text.firstIndex(of: ":") else {
            let n = try number(text[...])
            return n..<(n + 1)
        }
        let start = try number(text[..<colon])
        let rest = text[text.index(after: colon)...]
        let end = rest.isEmpty ? Int(Int32.max) : try number(rest)
        guard start <= end else { throw error(.argument, "Malformed range: \(text)") }
        return start..<end
    }

    /// The queue entry at a position.
    func entry(atPosition i: Int, in queue: PlayQueue) throws(MPDError) -> PlayQueue.Entry {
        let p = try unsigned(i)
        guard p < queue.entries.count else { throw error(.argument, "Bad song index") }
        return queue.entries[p]
    }

    /// The queue entry with an id.
    func entry(withID i: Int, in queue: PlayQueue) throws(MPDError) -> PlayQueue.Entry {
        let id = try unsigned(i)
        guard let e = queue.entry(PlayQueue.EntryID(id)) else { throw error(.noExist, "No such song") }
        return e
    }

    /// Prints a queue entry: the song, then its position and id (and priority when set).
    mutating func add(entry: PlayQueue.Entry, position: Int, snapshot: ServerLibrary.Snapshot) {
        response.add(entry: entry, position: position, snapshot: snapshot, tags: client.tags)
    }
}

extension ServerContext {
    /// The player of a client's room (a room deleted under it falls back to `default`), kept
    /// by the connection while the rooms stay as they are; `MPDError.roomRestarting` while the
    /// room sleeps (it is woken off the loop).
    func player(for client: ClientState) throws(MPDError) -> ServerPlayer {
        let generation = rooms.generation
        if let kept = client.player, kept.generation == generation, kept.room == client.room { return kept.player }
        guard !rooms.isAsleep(client.room) else { throw .roomRestarting }
        let player = ServerPlayer(rooms.player(client.room) ?? rooms.player("default")!)
        client.player = (client.room, generation, player)
        return player
    }
}

/// A command MPD clients may send: how many arguments it takes, whether it works before the
/// password, and what it does.
struct CommandSpec: Sendable {
    let name: String
    let arguments: ClosedRange<Int>
    /// Allowed before `password` (when one is set).
    var open = false
    let run: @Sendable (inout Invocation) throws(MPDError) -> Void

    init(_ name: String, _ arguments: ClosedRange<Int> = 0...0, open: Bool = false,
         _ run: @escaping @Sendable (inout Invocation) throws(MPDError) -> Void) {
        self.name = name
        self.arguments = arguments
        self.open = open
        self.run = run
    }
}
