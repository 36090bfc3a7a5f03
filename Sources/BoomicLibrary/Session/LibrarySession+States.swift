import BoomicCore
import BoomicStore
import Foundation

/// Earlier states (`--as-of`, `show`, the target of a rollback or undo), read whichever way is
/// less to read: the head with the transactions after the state taken back (`LogDiff.basis`,
/// O(those transactions), sharing every other song with the head), the newest checkpoint at or
/// before the state and its tail (O(library)), or, for a state read whole, the oldest
/// checkpoint after it with the transactions between taken back. `Transactor.stateCost` weighs
/// them from the sizes the file keeps, without reading a body.
extension LibrarySession {
    /// How an earlier state is read: the cheaper way, or one way by force (the laws compare
    /// both ways on the same library).
    public enum StateReading: Sendable {
        case cheaper
        /// The head with the transactions after the state taken back.
        case fromLog
        /// The checkpoint at or before the state and the transactions after it.
        case fromCheckpoint
        /// The oldest checkpoint after the state with the transactions between taken back (the
        /// head's, as `fromLog`, when no checkpoint lies between).
        case fromNextCheckpoint
    }

    /// How many bytes of a checkpoint cost as much to read as one byte of the log: a checkpoint
    /// is an image read in place (copied out of its row when it is not the image file), a log row
    /// a JSON decode whose assertions are then applied. At 50,000 songs (release build), a
    /// 10.4 MB checkpoint costs about 10 ms to load, a row of small edits about 36-40 ns a byte
    /// to replay or take back: 36.
    static let checkpointBytesPerLogByte = 36

    /// What comparing one song of two states costs a rollback that reads its target from a
    /// checkpoint, in log bytes: both states' rows materialised, the song's patch worked out and
    /// its assertions sorted, where taking back reads only the song's assertions (about 150-300
    /// bytes of a row). Measured on whole commands at 50,000 songs: `rollback HEAD~5000` of
    /// 8,994 songs from a checkpoint 65 transactions before its target took 665 ms, where taking
    /// back the 3.2 MB of its 5,000 rows took 461 (bench runs W5 and W6): 300 bytes a song
    /// weighed the two alike, so the comparison costs about twice that.
    static let logBytesPerComparedSong = 650

    /// The basis after transaction `seq`: the latest when `seq` is the head, else read the
    /// cheaper way (see the type's comment), or as `reading` forces.
    public func basis(at seq: Int, reading: StateReading = .cheaper) throws -> DataBasis {
        let (head, latest) = transactor.state
        if seq == head { return latest }
        guard seq < head else { return try transactor.basis(at: seq) }
        switch try side(to: seq, from: head, reading) {
        case .checkpoint:
            return try transactor.basis(at: seq)
        case .later:
            return LogDiff.basis(latest, takingBack: try transactions(after: seq, through: head))
        case .nextCheckpoint(let next):
            let (later, between) = try transactor.basis(at: next, withTransactionsAfter: seq)
            return LogDiff.basis(later, takingBack: between)
        }
    }

    /// Where the state after `seq` (< `head`) is read from.
    func side(to seq: Int, from head: Int, _ reading: StateReading) throws -> StateCost.Side {
        switch reading {
        case .fromLog: return .later
        case .fromCheckpoint: return .checkpoint
        case .fromNextCheckpoint:
            let next = try transactor.checkpointSeqs().first { $0 > seq } ?? head
            return next < head ? .nextCheckpoint(next) : .later
        case .cheaper:
            return try transactor.stateCost(at: seq, from: head, checkpointBytesPerLogByte: Self.checkpointBytesPerLogByte,
                                            weighingNextCheckpoint: true).cheapest
        }
    }

    /// How a rollback or undo to the state after `seq` reads its change.
    enum RollbackReading {
        /// The transactions after the state taken back.
        case takingBack
        /// The state read from its checkpoint and compared with the head over `touched` (all
        /// songs when nil: the song → transactions index lacks some).
        case comparing(touched: [SongID]?)
    }

    /// How a rollback reads its change: taking back the log from the head, or comparing the
    /// songs the span touched in the head and in the target read from the checkpoint before it.
    /// That comparison is weighed on the checkpoint side, and the songs counted for it are handed
    /// on. (A checkpoint after the target is not weighed: its state would be compared with the
    /// head over more songs still.)
    func rollbackReading(to seq: Int, from head: Int, _ reading: StateReading) throws -> RollbackReading {
        guard seq < head else { return .comparing(touched: try songsTouched(after: seq, through: head)) }
        switch reading {
        case .fromLog, .fromNextCheckpoint: return .takingBack
        case .fromCheckpoint: return .comparing(touched: try songsTouched(after: seq, through: head))
        case .cheaper:
            guard !(try cost(to: seq, from: head).isCheaperFromLater) else { return .takingBack }
            // Without the index the checkpoint side compares every song.
            guard let touched = try songsTouched(after: seq, through: head) else { return .takingBack }
            let weighed = try cost(to: seq, from: head, comparing: touched.count)
            return weighed.isCheaperFromLater ? .takingBack : .comparing(touched: touched)
        }
    }

    private func cost(to seq: Int, from head: Int, comparing songs: Int = 0) throws -> StateCost {
        try transactor.stateCost(at: seq, from: head, checkpointBytesPerLogByte: Self.checkpointBytesPerLogByte,
                                 checkpointSideExtra: songs &* Self.logBytesPerComparedSong)
    }

    /// The songs the transactions `after < seq <= through` added, changed or removed, from the
    /// song → transactions index; nil when the index lacks some of them.
    func songsTouched(after: Int, through: Int) throws -> [SongID]? {
        guard let keys = try transactor.touchedKeys(after: after, through: through) else { return nil }
        var out: [SongID] = []
        out.reserveCapacity(keys.count)
        for key in keys {
            // A key that is no song id is damage: the set would be incomplete, so none of it is used.
            guard let uuid = UUID(text: key) else { return nil }
            out.append(SongID(uuid))
        }
        return out
    }

    /// The transactions `after < seq <= through`, in log order; the entry kept by
    /// `entry(seq:keeping:)` is not decoded again.
    func transactions(after: Int, through: Int) throws -> [Transaction] {
        guard through > after else { return [] }
        guard let kept = keptEntry.withLock({ $0 }), kept.seq > after, kept.seq <= through else {
            return try transactor.entries(from: after + 1, through: through).map(\.transaction)
        }
        return try transactions(after: after, through: kept.seq - 1) + [kept.transaction]
            + transactions(after: kept.seq, through: through)
    }
}
