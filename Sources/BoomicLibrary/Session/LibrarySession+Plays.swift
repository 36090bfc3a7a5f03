import BoomicCore
import Foundation

/// What became of one `PlayRecord`.
public enum PlayCommit: Equatable, Sendable {
    /// Committed as the `play` transaction `seq`.
    case committed(seq: Int)
    /// Nothing to record: the song already holds what the record says (a quit at the bookmark it had).
    case unchanged
    /// The log already holds this play (its key is a transaction's id): a record delivered again
    /// after a crash (the state file's pending plays, the tail of a song replayed by a resume)
    /// counts once.
    case alreadyRecorded(seq: Int)
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
    /// A record with a key (a play or a skip) is committed with the key as the transaction's id,
    /// and not at all when the log already holds that id: looked up under the write lock, so no
    /// other process commits the same play between the look and the commit.
    ///
    /// - Parameter message: kept as the transaction's `-m` message, if any.
    /// - Parameter caller: who reported the play through a network API (a scrobble), for the
    ///   provenance and the label (`play … by anna via Symfonium`).
    @discardableResult
    public func recordPlay(_ record: PlayRecord, message: String? = nil, caller: Caller? = nil) throws -> PlayCommit {
        var outcome = PlayCommit.unchanged
        let id = record.key?.transactionID
        let r = try commit(kind: .play, message: message, id: id, caller: caller) { basis in
            if let id, let held = try transactor.entry(idPrefix: id.uuidString.lowercased()) {
                outcome = .alreadyRecorded(seq: held.seq)
                return nil
            }
            guard let assertions = PlayGeneration.record(record, on: basis) else {
                outcome = .songGone(record.song)
                return nil
            }
            outcome = .unchanged
            guard !assertions.isEmpty, let song = basis[record.song] else { return nil }
            return (assertions, PlayGeneration.label(record, song: song) + (caller?.byLine ?? ""))
        }
        if let r { return .committed(seq: r.seq) }
        return outcome
    }
}
