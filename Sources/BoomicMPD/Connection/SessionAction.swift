import NIOCore

/// What an MPD session (`MPDSession`) asks of its connection, in the order it asks: the
/// connection carries each out as it comes (`SessionPort`).
enum SessionAction {
    /// Answer these bytes.
    case text(String)
    /// Answer these bytes (a kept `status` answer, its `OK` included).
    case bytes(ByteBuffer)
    /// Answer this response, then `ending` (`OK`, `list_OK`, nothing). Refused when the answers
    /// all clients have not read leave no room for it (`UnsentAnswers`): the connection then
    /// answers MPD's "system" error for `command` at `index` instead.
    case response(MPDResponse, ending: String, command: String, index: Int)
    /// Run this off the event loop; its outcome comes back to `MPDSession.resume`. Nothing more
    /// of the client's is carried out meanwhile.
    case background(Background)
    /// Wait for a change in these subsystems; `MPDSession.idleEnded` when one comes.
    case idle(Set<Subsystem>)
    /// End the connection once what was answered before has gone out.
    case close
}

/// The connection a session talks to: it carries out actions and says whether its client
/// takes answers now.
protocol SessionPort: AnyObject {
    /// Carries the action out; false only for a `.response` refused for want of room.
    @discardableResult
    func perform(_ action: SessionAction) -> Bool
    /// The client has taken what it was sent (under the high water mark).
    var isWritable: Bool { get }
    /// A long answer is being made as the client reads it: nothing else is answered meanwhile.
    var isStreaming: Bool { get }
}

/// Work a command hands off the event loop: disk, SQLite, a room's players stopping and
/// starting, or the wait for a player's call.
struct Background {
    /// Where it runs: `serial`, one at a time with the other changes to the library and the
    /// rooms (`ServerContext.runBlocking`); `beside`, concurrently (`ServerContext.runWaiting`).
    enum Lane: Sendable { case serial, beside }
    let lane: Lane
    /// The command (for its error's `{command}`) and its place in a command list.
    let command: String
    let index: Int
    let work: @Sendable () throws(MPDError) -> Outcome
}

/// How work off the loop ended.
enum Outcome: Sendable {
    /// Done: its answer's lines (nil or empty: the ending alone).
    case answered(MPDResponse?)
    case failed(MPDError)
    /// Nothing was done: the request is carried out again.
    case again

    var passes: Bool { if case .again = self { false } else { true } }
}
