import BoomicCore
import BoomicPlayback

/// The place a room's state file names: the engine's newest status while it agrees with the
/// events the room has recorded, else the last place that did.
///
/// The engine runs ahead of the room: its status moves on as soon as a song ends, the room
/// records that end later (its events wait in a stream), and several songs can end in one turn
/// of the engine before it publishes the status after them. A save of a status ahead of the
/// recorded events names a place past a song whose play is neither committed nor pending (a
/// crash loses that play); a save of a status behind them names a place before a committed
/// play (a crash starts that song again as a new play, counted twice). So a status is saved
/// only when it names the song the room knows is under way, or the one that follows the last
/// song the room recorded as ended; otherwise the last place that agreed is saved (resumed,
/// that play goes on by its key, or a song whose end is not recorded starts as a new play).
struct RoomPlace: Sendable {
    struct Place: Sendable, Equatable {
        var entry: PlayQueue.EntryID?
        var frame: Int
        var play: PlayKey?
        /// The queue as it stood at this place (its current entry is `entry`).
        var queue: PlayQueue
    }

    private enum Step: Sendable {
        /// Nothing recorded yet: the run starts at `entry` (the resumed one, or the queue's first).
        case starting(PlayQueue.EntryID?)
        /// The start of this play recorded, its end not yet.
        case playing(PlayKey)
        /// The end of this play recorded, the next song's start not yet.
        case after(PlayQueue.EntryID, PlayKey)
        /// No song under way that the room knows of (the queue ended, the output failed): the
        /// status is saved as it is.
        case free
    }

    private var step: Step
    /// The run resumes a saved place.
    private let resuming: Bool
    /// The last place saved that agreed with the recorded events.
    private var known: Place?
    /// The plays whose end the room recorded, the newest last (a few: as far as the engine's
    /// status can lag behind its events).
    private var ended: [PlayKey] = []
    private static let endedKept = 16

    /// - Parameters:
    ///   - queue: the queue the run starts from, as saved.
    ///   - resume: where the run resumes (its play goes on by its key).
    init(queue: PlayQueue, resume: ResumePoint?) {
        resuming = resume != nil
        if let resume {
            step = .starting(resume.entry)
            known = Place(entry: resume.entry, frame: resume.frame, play: resume.play, queue: queue)
        } else {
            let first = queue.current ?? queue.playOrder.first
            step = .starting(first)
            // The run's first song from its start, should the room lag behind it from the first.
            known = first.map { Place(entry: $0, frame: 0, play: nil, queue: queue.current == $0 ? queue : queue.applying(.play($0))) }
        }
    }

    /// The engine reported the start of `play`. The place known stays until a status agrees: a
    /// crash before then resumes the play before it, which counts once, and this song's play,
    /// not yet recorded, starts anew.
    mutating func started(_ play: PlayKey) { step = .playing(play) }

    /// The engine reported the end of `play` of `entry`: its play is about to be committed, so
    /// the place is at least this song, with this key (reached from the place known as the
    /// engine reached it, by the queue's own moves at each song's end).
    mutating func ended(_ entry: PlayQueue.EntryID, play: PlayKey) {
        step = .after(entry, play)
        ended.append(play)
        if ended.count > Self.endedKept { ended.removeFirst() }
        guard var place = known else { return }
        if place.entry == entry {
            if place.play != play { place.frame = 0 }
        } else {
            place.frame = 0
            for _ in 0...place.queue.entries.count where place.queue.current != entry {
                place.queue.apply(.finished)
            }
            guard place.queue.current == entry else {
                known = nil
                return
            }
        }
        place.entry = entry
        place.play = play
        known = place
    }

    /// The engine went idle or failed: nothing under way is the room's to keep.
    mutating func free() {
        step = .free
        known = nil
    }

    /// The place to save for the engine's `status`.
    mutating func place(for status: PlaybackStatus) -> Place {
        let shown = Place(entry: status.entry, frame: status.frame, play: status.play, queue: status.queue)
        if agrees(status) {
            if status.play != nil { known = shown }
            return shown
        }
        return known ?? shown
    }

    private func agrees(_ status: PlaybackStatus) -> Bool {
        if let play = status.play, ended.contains(play), ended.last != play { return false }
        switch step {
        case .free:
            return true
        case let .starting(first):
            // Before the run's first song opens, the status names no play: the resumed place
            // stands.
            guard let play = status.play else { return !resuming }
            if resuming, let resumed = known?.play { return play == resumed }
            return first == nil || status.entry == first
        case let .playing(key):
            // This play, not another of the same entry (`repeat` one's next is ahead).
            return status.play == key
        case let .after(entry, key):
            let history = status.queue.history
            // Stopped after the ended song, with no song started since (by the queue's own
            // history of songs played).
            guard let play = status.play else { return history.last?.entry == entry }
            if play == key { return true }
            // The song right after the ended one.
            guard history.count >= 2, history[history.count - 1].entry == status.entry else { return false }
            return history[history.count - 2].entry == entry && !ended.contains(play)
        }
    }
}
