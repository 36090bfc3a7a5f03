import BoomicCore
import Foundation
import NIOCore
import Synchronization

/// What every connection shares: the library, the player, the idle hub, and the few settings
/// the commands consult.
public final class ServerContext: Sendable {
    public let library: ServerLibrary
    public let rooms: Rooms
    public let hub: IdleHub
    /// Clients must send it before anything but `password`, `ping`, `close`, `commands` and
    /// `notcommands`; nil lets everyone in (the default, on loopback).
    public let password: String?
    public let started: Date
    /// Boomic's version, for `boomic version`.
    public let version: String
    /// `update`'s jobs: the last number given and those waiting their turn (MPD queues an
    /// update asked for while one runs, up to 32).
    let updates = Mutex<UpdateJobs>(UpdateJobs())
    /// The job running (0 for none), as `status` reads it: without the lock, which every
    /// client's poll would otherwise take.
    let updating = Atomic<Int>(0)
    /// Client-to-client messages (`subscribe`, `sendmessage`): channel → subscribers' queues.
    let channels = Mutex<[String: [Int: MessageBox]]>([:])
    /// What `kill` does: stops the server as SIGTERM does (queues and positions saved, the
    /// library closed); nothing where whoever made the server did not say.
    let stop: @Sendable () -> Void

    /// Long answers handed to clients and not yet sent, across every connection.
    let unsent: UnsentAnswers
    /// Runs commands' blocking work (`Invocation.blocking`): off the event loops, and one at a
    /// time, so that two clients moving outputs at once do not restart a room's player under
    /// each other. (Tests on NIO's `EmbeddedChannel`, whose loop is the test's thread, run it there.)
    let runBlocking: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let blockingQueue = DispatchQueue(label: "boomic.serve.blocking")
    /// Runs commands' reading work (`Invocation.reading`, which reads from disk): off the event
    /// loops, and beside the blocking work, not behind it.
    let runWaiting: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Set when the server stops: blocking work that ends after it answers nobody (the event
    /// loops are going).
    private let stopping = Atomic<Bool>(false)
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    public init(library: ServerLibrary, rooms: Rooms, hub: IdleHub, password: String?,
                version: String, started: Date = Date(), unsentLimit: Int = UnsentAnswers.defaultLimit,
                runBlocking: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil,
                runWaiting: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil,
                stop: @escaping @Sendable () -> Void = {}) {
        self.stop = stop
        let queue = blockingQueue
        self.runBlocking = runBlocking ?? { queue.async(execute: $0) }
        let waiting = DispatchQueue(label: "boomic.serve.waiting", attributes: .concurrent)
        self.runWaiting = runWaiting ?? { waiting.async(execute: $0) }
        unsent = UnsentAnswers(limit: unsentLimit)
        self.version = version
        self.library = library
        self.rooms = rooms
        self.hub = hub
        self.password = password
        self.started = started
    }
}

extension ServerContext {
    /// How long a client's commit (a sticker, a stored playlist) waits for the library's write
    /// lock while another process holds it (a `boomic import` or `modify` from the terminal):
    /// less than a client waits for its answer (ncmpcpp gives up after 5 s), so the client
    /// hears why instead of timing out, and nothing is committed behind its back.
    static let lockWait: Duration = .seconds(3)

    /// From now on, blocking work answers nobody; returns once the work under way is done (a
    /// `moveoutput` saving and restarting a room), so that the rooms are quit after it.
    func finishBlockingWork() {
        stopping.store(true, ordering: .releasing)
        blockingQueue.sync {}
    }
}

/// One subscriber's unread messages on one channel.
final class MessageBox: Sendable {
    let slot: IdleSlot
    let messages = Mutex<[String]>([])
    init(slot: IdleSlot) { self.slot = slot }
}

/// One connection's own state, on its event loop.
final class ClientState {
    let id: Int
    let address: String
    /// A local socket's clients are trusted, as MPD trusts them.
    let isLocal: Bool
    let idle: IdleSlot
    var tags = MPDTagSet.standard
    /// Whether `tagtypes` lists `Name` (a radio stream's name in MPD): the one MPD 0.23 tag the
    /// library keeps no value of, so never printed for a song, but switched and listed as the
    /// others are, since clients read the list.
    var listsName = true
    var authenticated: Bool
    var binaryLimit = 8192
    var subscriptions: [String: MessageBox] = [:]
    /// This client's room's player, and the rooms' generation it was looked up in.
    var player: (room: String, generation: Int, player: ServerPlayer)?
    /// `status` as last answered, and what it was made from: answered again as it is while
    /// none of that moved (clients poll `status` several times a second, mostly unchanged).
    var keptStatus: KeptStatus?
    /// Set when this client starts `idle`; cleared once it is seen not waiting. While false it
    /// cannot be idle (only its own request starts a wait), so the poll's shortcut need not
    /// take the idle slot's lock.
    var mayBeIdle = false
    /// The room (partition) this client drives.
    var room = "default" {
        didSet {
            idle.room = room
            keptStatus = nil  // made of another room's player
        }
    }

    init(id: Int, address: String, isLocal: Bool, idle: IdleSlot, needsPassword: Bool) {
        self.id = id
        self.address = address
        self.isLocal = isLocal
        self.idle = idle
        authenticated = isLocal || !needsPassword
    }
}

/// `update` and `rescan` jobs, numbered as MPD numbers them, run one at a time in order.
struct UpdateJobs {
    struct Job {
        let number: Int
        /// The folders to scan; empty for all, nil for none (a path in no music folder, which
        /// MPD answers with a job all the same).
        let within: [String]?
        let reread: Bool
    }

    var last = 0
    var waiting: [Job] = []
    /// A thread is running the jobs (set when it is started, before it takes the first). The
    /// job it runs is `ServerContext.updating`, which `status` reads without the lock.
    var working = false
    /// MPD's limit on jobs waiting.
    static let maxWaiting = 32
}
