import BoomicAudio
import BoomicCore
import BoomicPlayback
import BoomicSystem
import Foundation
import Synchronization

/// The station: the rooms (MPD's partitions), each a player and queue of its own, playing on
/// the outputs moved into it, all over one library session. `default` always exists and starts
/// with every output; `create` makes a room with none (it plays silently until `move` gives it
/// one). Each room keeps its own state file (`player/rooms/NAME/`); which room has which output
/// is kept in `player/rooms.json`, so a restarted server puts them back. `boomic play` is a
/// station of one room (`init(oneRoom:…)`), which keeps no layout.
///
/// What changes in a room is told, in order, to the fronts that `subscribe`.
public final class Station: Sendable {
    /// An output as `--output` named it; its number is its `outputid`.
    public struct Output: Sendable, Equatable {
        public var id: Int
        public var spec: SinkSpec
        public var name: String { spec.description }
    }

    struct Room {
        /// Nil while the room sleeps: it has no output and has not been used since it was made
        /// or restored, and holds no thread (`player(_:)` wakes it).
        var player: RoomPlayer?
        let store: PlayerStateStore
        var outputs: [Int]
        /// The calls the player makes to each of its outputs, by output id (none for a room
        /// that plays on `null`): how the room tells whether an output hangs its player.
        var watches: [Int: FanOutSink.CallWatch]
        /// Seconds played by the players this room put to sleep (`stats`' playtime goes on).
        var heardAsleep = 0
    }

    public let outputs: [Output]
    /// Each output's on/off (`enableoutput`, `disableoutput`), by output id: flipped from any
    /// event loop, heard by the room's output thread while it plays.
    let switches: [FanOutSink.Switch]
    let rooms = Mutex<[String: Room]>([:])
    /// Goes up whenever a room is made or removed or its player replaced: a connection keeps
    /// its room's player until this moves.
    private let changes = Atomic<Int>(0)
    public var generation: Int { changes.load(ordering: .acquiring) }
    /// Rooms whose players are being replaced (`moveoutput`), and how many moves have them:
    /// their clients' requests wait (`isRestarting`), since a command to the player that is
    /// going would be lost. The count lets every other request skip the lock.
    let restarting = Mutex<[String: Int]>([:])
    let restartingCount = Atomic<Int>(0)
    /// Room names in the order they were made (`default` first).
    private let order = Mutex<[String]>([])
    /// Wakes one room at a time, so that two clients waking the same room make one player.
    private let waking = Mutex(())
    /// Rooms at once, `default` included: MPD 0.23's limit on partitions. Each room that plays
    /// holds two threads and a player's buffers; without a limit, a client with no password
    /// made hundreds.
    public static let maxRooms = 16
    let library: any StationLibrary
    private let settings: RoomSettings
    let warn: @Sendable (String) -> Void
    /// Called on a player's thread as it resolves a song to open (tests hold it there, as a
    /// sleeping disk holds the open).
    private let opening: (@Sendable (SongID) -> Void)?
    /// Whether a front's client is in the room: no room a client drives is deleted or put to sleep.
    private let isOccupied: @Sendable (String) -> Bool
    /// Whether the rooms and their outputs are kept in `player/rooms.json` (not by `boomic play`).
    let keepsLayout: Bool
    /// What a room whose output hangs does: a server's plays on without it (on its other
    /// outputs, or silently, until a client switches it on again); `boomic play`'s one room has
    /// no other output and nothing to switch it on with, so its player is left behind and its
    /// front told the output failed (`dropHungOutputs`).
    let playsOnWithoutHungOutput: Bool
    /// The fronts told of every change, in order.
    private let subscribers = Mutex<[@Sendable (StationChange) -> Void]>([])
    let watchdog = Mutex<OutputWatchdog?>(nil)
    /// Each output seen in a call at the last look: whose (the watch of the player then), which
    /// call, and since when.
    let calls = Mutex<[Int: (watch: ObjectIdentifier, call: Int, since: ContinuousClock.Instant)]>([:])
    /// The clock the hang limit is measured on.
    let clock: @Sendable () -> ContinuousClock.Instant

    /// A server's station: its rooms as the last run left them, each started as saved.
    /// - Parameters:
    ///   - isOccupied: whether a front's client is in a room.
    ///   - clock: what `hangLimit` is measured on.
    public init(library: any StationLibrary, store: PlayerStateStore, outputs specs: [SinkSpec], settings: RoomSettings,
                isOccupied: @escaping @Sendable (String) -> Bool = { _ in false },
                clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
                opening: (@Sendable (SongID) -> Void)? = nil, warn: @escaping @Sendable (String) -> Void) {
        self.opening = opening
        self.library = library
        self.settings = settings
        self.warn = warn
        self.isOccupied = isOccupied
        self.clock = clock
        keepsLayout = true
        playsOnWithoutHungOutput = true
        outputs = specs.enumerated().map { Output(id: $0.offset, spec: $0.element) }
        // Rooms and their outputs as the last run left them; outputs nobody claims are default's.
        let saved = Self.loadLayout(library.session.location)
        let disabled = Set(saved.flatMap { $0.disabled ?? [] })
        switches = outputs.map { FanOutSink.Switch(isOn: !disabled.contains($0.name)) }
        var assigned: [String: [Int]] = ["default": []]
        var names = ["default"]
        for room in saved where room.name != "default" {
            names.append(room.name)
            assigned[room.name] = room.outputs.compactMap { n in outputs.first { $0.name == n }?.id }
        }
        let claimed = Set(assigned.values.joined())
        assigned["default"] = outputs.map(\.id).filter { !claimed.contains($0) }
        var forgotten = false
        for name in names {
            let roomStore = name == "default" ? store : try? PlayerStateStore(libraryLocation: library.session.location, room: name)
            guard let roomStore else { continue }
            let ids = assigned[name] ?? []
            // A room comes back if it has an output, a queue or plays to record; it sleeps
            // until used unless it has an output. An empty one is forgotten (a client's 300
            // `newpartition` came back at every start).
            if name != "default", ids.isEmpty {
                let saved = try? roomStore.load()
                guard let saved, !saved.queue.entries.isEmpty || !saved.pending.isEmpty else {
                    try? FileManager.default.removeItem(atPath: roomStore.folder)
                    forgotten = true
                    continue
                }
                rooms.withLock { $0[name] = Room(player: nil, store: roomStore, outputs: [], watches: [:]) }
            } else {
                let (player, watches) = makePlayer(room: name, store: roomStore, outputs: ids)
                rooms.withLock { $0[name] = Room(player: player, store: roomStore, outputs: ids, watches: watches) }
            }
            order.withLock { $0.append(name) }
        }
        if forgotten { saveLayout() }
    }

    /// `boomic play`'s station: one room, `default`, on one output, started with `start`
    /// (`first` carried out before it plays); `watch` is told every event of its player. Its
    /// output is watched as a server's are (`watchOutputs`): one that hangs ends the run.
    /// - Parameter clock: what `hangLimit` is measured on.
    public init(oneRoom library: any StationLibrary, store: PlayerStateStore, output spec: SinkSpec, settings: RoomSettings,
                start: RoomStart, first: [PlaybackCommand] = [], watch: (@Sendable (PlaybackEvent) -> Void)? = nil,
                clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
                opening: (@Sendable (SongID) -> Void)? = nil, warn: @escaping @Sendable (String) -> Void) {
        self.library = library
        self.settings = settings
        self.warn = warn
        self.opening = opening
        self.clock = clock
        isOccupied = { _ in false }
        keepsLayout = false
        playsOnWithoutHungOutput = false
        outputs = [Output(id: 0, spec: spec)]
        switches = [FanOutSink.Switch(isOn: true)]
        // A fan-out of one plays exactly as its output alone, and watches its calls. Its one
        // output failing is the engine's failure (nothing is switched off or reported).
        let sink = FanOutSink(outputs: [(Sinks.open(spec), switches[0])], report: { _, _ in })
        let watches = [0: sink.watches[0]]
        let player = RoomPlayer(library: library, store: store, start: start, first: first, sink: sink,
                                settings: settings, room: "default", watch: watch,
                                tell: { [weak self] what in self?.emit(StationChange(room: "default", what: what)) },
                                opening: opening, warn: warn)
        rooms.withLock { $0["default"] = Room(player: player, store: store, outputs: [0], watches: watches) }
        order.withLock { $0.append("default") }
    }

    /// `body` is told every change from now on, in order, on the thread that made it (it must
    /// not call back into the station; a front queues what it does about it).
    public func subscribe(_ body: @escaping @Sendable (StationChange) -> Void) {
        subscribers.withLock { $0.append(body) }
    }

    /// Tells the subscribers, and wakes the watchdog on a change that may start a call to an output.
    func emit(_ change: StationChange) {
        if !change.what.isDisjoint(with: [.player, .outputs, .outputSwitched, .failure]) { watchdog.withLock { $0 }?.wake() }
        for body in subscribers.withLock({ $0 }) { body(change) }
    }

    public var names: [String] { order.withLock { $0 } }

    /// The room's player, woken if the room sleeps; nil for no such room.
    public func player(_ room: String) -> RoomPlayer? {
        if let found = rooms.withLock({ $0[room].map { $0.player } }) { return found ?? wake(room) }
        return nil
    }

    /// Whether the room exists (`player(_:)` without waking it).
    public func exists(_ room: String) -> Bool { rooms.withLock { $0[room] != nil } }

    /// Whether the room sleeps (`player(_:)` would wake it, which reads its state and opens its outputs).
    public func isAsleep(_ room: String) -> Bool { rooms.withLock { $0[room].map { $0.player == nil } ?? false } }

    /// Puts a room to sleep when nothing needs its player: it has no output, is stopped, and no
    /// client is in it (the last one left). Its player saves its state and stops, so the room
    /// holds no thread until it is used again. Blocking work.
    public func sleepIfIdle(_ name: String) {
        guard name != "default" else { return }
        waking.withLock { _ in
            guard let room = rooms.withLock({ $0[name] }), let player = room.player, room.outputs.isEmpty,
                  player.status.queue.state == .stopped, !isOccupied(name), !isRestarting(name) else { return }
            rooms.withLock {
                $0[name]?.player = nil
                $0[name]?.watches = [:]
                $0[name]?.heardAsleep += player.playedSeconds
            }
            // Connections look their room's player up again; a command already given to this
            // one is carried out before the quit or, dropped by it, by the woken player.
            changes.add(1, ordering: .releasing)
            player.quit()
        }
    }

    /// Gives a sleeping room its player, from its saved state.
    private func wake(_ name: String) -> RoomPlayer? {
        waking.withLock { _ in
            guard let room = rooms.withLock({ $0[name] }) else { return nil }
            if let player = room.player { return player }
            let (player, watches) = makePlayer(room: name, store: room.store, outputs: room.outputs)
            rooms.withLock {
                $0[name]?.player = player
                $0[name]?.watches = watches
            }
            return player
        }
    }

    public func outputs(of room: String) -> [Output] {
        let ids = rooms.withLock { $0[room]?.outputs ?? [] }
        return ids.map { outputs[$0] }
    }

    /// Whether an output gets its room's audio (`outputenabled`).
    public func isEnabled(output id: Int) -> Bool { switches[id].isOn }

    /// `enableoutput`, `disableoutput`, `toggleoutput`: heard at once if its room is playing
    /// (the output is opened in the format playing, or closed); kept for the next start.
    /// `toggled`: by `toggleoutput`, which MPD tells otherwise (`OutputIdle`).
    public func setEnabled(output id: Int, _ on: Bool, toggled: Bool = false) {
        guard switches[id].isOn != on else { return }
        switches[id].set(on)
        saveLayout()
        // The player plays on, silently if no output is left: no `player`. Told in the
        // output's room, as MPD tells a partition's outputs to its own clients.
        emit(StationChange(room: room(of: id), what: .outputSwitched,
                           switched: OutputSwitch(spec: outputs[id].spec, on: on, toggled: toggled)))
    }

    /// A name the station takes for a room (MPD's rule for a partition's): letters and digits (ASCII), `-` and `_`. (Boomic also
    /// keeps it to 64, as it names the room's folder.)
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D || $0 == 0x5F }
    }

    /// A room with no output (and a queue of its own): MPD's `newpartition`.
    public func create(_ name: String) throws(StationError) {
        guard Self.isValidName(name) else { throw .badName }
        guard !exists(name) else { throw .roomExists }
        guard names.count < Self.maxRooms else { throw .tooManyRooms }
        let store: PlayerStateStore
        do { store = try PlayerStateStore(libraryLocation: library.session.location, room: name) } catch {
            throw .system(error.message)
        }
        // Asleep until used: a room with no output that nobody has asked anything of holds no thread.
        rooms.withLock { $0[name] = Room(player: nil, store: store, outputs: [], watches: [:]) }
        changes.add(1, ordering: .releasing)
        order.withLock { $0.append(name) }
        saveLayout()
        emit(StationChange(room: nil, what: .rooms))
    }

    /// Removes a room: not `default`, not a room a client is in or that still has outputs
    /// (MPD's `delpartition` checks, in its order).
    public func delete(_ name: String) throws(StationError) {
        let exists = exists(name)
        guard Self.isValidName(name) || exists else { throw .badName }
        guard exists else { throw .noSuchRoom }
        guard name != "default" else { throw .defaultRoomStays }
        guard !isOccupied(name) else { throw .roomOccupied }
        let room: Room? = rooms.withLock { r in
            guard let room = r[name] else { return nil }
            guard room.outputs.isEmpty else { return room }
            r.removeValue(forKey: name)
            return room
        }
        guard let room else { throw .noSuchRoom }
        guard room.outputs.isEmpty else { throw .roomHasOutputs }
        changes.add(1, ordering: .releasing)
        order.withLock { $0.removeAll { $0 == name } }
        room.player?.quit()
        try? FileManager.default.removeItem(atPath: room.store.folder)
        saveLayout()
        emit(StationChange(room: nil, what: .rooms))
    }

    /// The output plays in `room` from now on (MPD's `moveoutput`); both rooms' players start
    /// again on their new outputs where they were.
    public func move(output name: String, to room: String) throws(StationError) {
        guard let output = outputs.first(where: { $0.name == name }) else { throw .noSuchOutput }
        let from = self.room(of: output.id)
        guard from != room else { return }
        let both = [from, room].compactMap { $0 }
        whileRestarting(both) {
            // What each room's player played on: the other room's outputs are in calls as it plays.
            let before: [String: [Int]] = rooms.withLock { r in
                defer {
                    if let from { r[from]?.outputs.removeAll { $0 == output.id } }
                    r[room]?.outputs.append(output.id)
                }
                return Dictionary(uniqueKeysWithValues: both.map { ($0, r[$0]?.outputs ?? []) })
            }
            for name in both { restart(name, outputs: before[name] ?? []) }
        }
        saveLayout()
        emit(StationChange(room: nil, what: .outputs))
    }

    /// Whether `room`'s player is being replaced now (a `moveoutput` under way).
    public func isRestarting(_ room: String) -> Bool {
        guard restartingCount.load(ordering: .acquiring) > 0 else { return false }
        return restarting.withLock { $0[room, default: 0] > 0 }
    }

    /// Seconds played in every room since the server started.
    public var playedSeconds: Int {
        rooms.withLock { $0.values.reduce(0) { $0 + $1.heardAsleep + ($1.player?.playedSeconds ?? 0) } }
    }

    /// Takes the entries of these songs out of every room's queue: songs whose files are gone
    /// (an `update` marked them missing, or they left the library), as MPD drops a deleted
    /// song from its queue instead of keeping an entry that cannot play.
    public func dropEntries(of songs: Set<SongID>) {
        perform(onEntriesOf: songs) { .remove($0) }
    }

    /// Gives the entries of these songs in every room's queue a new version: the library
    /// changed what clients see of them (a title, a path), and MPD clients redraw the entries
    /// `plchanges` lists when told `playlist` (which the room's player tells).
    public func refreshEntries(of songs: Set<SongID>) {
        perform(onEntriesOf: songs) { _ in .refresh(songs) }
    }

    /// The command made of the entries of `songs`, to each awake room's player whose queue
    /// holds one.
    private func perform(onEntriesOf songs: Set<SongID>, _ command: ([PlayQueue.EntryID]) -> QueueCommand) {
        guard !songs.isEmpty else { return }
        // A sleeping room's saved queue keeps them until it wakes: its player passes an entry
        // whose song is gone as one that cannot be opened.
        for room in rooms.withLock({ Array($0.values) }) {
            guard let player = room.player else { continue }
            let entries = player.status.queue.entries.filter { songs.contains($0.song) }.map(\.id)
            guard !entries.isEmpty else { continue }
            // A player that quit meanwhile (its room put to sleep, or the player replaced) saved
            // its queue with them, as a sleeping room keeps them.
            _ = try? player.perform(command(entries))
        }
    }

    /// The watchdog stops, and every room's player stops and saves.
    public func quitAll() {
        stopWatchingOutputs()
        for room in rooms.withLock({ Array($0.values) }) { room.player?.quit() }
    }

    /// Replaces a room's player, which played on `outputs`: one of them that hung it (in a call,
    /// `CallWatch.isInCall`, while it was left behind) is switched off, since opening it again
    /// would hang the next player too (a pipe nobody reads blocks already in `open`): every
    /// move left two threads and 1.7 MB behind. `outputHangs`: the caller knows one does (and
    /// has switched it off), so the player is given a moment to stop, not 3 s.
    func restart(_ name: String, outputs ids: [Int], outputHangs: Bool = false) {
        // Not beside a wake of the same room: each would make a player, and one be left running.
        waking.withLock { _ in restartAwake(name, outputs: ids, outputHangs: outputHangs) }
    }

    private func restartAwake(_ name: String, outputs ids: [Int], outputHangs: Bool) {
        guard let room = rooms.withLock({ $0[name] }) else { return }
        if let old = room.player, !old.quit(outputHangs: outputHangs) {
            let hung = ids.filter { switches[$0].isOn && room.watches[$0]?.isInCall == true }
            for id in hung {
                switches[id].set(false)
                warn("output \(outputs[id].name) hangs and is disabled")
            }
            if !hung.isEmpty {
                saveLayout()
                emit(StationChange(room: nil, what: .outputs))
            }
        }
        let (player, watches) = makePlayer(room: name, store: room.store, outputs: room.outputs)
        rooms.withLock {
            $0[name]?.player = player
            $0[name]?.watches = watches
        }
        changes.add(1, ordering: .releasing)
    }

    /// A room plays on every output it has that is switched on (MPD plays a partition's audio
    /// on all its enabled outputs); one with none plays, silently, on `null`. An output that
    /// fails while others play is switched off and reported (`outputs` shows it disabled).
    private func makePlayer(room: String, store: PlayerStateStore, outputs ids: [Int]) -> (RoomPlayer, [Int: FanOutSink.CallWatch]) {
        let sink: any AudioSink
        var watches: [Int: FanOutSink.CallWatch] = [:]
        if ids.isEmpty {
            sink = NullSink()
        } else {
            let warn = warn
            let fanOut = FanOutSink(outputs: ids.map { (Sinks.open(outputs[$0].spec), switches[$0]) }) { [self] name, error in
                warn("output \(name) failed and is disabled; the room plays on its other outputs: \(error)")
                // Kept, as every switch is: a restart brought it back on, or not, depending on
                // whether something else had saved the layout since.
                saveLayout()
                emit(StationChange(room: nil, what: .outputs))
            }
            watches = Dictionary(uniqueKeysWithValues: zip(ids, fanOut.watches))
            sink = fanOut
        }
        let player = RoomPlayer(library: library, store: store, start: .asSaved, sink: sink, settings: settings, room: room,
                                tell: { [weak self] what in self?.emit(StationChange(room: room, what: what)) },
                                opening: opening, warn: warn)
        return (player, watches)
    }
}
