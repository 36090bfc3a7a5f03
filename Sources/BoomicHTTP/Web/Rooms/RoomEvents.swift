import BoomicCore
import BoomicStation
import Foundation
import Hummingbird
import NIOCore

/// `GET api/rooms/events`: the rooms as Server-Sent Events, one stream per open page.
///
/// - On (re)connect the first event is `state`, every room with its queue: a browser's
///   EventSource that reconnects (sending `Last-Event-ID`) gets the whole state again, so no
///   change is ever missed and the id needs no replay.
/// - Then a `room` event for each room that changed (its queue included when the queue did),
///   and a `state` event when a room is made or removed; each event's `id` counts up.
/// - A comment line (`: heartbeat`) every `heartbeat` while nothing happens, so that proxies
///   and the browser keep the stream open and a closed one is noticed.
/// - The stream ends at its session's logout, when the server stops (its task is cancelled), or
///   when the browser goes.
///
/// The writer waits on its own watcher (`RoomWatcher`), never the station on it.
enum RoomEvents {
    static let heartbeat: Duration = .seconds(15)
    /// How long the browser waits before it reconnects, in milliseconds (the `retry` field).
    static let retry = 2000

    static let headers: HTTPFields = [
        .contentType: "text/event-stream; charset=utf-8",
        .cacheControl: "no-store",
        // nginx passes the stream on as it comes (its `proxy_buffering` for this answer).
        .init("X-Accel-Buffering")!: "no",
        .init("X-Content-Type-Options")!: "nosniff",
    ]

    /// Adds the stream's route to the page's API group (behind its session gate): a route of its
    /// own, not a `WebRoute`, because it reads the request's connection to end when the browser
    /// goes.
    static func add(to api: RouterGroup<HTTPRequestContext>, front: HTTPContext) {
        api.get("rooms/events") { request, context in
            guard let session = context.web else { return WebSessionMiddleware.render(.noSession) }
            guard let station = front.station else { return WebSessionMiddleware.render(.notFound("This server has no rooms.")) }
            return stream(request, session: session, station: station, front: front)
        }
    }

    static func stream(_ request: Request, session: WebSessions.Session, station: Station, front: HTTPContext) -> Response {
        let watcher = front.roomFeed.watch(station, session: session.id)
        let body = ResponseBody { writer in
            let beats = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: heartbeat)
                    watcher.beat()
                }
            }
            defer {
                beats.cancel()
                front.roomFeed.remove(watcher)
            }
            do {
                try await request.body.consumeWithInboundCloseHandler { _ in
                    try await send(to: &writer, watcher: watcher, station: station, front: front)
                } onInboundClosed: {
                    watcher.close()
                }
                try await writer.finish(nil)
            } catch {
                // The browser went: nothing to finish.
            }
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The stream's events until its watcher closes or the task is cancelled.
    private static func send(to writer: inout any ResponseBodyWriter, watcher: RoomWatcher, station: Station, front: HTTPContext) async throws {
        var id = 0
        var text = "retry: \(retry)\n\n" + event("state", id: id, RoomsState(rooms: RoomView.all(station, basis: front.basis)))
        try await writer.write(ByteBuffer(string: text))
        for await _ in watcher.signals {
            let pending = watcher.take()
            if pending.closed { return }
            let basis = front.basis
            text = ""
            if pending.all {
                id += 1
                text += event("state", id: id, RoomsState(rooms: RoomView.all(station, basis: basis)))
            } else {
                for (room, queue) in pending.rooms.sorted(by: { $0.key < $1.key }) {
                    guard let view = RoomView.of(room, station: station, basis: basis, queue: queue) else { continue }
                    id += 1
                    text += event("room", id: id, view)
                }
            }
            if text.isEmpty, pending.beat { text = ": heartbeat\n\n" }
            if !text.isEmpty { try await writer.write(ByteBuffer(string: text)) }
        }
    }

    /// Every room: the `state` event's data and `GET api/rooms`' answer.
    struct RoomsState: Encodable, Sendable {
        var rooms: [RoomView]
    }

    /// One event: its name, its id and its data as one line of JSON.
    static func event(_ name: String, id: Int, _ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "event: \(name)\nid: \(id)\ndata: \(data)\n\n"
    }
}
