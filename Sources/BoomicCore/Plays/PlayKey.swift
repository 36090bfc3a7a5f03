import Foundation

/// One play's identity: the queue entry it was heard from and the moment that entry started, so
/// that a play is committed once however often a crash and a resume deliver its record
/// (DESIGN §1, "Each play has a key").
///
/// The player keeps the key of the play under way in its state file, so a resume after
/// `kill -9` goes on with the same play rather than a new one; the library stores it as the id of
/// the play's transaction (`transactionID`), so a record whose key the log already holds is
/// never committed again (`LibrarySession.recordPlay`).
public struct PlayKey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The queue entry (MPD's song id) the play was heard from.
    public var entry: PlayQueue.EntryID
    /// When the entry started, in microseconds since 1970: tells two starts of one entry apart
    /// (`repeat one`, a restart, a second `boomic play` whose queue numbers its entries from 1
    /// again).
    public var started: Int64

    public init(entry: PlayQueue.EntryID, started: Int64) {
        self.entry = entry
        self.started = started
    }

    /// The key of `entry` started at `time` (seconds since 1970, to the microsecond). A time
    /// outside what a key holds (a client's scrobble of year 300,000, a NaN) is pinned to the
    /// nearest it does, rather than trapping in whichever caller passed it on.
    public init(entry: PlayQueue.EntryID, at time: Double) {
        let micros = (time * 1_000_000).rounded()
        let limit = Double(Int64.max / 2)
        self.init(entry: entry, started: micros.isNaN ? 0 : Int64(min(max(micros, -limit), limit)))
    }

    /// The id of the play's transaction: a UUID of version 8 (RFC 9562's layout of one's own)
    /// holding the key itself, laid out as version 7 lays out time, so that plays sort by start.
    ///
    /// Bytes 0–5: the start in milliseconds (48 bits); the version nibble, then the rest of the
    /// microseconds (12 bits); the variant's two bits, then the entry (62 bits).
    public var transactionID: UUID {
        let ms = UInt64(bitPattern: started) / 1000
        let micro = UInt64(bitPattern: started) % 1000
        let entry = UInt64(truncatingIfNeeded: self.entry.rawValue) & (1 << 62 - 1)
        var b = [UInt8](repeating: 0, count: 16)
        for i in 0..<6 { b[i] = UInt8(truncatingIfNeeded: ms >> (8 * (5 - i))) }
        b[6] = 0x80 | UInt8(truncatingIfNeeded: micro >> 8)
        b[7] = UInt8(truncatingIfNeeded: micro)
        b[8] = 0x80 | UInt8(truncatingIfNeeded: entry >> 56)
        for i in 9..<16 { b[i] = UInt8(truncatingIfNeeded: entry >> (8 * (15 - i))) }
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    public var description: String { "entry \(entry) started at \(started) µs" }
}
