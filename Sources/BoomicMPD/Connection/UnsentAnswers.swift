import Synchronization

/// The bytes of long answers (`listallinfo`, a `find` of everything: 16 MB at 50,000 songs)
/// handed to the sockets and not yet sent, across every connection, held under a limit.
///
/// A connection stops being read once 256 KiB of answers wait for it, but the answer that
/// crossed that mark is held whole: 60 clients that each asked for `listallinfo` and never
/// read held a gigabyte (a soak measured 120 → 1,050 MB). MPD closes a client once 8 MiB wait
/// for it, which also refuses such an answer to every client. Here the total is bounded
/// instead: a long answer that would take it past the limit is refused with an error the client
/// can retry on, while the others' answers drain.
public final class UnsentAnswers: Sendable {
    /// Room for 16 `listallinfo`s of 50,000 songs waiting at once, 32 MPD clients' worth of
    /// its 8 MiB each.
    public static let defaultLimit = 256 << 20

    let limit: Int
    private let held = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    /// Takes room for `count` bytes; false (and nothing taken) when they would go past the limit.
    /// One answer alone always fits, however long: a limit below it would refuse it forever.
    func take(_ count: Int) -> Bool {
        var now = held.load(ordering: .relaxed)
        while true {
            guard now == 0 || now + count <= limit else { return false }
            let (exchanged, original) = held.compareExchange(expected: now, desired: now + count, ordering: .relaxed)
            if exchanged { return true }
            now = original
        }
    }

    /// Gives back the room of `count` bytes, once they are sent (or the connection closed).
    func give(_ count: Int) { held.subtract(count, ordering: .relaxed) }

    /// The bytes held now.
    var bytes: Int { held.load(ordering: .relaxed) }
}
