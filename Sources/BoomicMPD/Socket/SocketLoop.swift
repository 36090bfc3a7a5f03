import CEpoll
import Foundation
import Synchronization

/// One event thread of the MPD front, as MPD's I/O thread is: epoll over the non-blocking
/// sockets of the connections it was given (each a `SocketConnection`), and an eventfd that
/// wakes it for work other threads hand it (`execute`: a change that ends an idle, the outcome
/// of work off the loop, a new connection). It waits on nothing but `epoll_wait`.
///
/// A `status` poll costs it one `epoll_wait`, one `read` and one `send`, and no lock: the task
/// list is looked at only when the eventfd says something was put there.
final class SocketLoop: ConnectionLoop, @unchecked Sendable {
    // Safe: `connections`, `generation`, `closing` and `running` are touched only on the loop's
    // thread (in `run` and the tasks and socket events it runs). Other threads touch only
    // `queued` (behind its mutex, which also guards writing to the eventfd and closing it) and
    // the epoll descriptor (the kernel's to share), and `start` and `stop` once each.
    private let epoll: CInt
    private let wake: CInt
    /// Work handed to the loop, and whether the loop still takes any.
    private let queued = Mutex<(tasks: [@Sendable () -> Void], open: Bool)>(([], true))
    private let finished = DispatchSemaphore(value: 0)
    private let name: String
    /// The connections by socket descriptor.
    private var connections: [SocketConnection?] = []
    /// Counts the sockets adopted: an event's key carries it beside the descriptor, so that an
    /// event read for a socket that closed since is not taken for a new one with its number.
    private var generation: UInt64 = 0
    /// Connections to close once the event or task under way has returned.
    private var closing: [SocketConnection] = []
    private var running = true

    /// The eventfd's key in epoll (no descriptor has it).
    private static let wakeKey = UInt64.max

    init(name: String) throws(MPDServerError) {
        self.name = name
        epoll = epoll_create1(CInt(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw MPDServerError("cannot start the MPD front's loop: \(String(cString: strerror(errno)))") }
        wake = eventfd(0, CInt(EFD_NONBLOCK | EFD_CLOEXEC))
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: Self.wakeKey))
        guard wake >= 0, epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &event) == 0 else {
            let error = MPDServerError("cannot start the MPD front's loop: \(String(cString: strerror(errno)))")
            close(epoll)
            if wake >= 0 { close(wake) }
            throw error
        }
    }

    /// Runs the loop on a thread of its own, until `stop`.
    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Closes every connection (each ends as when its client goes) and ends the loop's thread;
    /// returns once it has ended. Work handed to it later is dropped.
    func stop() {
        execute { [self] in
            running = false
            for case let connection? in connections { connection.closeSoon() }
        }
        finished.wait()
        queued.withLock { queued in
            queued.open = false
            queued.tasks.removeAll()
            close(wake)
        }
        close(epoll)
    }

    func execute(_ task: @escaping @Sendable () -> Void) {
        queued.withLock { queued in
            guard queued.open else { return }
            queued.tasks.append(task)
            // The first task since the loop last took them wakes it; the rest find it awake.
            if queued.tasks.count == 1 {
                var one: UInt64 = 1
                _ = write(wake, &one, 8)
            }
        }
    }

    /// Takes the connected socket `fd` (non-blocking), on the loop: `make` gives the connection
    /// that speaks over it, `closed` runs once it has closed.
    func adopt(_ fd: CInt, closed: @escaping @Sendable () -> Void,
               make: @escaping @Sendable (SocketConnection) -> MPDConnection) {
        execute { [self] in
            guard running else {
                close(fd)
                closed()
                return
            }
            generation &+= 1
            let key = UInt64(UInt32(bitPattern: fd)) | generation << 32
            let socket = SocketConnection(fd: fd, key: key, loop: self, closed: closed)
            var event = epoll_event(events: socket.interest, data: epoll_data_t(u64: key))
            guard epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0 else {
                close(fd)
                closed()
                return
            }
            if connections.count <= Int(fd) { connections += Array(repeating: nil, count: Int(fd) + 1 - connections.count) }
            connections[Int(fd)] = socket
            socket.start(make(socket))
            closeFinished()
        }
    }

    /// Asks epoll for `interest` on the connection's socket.
    func watch(_ socket: SocketConnection, _ interest: UInt32) {
        var event = epoll_event(events: interest, data: epoll_data_t(u64: socket.key))
        _ = epoll_ctl(epoll, EPOLL_CTL_MOD, socket.fd, &event)
    }

    /// Closes the connection once the event or task under way has returned, so that nobody
    /// finds it closed in the middle of a call.
    func scheduleClose(_ socket: SocketConnection) {
        closing.append(socket)
    }

    private func closeFinished() {
        while let socket = closing.popLast() {
            var unused = epoll_event()
            _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket.fd, &unused)
            if Int(socket.fd) < connections.count, connections[Int(socket.fd)] === socket {
                connections[Int(socket.fd)] = nil
            }
            socket.finishClose()
        }
    }

    private func run() {
        let capacity: CInt = 64
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Int(capacity))
        defer { events.deallocate() }
        while running {
            let count = epoll_wait(epoll, events, capacity, -1)
            guard count >= 0 else {
                if errno == EINTR { continue }
                break
            }
            for i in 0..<Int(count) {
                let key = events[i].data.u64
                if key == Self.wakeKey {
                    runTasks()
                    continue
                }
                let fd = Int(key & 0xFFFF_FFFF)
                guard fd < connections.count, let socket = connections[fd], socket.key == key else { continue }
                socket.handle(events[i].events)
                closeFinished()
            }
        }
        for case let socket? in connections { socket.closeSoon() }
        closeFinished()
    }

    private func runTasks() {
        var count: UInt64 = 0
        _ = read(wake, &count, 8)
        let tasks = queued.withLock { queued in
            defer { queued.tasks.removeAll(keepingCapacity: true) }
            return queued.tasks
        }
        for task in tasks {
            task()
            closeFinished()
        }
    }
}
