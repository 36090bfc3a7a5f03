import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicPlayback
import BoomicStation
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import NIOCore
import Testing

/// The MPD session as a table, with no channel: the request lines a client sends, and the
/// actions the session asks of its connection, in order.
@Suite(.serialized) struct MPDSessionTests {
    /// A connection that records what the session asks: an answer as its text, work off the
    /// loop as `background LANE COMMAND@INDEX` (kept, to be resumed by the test), an idle wait
    /// as `idle` and its subsystems (registered with the client's idle slot), a close as `close`.
    final class RecordingPort: SessionPort {
        let client: ClientState
        var actions: [String] = []
        var isWritable = true
        var isStreaming = false
        init(client: ClientState) { self.client = client }

        func perform(_ action: SessionAction) -> Bool {
            switch action {
            case let .text(text): actions.append(text)
            case let .bytes(bytes): actions.append(String(buffer: bytes))
            case let .response(response, ending, _, _): actions.append(response.text + ending)
            case let .background(work): actions.append("background \(work.lane) \(work.command)@\(work.index)")
            case let .idle(mask):
                _ = client.idle.wait(for: mask) {}
                actions.append("idle " + (mask.count == Subsystem.allCases.count ? "all" : mask.map(\.rawValue).sorted().joined(separator: " ")))
            case .close: actions.append("close")
            }
            return true
        }
    }

    /// A session over an empty library and rooms on the null output, and its recording port.
    static func withSession(_ body: (MPDSession, RecordingPort) throws -> Void) throws {
        try withTemporaryDirectory { dir in
            let session = try LibrarySession.open(at: dir, create: true, client: .init(command: "test", version: "0"))
            defer { session.close() }
            let library = ServerLibrary(session: session, folders: [dir])
            let hub = IdleHub()
            let rooms = Rooms(library: library, store: try PlayerStateStore(libraryLocation: dir), outputs: [.null],
                              sound: SoundSettings(), hub: hub, record: false, warn: { _ in })
            defer { rooms.quitAll() }
            let server = ServerContext(library: library, rooms: rooms, hub: hub, password: nil, version: "test",
                                       runBlocking: { _ in }, runWaiting: { _ in })
            let client = ClientState(id: 1, address: "test", isLocal: false, idle: hub.makeSlot(), needsPassword: false)
            try body(MPDSession(server: server, client: client), RecordingPort(client: client))
        }
    }

    static let table: [(lines: [String], actions: [String])] = [
        (["ping"], ["OK\n"]),
        (["ping", "ping"], ["OK\n", "OK\n"]),
        // MPD hangs up on a line that does not start with a lower-case letter, without a word.
        (["PING", "ping"], ["close"]),
        ([""], ["close"]),
        (["ping!"], ["ACK [5@0] {} Invalid word character\n", "close"]),
        (["nosuch"], ["ACK [5@0] {} unknown command \"nosuch\"\n"]),
        (["close"], ["close"]),
        (["noidle"], []),
        (["noidle x"], ["ACK [5@0] {} unknown command \"noidle\"\n"]),
        (["command_list_end"], ["ACK [5@0] {} unknown command \"command_list_end\"\n"]),
        (["command_list_ok_begin", "ping", "ping", "command_list_end"], ["list_OK\n", "list_OK\n", "OK\n"]),
        (["command_list_begin", "ping", "ping", "command_list_end"], ["", "", "OK\n"]),
        // A failure ends the list with its index; no OK.
        (["command_list_ok_begin", "ping", "nosuch", "ping", "command_list_end"],
         ["list_OK\n", "ACK [5@1] {} unknown command \"nosuch\"\n"]),
        (["command_list_begin", "ping", "command_list_begin", "command_list_end"],
         ["", "ACK [5@1] {} unknown command \"command_list_begin\"\n"]),
        // An idle ends its list: what follows is not run, and the list gets no OK.
        (["command_list_ok_begin", "ping", "idle player", "ping", "command_list_end"], ["list_OK\n", "idle player"]),
        (["command_list_ok_begin", "ping", "close", "ping", "command_list_end"], ["list_OK\n", "close"]),
        (["idle"], ["idle all"]),
        (["idle bogus"], ["ACK [2@0] {idle} Unrecognized idle event: bogus\n"]),
        (["idle player", "noidle"], ["idle player", "OK\n"]),
        // In idle only noidle is allowed: MPD hangs up on anything else.
        (["idle player", "ping"], ["idle player", "close"]),
        // Work off the loop: the session waits for it (`resume`).
        (["newpartition K"], ["background serial newpartition@0"]),
        (["command_list_ok_begin", "ping", "moveoutput nosuch", "ping", "command_list_end"],
         ["list_OK\n", "background serial moveoutput@1"]),
        (["readcomments nosuch"], ["ACK [50@0] {readcomments} No such song\n"]),
    ]

    @Test(arguments: table.indices)
    func linesInActionsOut(_ row: Int) throws {
        let (lines, expected) = Self.table[row]
        try Self.withSession { session, port in
            for line in lines where session.isReady && !port.actions.contains("close") {
                _ = session.take(.line(line), port)
            }
            #expect(port.actions == expected, "\(lines)")
        }
    }

    @Test func anOverlongLineAndBadTextAreAnswered() throws {
        try Self.withSession { session, port in
            #expect(session.take(.tooLong, port) && session.take(.badText, port))
            #expect(port.actions == ["ACK [2@0] {} line too long\n", "ACK [2@0] {} not UTF-8\n"])
        }
    }

    /// A list pauses while its client has not taken the answers so far (one command at least
    /// each time), and goes on when it has.
    @Test func aListPausesForItsClient() throws {
        try Self.withSession { session, port in
            port.isWritable = false
            for line in ["command_list_ok_begin", "ping", "ping", "ping", "command_list_end"] { _ = session.take(.line(line), port) }
            #expect(port.actions == ["list_OK\n"] && !session.isReady)
            session.writable(port)
            #expect(port.actions == ["list_OK\n", "list_OK\n"] && !session.isReady)
            port.isWritable = true
            session.writable(port)
            #expect(port.actions == ["list_OK\n", "list_OK\n", "list_OK\n", "OK\n"] && session.isReady)
        }
    }

    /// Work off the loop: nothing more is carried out until it comes back; then its answer, the
    /// rest of its list, and the requests after it, in order.
    @Test func workOffTheLoopKeepsTheOrder() throws {
        try Self.withSession { session, port in
            for line in ["command_list_ok_begin", "ping", "newpartition K", "ping", "command_list_end"] {
                _ = session.take(.line(line), port)
            }
            #expect(!session.isReady)
            #expect(session.resume(.answered(nil), port) == false, "not a request that stood")
            #expect(session.isReady)
            _ = session.take(.line("ping"), port)
            #expect(port.actions == ["list_OK\n", "background serial newpartition@1", "list_OK\n", "list_OK\n", "OK\n", "OK\n"])

            port.actions = []
            _ = session.take(.line("newpartition L"), port)
            _ = session.resume(.failed(MPDError(.exist, "name already exists", command: "newpartition")), port)
            #expect(port.actions == ["background serial newpartition@0", "ACK [56@0] {newpartition} name already exists\n"])
        }
    }
}
