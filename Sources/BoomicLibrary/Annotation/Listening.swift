import BoomicCore
import Foundation
import Synchronization

/// What the API users are listening to: OpenSubsonic's `scrobble` (a play, or with
/// `submission=false` now playing) and the streams the front sends, for one library session.
///
/// In memory, for the life of the server: now playing is a moment's state, and the streams
/// waiting for a scrobble are what `ListeningLedger` needs to count a song once (its rules say
/// how a stream and a scrobble of one song meet). Plays are committed as the player commits
/// them (`LibrarySession.recordPlay`): one `play` transaction each, keyed, so none is counted
/// twice, with the caller in its provenance. Plays are facts: `undo` leaves them.
///
/// `scrobble`, `streamed` and `settle` may commit, so a front calls them off its event loop.
public final class Listening: Sendable {
    public let session: LibrarySession
    private let state = Mutex(State())

    private struct State {
        var ledger = ListeningLedger()
        var playing: [Caller: NowPlaying] = [:]
    }

    /// One caller's song at the moment: `getNowPlaying`'s entry.
    public struct NowPlaying: Hashable, Sendable {
        public var caller: Caller
        public var song: SongID
        /// When it started playing (seconds since 1970).
        public var since: Double
    }

    public init(session: LibrarySession) {
        self.session = session
    }

    /// `scrobble` with `submission=true`: one play of `song` heard at `time` (seconds since 1970;
    /// the API's milliseconds divided by 1000). A stream of it to the same user claims it and it
    /// counts once (`ListeningLedger`); the same scrobble sent again counts once.
    ///
    /// - Throws: `AnnotationError.songNotFound` for an id that names no song.
    @discardableResult
    public func scrobble(_ song: SongID, by caller: Caller, at time: Double) throws -> PlayCommit {
        guard session.basis[song] != nil else { throw AnnotationError.songNotFound(song) }
        let key = state.withLock { $0.ledger.scrobbled(song, by: caller, at: time) }
        return try session.recordPlay(PlayRecord(song: song, outcome: .played, time: time, key: key), caller: caller)
    }

    /// `scrobble` with `submission=false`: `song` is playing for `caller` from `time`; it replaces
    /// what that caller played before.
    public func nowPlaying(_ song: SongID, by caller: Caller, at time: Double) throws {
        guard session.basis[song] != nil else { throw AnnotationError.songNotFound(song) }
        state.withLock { $0.playing[caller] = NowPlaying(caller: caller, song: song, since: time) }
    }

    /// What the API's callers are playing at `now`, most recent first: an entry lasts until the
    /// caller reports another song or until its song's length (ten minutes when unknown) plus
    /// five minutes have passed since it started.
    public func nowPlaying(at now: Double) -> [NowPlaying] {
        let basis = session.basis
        return state.withLock { s in
            s.playing = s.playing.filter { _, p in
                guard let song = basis[p.song] else { return false }
                return p.since + (song.duration ?? 600) + 300 >= now
            }
            return s.playing.values.sorted { ($0.since, $0.caller.user, $0.caller.client) > ($1.since, $1.caller.user, $1.caller.client) }
        }
    }

    /// The front sent `song` from its start to `caller` at `time` (a `stream` without an offset):
    /// a pending play, unless that client scrobbles. Also commits the plays now due.
    @discardableResult
    public func streamed(_ song: SongID, by caller: Caller, at time: Double) throws -> [PlayCommit] {
        let duration = session.basis[song]?.duration
        state.withLock { $0.ledger.streamed(song, duration: duration, by: caller, at: time) }
        return try settle(at: time)
    }

    /// Commits the streamed plays no scrobble claimed in time (rule 4 of `ListeningLedger`). A
    /// front calls it now and then (a minute's timer); `streamed` calls it too.
    @discardableResult
    public func settle(at now: Double) throws -> [PlayCommit] {
        let due = state.withLock { $0.ledger.due(at: now) }
        return try due.map { stream, heard in
            try session.recordPlay(PlayRecord(song: stream.song, outcome: .played, time: heard, key: stream.key),
                                   caller: stream.caller)
        }
    }
}
