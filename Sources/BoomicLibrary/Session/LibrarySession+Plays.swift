import BoomicCore
import Foundation

/// What became of one `PlayRecord`.
public enum PlayCommit: Equatable, Sendable {
    /// Committed as the `play` transaction `seq`.
    case committed(seq: Int)
    /// Nothing to record: the song already holds what the record says (a quit at the bookmark it had).
    case unchanged
    /// The song is no longer in the library (removed while it played): the record is dropped.
    /// Not an error: the player warns (`message`) and goes on.
    case songGone(SongID)

    /// The warning a front shows for a dropped record.
    public var message: String? {
        guard case .songGone(let id) = self else { return nil }
        return "the song \(id) is no longer in the library; its play was not recorded"
    }
}

extension LibrarySession {
    /// Records one finished, skipped or left song as one `play` transaction (never one per second).
    ///
    /// The play's assertions are computed from the head at commit time, under the write lock
    /// (`PlayGeneration`): `playcount` is the head's plus one and only the play fields are touched,
    /// so a `modify` committed by another process meanwhile survives and two players' plays both
    /// count. The engine calls this only when recording (not under `--as-of` or `--no-record`),
    /// and keeps records it could not commit (a read-only library throws) in its state file.
    ///
    /// - Parameter message: kept as the transaction's `-m` message, if any.
    @discardableResult
    public func recordPlay(_ record: PlayRecord, message: String? = nil) throws -> PlayCommit {
        var outcome = PlayCommit.unchanged
        let r = try commit(kind: .play, message: message) { basis in
            guard let assertions = PlayGeneration.record(record, on: basis) else {
                outcome = .songGone(record.song)
                return nil
            }
            outcome = .unchanged
            guard !assertions.isEmpty, let song = basis[record.song] else { return nil }
            return (assertions, PlayGeneration.label(record, song: song))
        }
        if let r { return .committed(seq: r.seq) }
        return outcome
    }
}
