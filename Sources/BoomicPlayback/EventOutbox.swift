import BoomicCore

/// The decode thread's events, held until the status that shows them is published: a front
/// that looks at `status` when it hears an event (a song started, the queue played out) sees
/// what the event tells. Used on the decode thread only.
final class EventOutbox {
    private var held: [PlaybackEvent] = []
    private let send: (PlaybackEvent) -> Void

    init(send: @escaping (PlaybackEvent) -> Void) { self.send = send }

    /// Holds `event` until the next `flush`.
    func post(_ event: PlaybackEvent) { held.append(event) }

    /// Sends what is held, in the order it came: the status showing it is published.
    func flush() {
        guard !held.isEmpty else { return }
        let events = held
        held.removeAll(keepingCapacity: true)
        for event in events { send(event) }
    }
}
