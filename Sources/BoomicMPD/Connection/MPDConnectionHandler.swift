import Foundation
import NIOCore

/// One client's conversation: the greeting, then one request at a time — a command, a
/// command list, or `idle` — each answered with `OK` or one `ACK` line. Runs on the
/// connection's event loop; commands read snapshots and tell the player, so they are quick.
final class MPDConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What the server announces: the protocol version of Debian 12's MPD.
    static let greeting = "OK MPD 0.23.5\n"
    /// More commands in one list than any client sends: refused, not run.
    static let maxListLength = 10_000

    private let server: ServerContext
    private let client: ClientState
    private var framer = LineFramer(limit: MPDServer.lineLimit)
    private var list: (ok: Bool, lines: [MPDCommandLine])?
    /// A command list that went over the limit: the rest of it is skipped.
    private var listOverflowed = false
    /// A `close` ran in the command list just run: the connection ends after it.
    private var closing = false
    /// The connection is ending (`close`, `kill`, a line MPD hangs up on): nothing more is read
    /// or answered, and it closes once NIO has written what it holds, as MPD tries to send what
    /// it has before it closes (closing at once threw away answers the client had asked for
    /// before its `close`), or when the client goes.
    private var ending = false
    /// The client has sent all it will (it shut down its side, as `printf … | nc` does): the
    /// requests it sent are carried out and answered, then the connection closes, as MPD
    /// answers what it read before the end. (NIO closed at once, which lost the answer of a
    /// command whose work runs off the loop, and everything after it.)
    private var inputEnded = false
    /// A command list waiting for its client to take the answers so far: what is left of it,
    /// carried on when the connection is writable again. One list's answers are never all
    /// held at once (a list of 9,999 `listallinfo` to a client that does not read would be
    /// gigabytes); at most one command's answer over the water mark is.
    private var pausedList: (ok: Bool, lines: [MPDCommandLine], next: Int)?
    /// A command whose work runs off the loop (`Invocation.blocking`), until it is answered:
    /// meanwhile nothing more is read from its client or carried out for it.
    private var blocked: Blocked?
    /// A long answer being made as the client reads it (`MPDResponse.rest`), and what ends it
    /// (`OK`, `list_OK`): nothing else is answered until it has ended. A class, so that the
    /// poll's check for it is a pointer's, not a copy of an existential through the runtime.
    private var streaming: Streaming?
    /// In `pump`: a client taking its answers meanwhile (a flush there can tell at once) is
    /// seen by `pump` itself, not by a second `pump` inside the first.
    private var pumping = false
    /// Requests read but not yet carried out: the socket's bytes arrive in reads of up to a
    /// megabyte, so a client that never reads its answers may have sent hundreds of requests at
    /// once. They wait here, as the bytes they came in (bounded by what one read holds, since
    /// reading stops), until the client has taken what it was sent.
    private var waiting: [RequestLine] = []
    /// Answers not yet handed to NIO: a read's answers are gathered here and go out as one
    /// buffer in one write at the end of the read (`channelReadComplete`); past `outLimit` they
    /// are handed over at once, so NIO's count of unsent bytes (and the back-pressure on a
    /// client that does not read) stays right. Cleared after the flush, when NIO has let go of
    /// it, so one buffer serves a connection's requests.
    private var out = ByteBuffer()
    private static let outLimit = 64 * 1024
    /// Bytes were handed to NIO and not flushed since: the end of a read flushes only then, so
    /// that a read answered at once (the `status` poll) costs no second trip down the pipeline.
    private var unflushed = false
    private var waitingStart = 0
    /// Nothing of this connection's is under way: no request waiting or half read, no command
    /// list, no answer gathered, unflushed or being made (`isSettled`). Set at the end of every
    /// event, so that the `status` poll's shortcut reads one flag where it read the buffers
    /// themselves, each a checked access (a fifth of what the handler's part of a poll cost).
    private var settled = true
    /// The socket, for answers sent past NIO's write path (nil on a channel without one, as in
    /// tests on NIO's `EmbeddedChannel`): used only while `nioHolds` is 0.
    private let sender: SocketSender?
    /// Writes handed to NIO and not yet written by it (or failed, at a close): while any are,
    /// everything goes through NIO after them, so that nothing overtakes them.
    private var nioHolds = 0

    init(server: ServerContext, client: ClientState, sender: SocketSender? = nil) {
        self.server = server
        self.client = client
        self.sender = sender
    }

    func channelActive(context: ChannelHandlerContext) {
        write(context, Self.greeting)
        flush(context)
        settled = isSettled
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
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
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let read = unwrapInboundIn(data)
        // The poll every client keeps sending, alone in its read, with nothing before it to
        // answer first: its last answer as it is, while nothing it is made of changed. No
        // framing, parsing or copying, which were a third of the server's own work for it.
        if settled, !client.mayBeIdle, client.authenticated, Self.isStatusAlone(read),
           var answer = StatusCommands.keptAnswer(for: client, server: server) {
            sendDirectly(&answer, context)
            if answer.readableBytes > 0 { context.writeAndFlush(wrapOutboundOut(answer), promise: heldByNIO(context)) }
            return
        }
        guard !ending else { return }  // what a closing connection sends is not read
        framer.take(read, into: &waiting)
        drain(context: context)
        settled = isSettled
    }

    private var isSettled: Bool {
        waitingStart == waiting.count && list == nil && pausedList == nil && streaming == nil && out.readableBytes == 0
            && !unflushed && framer.isBetweenLines && !ending && blocked == nil
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
    /// in one write, and one that waits for each answer still gets it at once. Not passed on:
    /// this handler is the pipeline's last, and the tail does nothing with it (a trip down
    /// the pipeline on every request, a tenth of what the `status` poll costs the handler).
    func channelReadComplete(context: ChannelHandlerContext) {
        guard !settled else { return }  // nothing gathered, nothing unflushed
        flush(context)
        settled = isSettled
    }

    /// A slow reader stops being read, and its waiting requests stop being carried out, until
    /// it has taken what it was sent; so it costs one read of requests and 256 KiB of answers.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        let writable = context.channel.isWritable
        context.channel.setOption(ChannelOptions.autoRead, value: writable && blocked == nil).whenComplete { _ in }
        if writable, !pumping, blocked == nil {
            if streaming == nil || pump(context) {
                if let paused = pausedList {
                    pausedList = nil
                    continueList(ok: paused.ok, lines: paused.lines, from: paused.next, context: context)
                    if closing { close(context) }
                }
                drain(context: context)
            }
            flush(context)
        }
        settled = isSettled
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case .inputClosed? = event as? ChannelEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        inputEnded = true
        drain(context: context)
        flush(context)
        settled = isSettled
    }

    private func drain(context: ChannelHandlerContext) {
        while waitingStart < waiting.count, pausedList == nil, streaming == nil, blocked == nil, !ending,
              context.channel.isWritable, context.channel.isActive {
            let request = waiting[waitingStart]
            waitingStart += 1
            switch request {
            case .tooLong:
                write(context, MPDError(.argument, "line too long").line + "\n")
            case .badText:
                write(context, MPDError(.argument, "not UTF-8").line + "\n")
            case let .line(text):
                if let deferred = handle(text, context: context) {
                    // Waits where it is: carried out again once the client's room is back, or
                    // answered (and passed) once its player has carried out its pending call.
                    waitingStart -= 1
                    wait(for: deferred, index: 0, list: nil, context: context)
                }
            }
            if out.readableBytes >= Self.outLimit { handOver(context) }
        }
        if inputEnded, !ending, waitingStart == waiting.count, pausedList == nil, streaming == nil, blocked == nil {
            close(context)  // everything it sent is answered (a line it did not end is not a request)
        }
        if waitingStart == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            waitingStart = 0
        }
    }

    /// Carries out one request; what it waits for when it must wait (`Deferral`), else nil.
    private func handle(_ text: String, context: ChannelHandlerContext) -> Deferral? {
        if client.mayBeIdle {
            // MPD drops the spaces and tabs that end a line, not those that start one.
            if text.hasPrefix("noidle"), text.utf8.dropFirst(6).allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                // The idle's answer: what ended it (a change just now), or nothing changed;
                // nothing when it was answered already (MPD says nothing either).
                if let changed = client.idle.endWait() { write(context, Self.idleAnswer(changed)) }
                client.mayBeIdle = false
                return nil
            }
            let (waiting, changed) = client.idle.over()
            // In idle, only noidle is allowed; MPD hangs up on anything else.
            guard !waiting else {
                close(context)
                return nil
            }
            // A change ended the idle before this request came, and its answer is on its way
            // to this loop from the thread that made it: it goes first, here.
            if let changed { write(context, Self.idleAnswer(changed)) }
        }
        client.mayBeIdle = false
        // The poll every client keeps sending: its last answer again while nothing it is made of
        // changed (what `CommandTable` would answer, without the parsing and the dispatch).
        if list == nil, text == "status", client.authenticated, let answer = StatusCommands.keptAnswer(for: client, server: server) {
            out.writeImmutableBuffer(answer)
            return nil
        }
        // Every MPD command starts with a lower-case letter; MPD hangs up without an answer on
        // a line that does not (an empty one, `PING`, a badly routed HTTP request).
        guard let first = text.utf8.first, first >= 0x61 && first <= 0x7A else {
            close(context)
            return nil
        }
        // `noidle` while not waiting does nothing, in a command list too (MPD takes it before
        // the list does, so it is no command of the list and gets no `list_OK`).
        if text == "noidle" { return nil }
        let line: MPDCommandLine
        do { line = try MPDCommandLine.parse(text) } catch {
            write(context, error.line + "\n")
            if MPDCommandLine.hasNoCommandWord(error) { close(context) }
            return nil
        }
        if list != nil {
            if line.command == "command_list_end" {
                runList(context: context)
                if closing { close(context) }
            } else if listOverflowed {
                return nil
            } else if list!.lines.count >= Self.maxListLength {
                listOverflowed = true
            } else {
                list!.lines.append(line)
            }
            return nil
        }
        switch line.command {
        case "command_list_end":
            // Outside a list MPD knows no such command.
            write(context, MPDError(.unknown, "unknown command \"command_list_end\"").line + "\n")
        case "command_list_begin", "command_list_ok_begin":
            list = (line.command == "command_list_ok_begin", [])
            listOverflowed = false
        case "noidle" where line.arguments.isEmpty:
            return nil  // not waiting: nothing to end (MPD says nothing either)
        case "noidle":
            // With arguments it is no command MPD knows.
            write(context, MPDError(.unknown, "unknown command \"noidle\"").line + "\n")
        case "idle":
            idle(line, index: 0, context: context)
        default:
            switch CommandTable.run(line, client: client, server: server, index: 0) {
            case let .success(invocation):
                // `close` and `kill` end the connection without an answer, as MPD's do.
                if invocation.closes {
                    close(context)
                } else if let work = invocation.blocking {
                    block(on: work, command: line.command, index: 0, ending: "OK\n", list: nil, context: context)
                } else if !write(context, invocation.response, ending: "OK\n") {
                    write(context, noRoom(line.command, index: 0))
                }
            case let .failure(error) where error.isRoomRestarting:
                return .room(line.command)
            case let .failure(error) where error.pending != nil:
                return .call(error.pending!, line.command)
            case let .failure(error):
                write(context, error.line + "\n")
            }
        }
        return nil
    }

    private func runList(context: ChannelHandlerContext) {
        guard let (ok, lines) = list else { return }
        list = nil
        if listOverflowed {
            listOverflowed = false
            write(context, MPDError(.argument, "command list too long (over \(Self.maxListLength) commands)").line + "\n")
            return
        }
        continueList(ok: ok, lines: lines, from: 0, context: context)
    }

    /// Runs `lines` from `start` on; pauses (`pausedList`) when the client has not taken the
    /// answers so far, after at least one command, so that every call makes progress.
    private func continueList(ok: Bool, lines: [MPDCommandLine], from start: Int, context: ChannelHandlerContext) {
        for i in start..<lines.count {
            let line = lines[i]
            if i > start, !context.channel.isWritable {
                pausedList = (ok, lines, i)
                flush(context)
                return
            }
            if ["command_list_begin", "command_list_ok_begin"].contains(line.command) {
                // A list in a list: MPD reads it as no command at all.
                write(context, MPDError(.unknown, "unknown command \"\(line.command)\"", index: i).line + "\n")
                return
            }
            if line.command == "noidle" {
                // A bare `noidle` was taken before the list; with arguments it is no command.
                write(context, MPDError(.unknown, "unknown command \"noidle\"", index: i).line + "\n")
                return
            }
            if line.command == "idle" {
                // As in MPD, an idle ends the list: what follows it is not run, and the list
                // gets no `OK`; the idle's answer comes when it ends.
                idle(line, index: i, context: context)
                return
            }
            switch CommandTable.run(line, client: client, server: server, index: i) {
            case let .success(invocation):
                // `close` ends the connection there, without a word (as MPD does).
                if invocation.closes {
                    closing = true
                    return
                }
                if let work = invocation.blocking {
                    block(on: work, command: line.command, index: i, ending: ok ? "list_OK\n" : "",
                          list: (ok, lines, i + 1), context: context)
                    return
                }
                guard write(context, invocation.response, ending: ok ? "list_OK\n" : "") else {
                    write(context, noRoom(line.command, index: i))
                    return
                }
                if streaming != nil {
                    // Its answer goes on as the client reads; the list after it.
                    pausedList = (ok, lines, i + 1)
                    return
                }
                if out.readableBytes >= Self.outLimit { handOver(context) }
            case let .failure(error) where error.isRoomRestarting:
                wait(for: .room(line.command), index: i, list: (ok, lines, i), context: context)
                return
            case let .failure(error) where error.pending != nil:
                wait(for: .call(error.pending!, line.command), index: i, list: (ok, lines, i), context: context)
                return
            case let .failure(error):
                write(context, error.line + "\n")
                return
            }
        }
        write(context, "OK\n")
    }

    /// Runs a command's blocking work on the server's queue for it, off this loop; `unblock`
    /// answers it back on the loop. What was answered before it goes out now.
    private func block(on work: @escaping @Sendable () throws(MPDError) -> Void, command: String, index: Int,
                       ending: String, list: (ok: Bool, lines: [MPDCommandLine], next: Int)?,
                       context: ChannelHandlerContext) {
        offLoop(server.runBlocking, command: command, index: index, ending: ending, list: list, waitsAgain: false,
                context: context) { () throws(MPDError) -> Outcome in
            try work()
            return .answered(nil)
        }
    }

    /// The request waits off the loop, where it stands (it is `waiting[waitingStart]`, or the
    /// list's command at `list.next`): for the client's room, which another client's `moveoutput`
    /// is restarting (queued behind the restart, since a command to the player that is going
    /// would be lost), then it is carried out again; or for the player to carry out the call it
    /// left pending, then it is answered and passed.
    private func wait(for deferral: Deferral, index: Int, list: (ok: Bool, lines: [MPDCommandLine], next: Int)?,
                      context: ChannelHandlerContext) {
        let ending = list.map { $0.ok ? "list_OK\n" : "" } ?? "OK\n"
        switch deferral {
        case let .room(command):
            offLoop(server.runBlocking, command: command, index: index, ending: ending, list: list, waitsAgain: true,
                    context: context) { .again }
        case let .call(pending, command):
            offLoop(server.runWaiting, command: command, index: index, ending: ending, list: list, waitsAgain: true,
                    context: context) { () throws(MPDError) -> Outcome in
                switch pending.settle() {
                case let .answered(response): return .answered(response)
                case let .failed(error): throw error
                case .dropped: return .again
                }
            }
        }
    }

    /// Runs `work` with `run`, off this loop, reading nothing more from the client meanwhile;
    /// `unblock` answers it back on the loop. What was answered before it goes out now.
    /// `waitsAgain`: the request stands where it was read, and is passed once answered.
    private func offLoop(_ run: @Sendable (@escaping @Sendable () -> Void) -> Void, command: String, index: Int,
                         ending: String, list: (ok: Bool, lines: [MPDCommandLine], next: Int)?, waitsAgain: Bool,
                         context: ChannelHandlerContext, _ work: @escaping @Sendable () throws(MPDError) -> Outcome) {
        blocked = Blocked(ending: ending, list: list, standing: waitsAgain)
        context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        flush(context)
        let connection = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let server = server
        run {
            let outcome: Outcome
            do throws(MPDError) {
                outcome = try work()
            } catch {
                var e = error
                e.index = index
                if e.command.isEmpty { e.command = command }
                outcome = .failed(e)
            }
            guard !server.isStopping else { return }
            connection.eventLoop.execute { connection.value.handler.unblock(outcome, context: connection.value.context) }
        }
    }

    /// The work off the loop is done: its answer, then the rest of its command list and what the
    /// client sent meanwhile, as if it had never left the loop.
    private func unblock(_ outcome: Outcome, context: ChannelHandlerContext) {
        guard let done = blocked else { return }
        blocked = nil
        context.channel.setOption(ChannelOptions.autoRead, value: context.channel.isWritable).whenComplete { _ in }
        guard !ending else { return }
        // Answered (or failed): a request that stood waiting is passed.
        if done.standing, done.list == nil, outcome.passes { waitingStart += 1 }
        switch outcome {
        case let .failed(error):
            write(context, error.line + "\n")
        case .again, .answered:
            if case let .answered(response?) = outcome, !write(context, response, ending: done.ending) {
                write(context, noRoom("", index: 0))
            } else if case .answered(nil) = outcome {
                write(context, done.ending)
            }
            if let rest = done.list {
                let next = done.standing && outcome.passes ? rest.next + 1 : rest.next
                continueList(ok: rest.ok, lines: rest.lines, from: next, context: context)
                if closing { close(context) }
            }
        }
        drain(context: context)
        flush(context)
        settled = isSettled
    }

    private func idle(_ line: MPDCommandLine, index: Int, context: ChannelHandlerContext) {
        guard client.authenticated else {
            write(context, MPDError(.permission, "you don't have permission for \"idle\"", command: "idle", index: index).line + "\n")
            return
        }
        var mask: Set<Subsystem> = []
        for name in line.arguments {
            guard let s = Subsystem(rawValue: name.lowercased()) else {
                write(context, MPDError(.argument, "Unrecognized idle event: \(name)", command: "idle", index: index).line + "\n")
                return
            }
            mask.insert(s)
        }
        if mask.isEmpty { mask = Set(Subsystem.allCases) }
        client.mayBeIdle = true
        // Answered on this loop: at once if something changed already (after the answers
        // gathered before it, before those of the requests after it), else when a change
        // wakes it, unless a request read meanwhile took the answer first (`handle`).
        let connection = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let changedAlready = client.idle.wait(for: mask) {
            connection.eventLoop.execute { connection.value.handler.tellIdle(context: connection.value.context) }
        }
        if changedAlready { tellIdle(context: context) }
    }

    /// The answer of an `idle` a change ended, if it is not answered yet; sent as any other.
    private func tellIdle(context: ChannelHandlerContext) {
        guard !ending, let changed = client.idle.take() else { return }
        client.mayBeIdle = false
        write(context, Self.idleAnswer(changed))
        flush(context)
        settled = isSettled
    }

    /// `changed: …` for each subsystem, in MPD's order, then `OK`.
    private static func idleAnswer(_ changed: Set<Subsystem>) -> String {
        Subsystem.allCases.filter(changed.contains).map { "changed: \($0.rawValue)\n" }.joined() + "OK\n"
    }

    /// Gathered, not yet written: `channelReadComplete` (or the end of a drain after the
    /// client took its answers) writes and flushes.
    private func write(_ context: ChannelHandlerContext, _ text: String) {
        out.writeString(text)
    }

    /// The response, then `ending`; a big one (`listallinfo`) goes to NIO as it is, not copied,
    /// if the answers waiting for all clients leave room for it (`UnsentAnswers`): false, and
    /// nothing written, when they do not.
    private func write(_ context: ChannelHandlerContext, _ response: MPDResponse, ending: String) -> Bool {
        if let rest = response.rest {
            out.writeImmutableBuffer(response.bytes)
            streaming = Streaming(rest: rest, ending: ending)
            pump(context)
            return true
        }
        let count = response.bytes.readableBytes
        if count >= Self.outLimit {
            let unsent = server.unsent
            guard unsent.take(count) else { return false }
            handOver(context)
            // Completed when NIO has written the bytes, or failed when the connection closes
            // first: the room comes back either way.
            let sent = context.eventLoop.makePromise(of: Void.self)
            sent.futureResult.whenComplete { _ in unsent.give(count) }
            countHeld(sent, context)
            context.write(wrapOutboundOut(response.bytes), promise: sent)
            unflushed = true
        } else {
            out.writeImmutableBuffer(response.bytes)
        }
        out.writeString(ending)
        return true
    }

    /// Goes on with the answer being made (`streaming`) while the client takes it: a slice at a
    /// time is handed to NIO until its count of unsent bytes passes the high water mark; the
    /// client's reading it down to the low one (`channelWritabilityChanged`) calls this again.
    /// True once the answer has ended and its ending is written.
    @discardableResult
    private func pump(_ context: ChannelHandlerContext) -> Bool {
        pumping = true
        defer { pumping = false }
        while let current = streaming {
            guard context.channel.isActive else { return false }
            if !context.channel.isWritable {
                flush(context)
                // The flush may have sent enough already: then go on here.
                if !context.channel.isWritable { return false }
                continue
            }
            handOver(context)
            var slice = MPDResponse()
            let ended = current.rest.write(into: &slice, atLeast: LongAnswers.slice)
            if ended { streaming = nil }
            if slice.count > 0 {
                context.write(wrapOutboundOut(slice.bytes), promise: heldByNIO(context))
                unflushed = true
            }
            if ended { out.writeString(current.ending) }
        }
        return true
    }

    /// What a long answer refused for want of room says (`write`): MPD's "system" error.
    private func noRoom(_ command: String, index: Int) -> String {
        let held = server.unsent.bytes
        let size = held >= 1 << 20 ? "\(held >> 20) MB" : "\(held >> 10) kB"
        return MPDError(.system, "the server holds \(size) of answers that clients have not read yet; try again",
                        command: command, index: index).line + "\n"
    }

    /// Hands what was gathered to NIO (written, not flushed).
    ///
    /// `out` is emptied before NIO sees the bytes: a write or flush can call this handler back
    /// at once (`channelWritabilityChanged`, when NIO's count of unsent bytes crosses a water
    /// mark), and that call must not find the same bytes still gathered and send them again.
    private func handOver(_ context: ChannelHandlerContext) {
        guard out.readableBytes > 0 else { return }
        let gathered = out
        out = context.channel.allocator.buffer(capacity: 1024)
        context.write(wrapOutboundOut(gathered), promise: heldByNIO(context))
        unflushed = true
    }

    /// Sends what the socket takes of `bytes` now, past NIO, unless NIO holds bytes of this
    /// connection's (they go first) or the connection is closed (its descriptor may be another's
    /// by now); `bytes` keeps what is left.
    private func sendDirectly(_ bytes: inout ByteBuffer, _ context: ChannelHandlerContext) {
        guard nioHolds == 0, let sender, context.channel.isActive else { return }
        let sent = bytes.withUnsafeReadableBytes { sender.send($0) }
        bytes.moveReaderIndex(forwardBy: sent)
    }

    /// A promise for a write handed to NIO, counted in `nioHolds` until NIO completes it; nil
    /// where nothing is sent past NIO.
    private func heldByNIO(_ context: ChannelHandlerContext) -> EventLoopPromise<Void>? {
        guard sender != nil else { return nil }
        let promise = context.eventLoop.makePromise(of: Void.self)
        countHeld(promise, context)
        return promise
    }

    private func countHeld(_ promise: EventLoopPromise<Void>, _ context: ChannelHandlerContext) {
        guard sender != nil else { return }
        nioHolds += 1
        // NIO completes every write's promise, when written or when the connection closes.
        promise.futureResult.assumeIsolated().whenComplete { [self] _ in
            nioHolds -= 1
            if ending, nioHolds == 0 { context.close(promise: nil) }
        }
    }

    private func flush(_ context: ChannelHandlerContext) {
        guard out.readableBytes > 0 else {
            if unflushed {
                unflushed = false
                context.flush()
            }
            return
        }
        if !unflushed { sendDirectly(&out, context) }
        if out.readableBytes > 0 {
            unflushed = false
            let gathered = out
            out.moveReaderIndex(to: out.writerIndex)  // read as sent, storage still shared
            context.writeAndFlush(wrapOutboundOut(gathered), promise: heldByNIO(context))
            guard out.readableBytes == 0 else { return }  // the call back gathered more: keep it
        }
        // NIO has usually written it by now and let go: then the same storage serves the next
        // answers (clearing a buffer held elsewhere allocates). A big one is let go, so an
        // idle connection holds little.
        if out.capacity > 16 * 1024 { out = context.channel.allocator.buffer(capacity: 1024) } else { out.clear() }
    }

    /// Ends the connection (`ending`): what was answered goes out first, then it closes, at once
    /// if NIO holds none of it (closing drops what NIO holds), else when NIO has written it.
    private func close(_ context: ChannelHandlerContext) {
        flush(context)
        ending = true
        waiting.removeAll()
        waitingStart = 0
        pausedList = nil
        if nioHolds == 0 { context.close(promise: nil) }
    }
}

/// A command running off the loop: what ends its answer (`OK`, `list_OK`, nothing), and the
/// rest of its command list; `standing`: the request itself is still where it was read (the
/// waiting request, or the list's `next`), to be carried out again or passed once answered.
private struct Blocked {
    let ending: String
    let list: (ok: Bool, lines: [MPDCommandLine], next: Int)?
    let standing: Bool
}

/// What a request waits for off the loop, with its command's name.
private enum Deferral {
    /// The client's room, whose player another client's `moveoutput` is replacing.
    case room(String)
    /// The player, to carry out a call it has not taken yet.
    case call(PendingPlayerCall, String)
}

/// How work off the loop ended.
private enum Outcome: Sendable {
    /// Done: its answer's lines (nil or empty: the ending alone).
    case answered(MPDResponse?)
    case failed(MPDError)
    /// Nothing was done: the request is carried out again.
    case again

    var passes: Bool { if case .again = self { false } else { true } }
}

/// A long answer being made as its client reads it, and the line that ends it.
private final class Streaming {
    var rest: any AnswerRest
    let ending: String

    init(rest: any AnswerRest, ending: String) {
        self.rest = rest
        self.ending = ending
    }
}
