import Foundation
import NIOCore

/// The glue of one client's connection: frames what its socket reads into requests, hands them
/// to its session (`MPDSession`) one at a time while the client takes its answers, and carries
/// out what the session asks (`SessionPort`): answers through the writer (`AnswerWriter`), work
/// off the loop, idle waits, the close. Its socket (`ConnectionIO`) calls it on the
/// connection's loop, which never waits: what would (disk, SQLite, a player's thread) is
/// background work.
final class MPDConnection {
    private let server: ServerContext
    private let client: ClientState
    private let session: MPDSession
    private let writer: AnswerWriter
    private var framer = LineFramer(limit: MPDServer.lineLimit)
    private let io: any ConnectionIO
    /// The connection is ending (`close`, `kill`, a line MPD hangs up on): nothing more is read
    /// or answered, and it closes once its socket has sent what it holds (as MPD tries to send
    /// what it has before it closes), or when the client goes.
    private var ending = false
    /// The client has sent all it will (it shut down its side, as `printf … | nc` does): the
    /// requests it sent are carried out and answered, then the connection closes, as MPD
    /// answers what it read before the end.
    private var inputEnded = false
    /// The client is gone: nothing more is carried out (work off the loop that ends later
    /// answers nobody).
    private var gone = false
    /// Requests read but not yet carried out: a client that never reads its answers may have
    /// sent hundreds of requests in one read. They wait here until the client has taken what it
    /// was sent.
    private var waiting: [RequestLine] = []
    private var waitingStart = 0
    /// Nothing of this connection's is under way: no request waiting or half read, no command
    /// list, no answer gathered, unflushed or being made. Set at the end of every event, so
    /// that the `status` poll's shortcut reads one flag.
    private var settled = true

    init(server: ServerContext, client: ClientState, io: any ConnectionIO) {
        self.server = server
        self.client = client
        self.io = io
        session = MPDSession(server: server, client: client)
        writer = AnswerWriter(unsent: server.unsent, io: io)
    }

    /// The client is connected: it is greeted.
    func started() {
        writer.write(MPDSession.greeting)
        writer.flush()
        settled = isSettled
    }

    /// The client is gone (or the server stops): its idle wait, its room and its message
    /// subscriptions are let go.
    func ended() {
        gone = true
        _ = client.idle.endWait()
        server.hub.remove(client.idle)
        if client.room != "default" {
            // The room this client was the last in may go to sleep (not while the server stops:
            // its rooms are quit then).
            let (server, room) = (server, client.room)
            server.runBlocking { if !server.isStopping { server.rooms.sleepIfIdle(room) } }
        }
        let id = client.id
        let names = Array(client.subscriptions.keys)
        server.channels.withLock { channels in
            for name in names { channels[name]?.removeValue(forKey: id) }
        }
    }

    /// Bytes read from the client.
    func read(_ bytes: ByteBuffer) {
        // The poll every client keeps sending, alone in its read, with nothing before it to
        // answer first: its last answer as it is, while nothing it is made of changed. No
        // framing, parsing or copying.
        if settled, !client.mayBeIdle, client.authenticated, Self.isStatusAlone(bytes),
           let answer = StatusCommands.keptAnswer(for: client, server: server) {
            writer.send(answer)
            return
        }
        guard !ending else { return }  // what a closing connection sends is not read
        framer.take(bytes, into: &waiting)
        drain()
        settled = isSettled
    }

    private var isSettled: Bool {
        waitingStart == waiting.count && session.isSettled && writer.isEmpty && framer.isBetweenLines && !ending
    }

    /// The read is `status` and its line end, nothing else.
    private static func isStatusAlone(_ read: ByteBuffer) -> Bool {
        read.withUnsafeReadableBytes { raw in
            switch raw.count {
            case 7: memcmp(raw.baseAddress!, "status\n", 7) == 0
            case 8: memcmp(raw.baseAddress!, "status\r\n", 8) == 0
            default: false
            }
        }
    }

    /// One flush for all the answers to one read's requests: a client that pipelines gets them
    /// in one write, and one that waits for each answer still gets it at once.
    func readComplete() {
        guard !settled else { return }  // nothing gathered, nothing unflushed
        writer.flush()
        settled = isSettled
    }

    /// A slow reader stops being read, and its waiting requests stop being carried out, until
    /// it has taken what it was sent; so it costs one read of requests and 256 KiB of answers.
    func writabilityChanged() {
        let writable = io.isWritable
        io.setReading(writable && !session.isBlocked)
        if writable, !writer.pumping, !session.isBlocked {
            if writer.pump() {
                session.writable(self)
                drain()
            }
            writer.flush()
        }
        settled = isSettled
    }

    /// The client shut down its side: what it sent is answered, then the connection closes.
    func inputClosed() {
        inputEnded = true
        drain()
        writer.flush()
        settled = isSettled
    }

    /// Hands the waiting requests to the session, one at a time, while it can take them and
    /// the client takes its answers.
    private func drain() {
        while waitingStart < waiting.count, session.isReady, !writer.isStreaming, !ending,
              io.isWritable, io.isActive {
            let request = waiting[waitingStart]
            waitingStart += 1
            // One that stands waits where it is, until its work off the loop says (`resume`).
            if !session.take(request, self) { waitingStart -= 1 }
            writer.handOverIfLong()
        }
        if inputEnded, !ending, waitingStart == waiting.count, session.isReady, !writer.isStreaming {
            close()  // everything it sent is answered (a line it did not end is not a request)
        }
        if waitingStart == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            waitingStart = 0
        }
    }

    /// Runs work off the loop, reading nothing more from the client meanwhile; its outcome goes
    /// back to the session on the loop. What was answered before it goes out now.
    private func runInBackground(_ work: Background) {
        io.setReading(false)
        writer.flush()
        let connection = LoopBound(self, loop: io.loop)
        let server = server
        let run = work.lane == .serial ? server.runBlocking : server.runWaiting
        run {
            let outcome: Outcome
            do throws(MPDError) {
                outcome = try work.work()
            } catch {
                var e = error
                e.index = work.index
                if e.command.isEmpty { e.command = work.command }
                outcome = .failed(e)
            }
            // The loops are going: nobody is answered.
            guard !server.isStopping else { return }
            connection.execute { $0.finished(outcome) }
        }
    }

    /// Work off the loop is done: the session answers it, and the client is read again.
    private func finished(_ outcome: Outcome) {
        guard !gone else { return }
        io.setReading(io.isWritable)
        guard !ending else { return }
        if session.resume(outcome, self) { waitingStart += 1 }
        drain()
        writer.flush()
        settled = isSettled
    }

    /// Starts the client's `idle`: answered at once when something changed already, else when
    /// a change wakes it, on this loop.
    private func startIdle(_ mask: Set<Subsystem>) {
        let connection = LoopBound(self, loop: io.loop)
        let changedAlready = client.idle.wait(for: mask) {
            connection.execute { $0.idleEnded() }
        }
        if changedAlready { session.idleEnded(self) }
    }

    private func idleEnded() {
        guard !ending, !gone else { return }
        session.idleEnded(self)
        writer.flush()
        settled = isSettled
    }

    /// Ends the connection (`ending`): what was answered goes out first, then it closes.
    private func close() {
        writer.flush()
        ending = true
        waiting.removeAll()
        waitingStart = 0
        io.closeWhenSent()
    }
}

extension MPDConnection: SessionPort {
    @discardableResult
    func perform(_ action: SessionAction) -> Bool {
        switch action {
        case let .text(text):
            writer.write(text)
        case let .bytes(bytes):
            writer.write(bytes)
        case let .response(response, ending, command, index):
            guard writer.write(response, ending: ending) else {
                writer.write(writer.noRoom(command, index: index))
                return false
            }
            writer.handOverIfLong()
        case let .background(work):
            runInBackground(work)
        case let .idle(mask):
            startIdle(mask)
        case .close:
            close()
        }
        return true
    }

    var isWritable: Bool { io.isWritable }
    var isStreaming: Bool { writer.isStreaming }
}
