import BoomicCore
import BoomicPlayback
import BoomicStation

/// A room as the rooms page shows it: its state, volume, place in the song, the song (with its
/// cover's address) and, when asked, a window of its queue. Read from the room's player as it is
/// (never waking a sleeping room) and the library's newest basis.
struct RoomView: Encodable, Sendable {
    /// A song as the page shows it.
    struct SongView: Encodable, Sendable {
        /// The catalog id (`so-…`), the id `/rest` and the library pages use.
        var id: String
        var title: String
        var artist: String?
        var album: String?
        var duration: Double?
        /// The cover's address under the page (`api/rooms/cover/ID`).
        var cover: String
    }

    /// One entry of the queue.
    struct EntryView: Encodable, Sendable {
        /// The entry's id in the queue (MPD's `Id`): what `play` takes.
        var id: Int
        /// Its place in the queue from 0 (MPD's `Pos`).
        var pos: Int
        var song: SongView
    }

    /// The entries shown: at most `QueueWindow.limit`, from a little before the current one.
    struct QueueWindow: Encodable, Sendable {
        /// Entries in the whole queue.
        var length: Int
        /// The position of the first entry listed.
        var start: Int
        var entries: [EntryView]
        static let limit = 500
        static let before = 50
    }

    var name: String
    /// A room with no output that no one used since the server started: its player is not
    /// running; a control wakes it.
    var asleep: Bool
    /// `play`, `pause` or `stop`, as MPD's `status` says it.
    var state: String
    var volume: Int?
    /// Seconds into the song.
    var elapsed: Double?
    var duration: Double?
    /// The current entry's id and position.
    var entry: Int?
    var pos: Int?
    var song: SongView?
    var random: Bool?
    var `repeat`: Bool?
    var single: String?
    var consume: Bool?
    /// The song that could not be played, while playback rests on it.
    var error: String?
    /// Present in a full state and whenever the queue changed.
    var queue: QueueWindow?

    /// The room `name` now; nil when it does not exist.
    static func of(_ name: String, station: Station, basis: DataBasis, queue withQueue: Bool) -> RoomView? {
        guard station.exists(name) else { return nil }
        guard !station.isAsleep(name), let player = station.player(name) else {
            return RoomView(name: name, asleep: true, state: "stop")
        }
        return of(name, status: player.status, basis: basis, queue: withQueue)
    }

    static func of(_ name: String, status: PlaybackStatus, basis: DataBasis, queue withQueue: Bool) -> RoomView {
        let q = status.queue
        var view = RoomView(name: name, asleep: false, state: stateName(q.state))
        view.volume = status.sound.volume
        view.random = q.isRandom
        view.repeat = q.repeatMode != .off
        view.single = q.single.rawValue
        view.consume = q.consume
        if let current = q.current, let pos = q.position(of: current) {
            view.entry = current.rawValue
            view.pos = pos
            view.song = song(q.entries[pos].song, basis: basis)
            if q.state != .stopped {
                view.elapsed = status.position
                view.duration = status.duration ?? view.song?.duration
            } else {
                view.duration = view.song?.duration
            }
        }
        if let failure = status.failure {
            view.error = "Could not play \(basis[failure.song].map(title(of:)) ?? "a song that is gone")."
        }
        if withQueue {
            let around = view.pos ?? 0
            let start = max(0, min(around - QueueWindow.before, q.entries.count - QueueWindow.limit))
            let end = min(q.entries.count, start + QueueWindow.limit)
            view.queue = QueueWindow(length: q.entries.count, start: start, entries: (start..<end).map { i in
                EntryView(id: q.entries[i].id.rawValue, pos: i, song: song(q.entries[i].song, basis: basis))
            })
        }
        return view
    }

    static func song(_ id: SongID, basis: DataBasis) -> SongView {
        let catalogID = CatalogID.song(id)
        guard let song = basis[id] else {
            return SongView(id: catalogID, title: "(gone from the library)", cover: "api/rooms/cover/" + catalogID)
        }
        let artist = song.artistCredit ?? (song.artists.isEmpty ? nil : song.artists.joined(separator: ", "))
        return SongView(id: catalogID, title: title(of: song), artist: artist, album: song.album, duration: song.duration,
                        cover: "api/rooms/cover/" + catalogID)
    }

    /// The title, else the file's name.
    static func title(of song: Song) -> String {
        if let title = song.title, !title.isEmpty { return title }
        return song.path.split(separator: "/").last.map(String.init) ?? song.path
    }

    static func stateName(_ state: PlayQueue.State) -> String {
        switch state {
        case .playing: "play"
        case .paused: "pause"
        case .stopped: "stop"
        }
    }

    /// Every room, in the station's order.
    static func all(_ station: Station, basis: DataBasis) -> [RoomView] {
        station.names.compactMap { of($0, station: station, basis: basis, queue: true) }
    }
}
