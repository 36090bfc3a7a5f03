/// One thing that can happen to a `PlayQueue`: what a key, a `boomic play` option, an MPD
/// command or the engine (`finished`) asks for.
///
/// Positions are indices in the queue's order (`PlayQueue.entries`), as MPD numbers them. A
/// command whose arguments name nothing in the queue (an unknown id, a position past the end)
/// changes nothing, so the version stays put; fronts that must report such a mistake (MPD's
/// `ACK`) check the arguments before.
public enum QueueCommand: Equatable, Sendable {
    /// Where added songs go.
    public enum Place: Equatable, Sendable {
        /// After the last entry.
        case end
        /// Right after the current entry, and first in the play order after it even with
        /// `random` on ("play next"); at the front when there is no current entry.
        case next
        /// At this position (0 ... count), the entries from there on moving down.
        case position(Int)
    }

    /// Queues these songs, in this order, as new entries with new ids. With `random` on they join
    /// the current round among the entries not played yet (`.next`: first of them).
    case add([SongID], at: Place)
    /// Moves the entries at `positions` (MPD `move START:END TO`) so that the first lands at `to`
    /// in the resulting queue. Play order with `random` on does not change.
    case move(positions: Range<Int>, to: Int)
    /// Swaps the entries at two positions (MPD `swap`).
    case swap(Int, Int)
    /// Removes these entries (MPD `deleteid`). Removing the current entry moves on to the entry
    /// that would have played next (playing on if it was playing).
    case remove([PlayQueue.EntryID])
    /// Removes the entries at these positions (MPD `delete START:END`).
    case removePositions(Range<Int>)
    /// Removes every entry; history stays.
    case clear
    /// Reorders the entries at these positions (all when nil) at random: MPD's `shuffle`, which
    /// changes the queue itself. A current entry in the range goes first in it.
    case shuffle(Range<Int>?)
    /// MPD `prio`/`prioid`: with `random` on, higher priority entries play first among those
    /// not played yet in the round.
    case setPriority(UInt8, [PlayQueue.EntryID])
    /// MPD `rangeid`: the entry plays only this part of its file (nil: all of it). The entry
    /// takes the new version, as MPD tells `plchanges`; the playing entry's range changes only
    /// when it next starts (MPD refuses to change it).
    case setRange(PlayRange?, PlayQueue.EntryID)
    /// The library changed what clients see of these songs (a title, a path, a length): their
    /// entries take the new version, as MPD's queue takes a database update, so that `plchanges`
    /// lists them and a client redraws them. Nothing else changes; none queued, nothing does.
    case refresh(Set<SongID>)
    /// MPD `random`: the play order becomes a random round (the current entry first) or the
    /// queue's order again. The queue itself does not change.
    case setRandom(Bool)
    case setRepeat(PlayQueue.Repeat)
    case setSingle(PlayQueue.Single)
    case setConsume(Bool)
    /// Plays this entry from its start; nil: resumes when paused, else starts the current entry
    /// (the first of the play order when there is none).
    case play(PlayQueue.EntryID?)
    case pause
    /// Stops; the current entry stays, so `play` starts it again.
    case stop
    /// The user skips on: to the next entry of the play order (round the end unless
    /// `repeat off`); `repeat one` and `single` do not hold a skip back.
    case next
    /// The user goes back: restarts the current entry when more than 3 s of it were heard
    /// (`elapsed`, in seconds), else goes to the entry before it in the play order (round the
    /// start with `repeat`), else restarts it.
    case previous(elapsed: Double)
    /// The engine says the current entry played to its end: `repeat`, `single` and `consume`
    /// decide what comes next.
    case finished
}
