import BoomicAudio
import BoomicCore
import BoomicPlayback
import BoomicStation

/// The station's rooms as the MPD front names them (MPD's partitions).
public typealias Rooms = Station

extension RoomChange {
    /// The idle subsystems MPD tells for this change.
    var subsystems: Set<Subsystem> {
        var told: Set<Subsystem> = []
        if contains(.queue) { told.insert(.playlist) }
        if contains(.player) { told.insert(.player) }
        if contains(.options) { told.insert(.options) }
        if contains(.volume) { told.insert(.mixer) }
        if contains(.outputs) { told.insert(.output) }
        if contains(.outputSwitched) { told.insert(.output) }
        if contains(.failure) { told.formUnion([.player, .output]) }
        if contains(.rooms) { told.insert(.partition) }
        return told
    }
}

extension StationChange {
    /// The idle subsystems MPD tells for this change; a switched output by its kind (`OutputIdle`).
    var subsystems: Set<Subsystem> {
        guard let switched else { return what.subsystems }
        return what.subsystems.union(OutputIdle.switched(switched.spec, on: switched.on, toggled: switched.toggled))
    }
}

extension Station {
    /// The station of `boomic serve`: every room plays in real time (on null and wav: outputs
    /// too, so clients watch the position move as on a sound card), keeps its volume, and
    /// tells its changes to `hub`'s clients.
    public convenience init(library: ServerLibrary, store: PlayerStateStore, outputs: [SinkSpec], sound: SoundSettings,
                            hub: IdleHub, record: Bool, opening: (@Sendable (SongID) -> Void)? = nil,
                            warn: @escaping @Sendable (String) -> Void) {
        let settings = RoomSettings(sound: sound, realtime: true, record: record, keepsVolume: true, warnsEvents: true)
        self.init(library: library, store: store, outputs: outputs, settings: settings, isOccupied: { hub.isOccupied($0) },
                  opening: opening, warn: warn)
        hub.follow(self)
    }
}

extension IdleHub {
    /// Tells this hub's clients what changes in the station's rooms, in the station's order:
    /// a room's changes to its own clients, the station's to every client.
    public func follow(_ station: Station) {
        station.subscribe { [self] change in post(change.subsystems, room: change.room) }
    }
}

extension MPDError {
    /// The station's error as MPD says it (its codes and words for partitions and outputs).
    init(_ error: StationError) {
        switch error {
        case .restarting: self = .roomRestarting
        case .badName: self = MPDError(.argument, "bad name")
        case .roomExists: self = MPDError(.exist, "name already exists")
        case .noSuchRoom: self = MPDError(.noExist, "no such partition")
        case .tooManyRooms: self = MPDError(.unknown, "too many partitions")
        case .defaultRoomStays: self = MPDError(.unknown, "cannot delete the default partition")
        case .roomOccupied: self = MPDError(.unknown, "partition still has clients")
        case .roomHasOutputs: self = MPDError(.unknown, "partition still has outputs")
        case .noSuchOutput: self = MPDError(.noExist, "No such output")
        case let .system(message): self = MPDError(.system, message)
        }
    }

    /// Runs a station call, its error said as MPD says it.
    static func mapping<T>(_ body: () throws(StationError) -> T) throws(MPDError) -> T {
        do throws(StationError) { return try body() } catch { throw MPDError(error) }
    }
}

extension ServerLibrary: StationLibrary {
    public var basis: DataBasis { snapshot.basis }
}
