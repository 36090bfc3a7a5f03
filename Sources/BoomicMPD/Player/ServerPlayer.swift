import BoomicCore
import BoomicPlayback
import BoomicStation
import Synchronization

/// A room's player as the MPD front drives it: the station's `RoomPlayer`, its errors said as
/// MPD says them (`MPDError`).
public struct ServerPlayer: Sendable {
    public let player: RoomPlayer

    public init(_ player: RoomPlayer) { self.player = player }

    public var engine: PlaybackEngine { player.engine }
    public var status: PlaybackStatus { player.status }
    /// The room this player plays in: its idle events go to that room's clients.
    public var room: String { player.room }
    public var playedSeconds: Int { player.playedSeconds }
    /// The serial of the last failure a client cleared (`clearerror`): `status` shows an
    /// `error:` line only for a later one.
    public var clearedFailure: ClearedFailure { ClearedFailure(player: player) }

    /// `RoomPlayer.perform`, which never waits for the engine: throws `MPDError.roomRestarting`
    /// when the room's player was replaced.
    @discardableResult
    public func perform(_ commands: [PlaybackCommand]) throws(MPDError) -> PlaybackStatus {
        try perform(commands) { _ in [] }
    }

    @discardableResult
    public func perform(_ commands: [PlaybackCommand],
                        then more: @escaping @Sendable (PlaybackStatus) -> [PlaybackCommand]) throws(MPDError) -> PlaybackStatus {
        do throws(StationError) { return try player.perform(commands, then: more) } catch { throw MPDError(error) }
    }

    @discardableResult
    public func perform(_ command: QueueCommand) throws(MPDError) -> PlaybackStatus { try perform([.queue(command)]) }

    @discardableResult
    public func quit(outputHangs: Bool = false) -> Bool { player.quit(outputHangs: outputHangs) }
}

/// `RoomPlayer.clearedFailure`, read and set as an atomic (always acquiring and releasing:
/// the ordering a caller names is that or weaker).
public struct ClearedFailure: Sendable {
    let player: RoomPlayer
    public func load(ordering _: AtomicLoadOrdering) -> Int { player.clearedFailure.load(ordering: .acquiring) }
    public func store(_ serial: Int, ordering _: AtomicStoreOrdering) { player.clearedFailure.store(serial, ordering: .releasing) }
}
