/// An error as MPD answers it: `ACK [code@index] {command} message`. The codes are MPD's own
/// (`src/protocol/Ack.hxx`); clients branch on them (mpc prints the message, python-mpd2 raises
/// by code), so each failure must carry the code MPD would give.
public struct MPDError: Error, Equatable, Sendable {
    public enum Code: Int, Sendable {
        case notList = 1
        case argument = 2
        case password = 3
        case permission = 4
        case unknown = 5
        case noExist = 50
        case playlistMax = 51
        case system = 52
        case playlistLoad = 53
        case updateAlready = 54
        case playerSync = 55
        case exist = 56
    }

    public var code: Code
    public var message: String
    /// The command that failed; empty when none was recognised (MPD's `{}`).
    public var command: String
    /// Its position in a command list (0 outside one).
    public var index: Int

    /// Not MPD's: what a command that needs its room's player throws while another client's
    /// `moveoutput` replaces it; never sent, the connection waits and carries the command out again.
    static let roomRestarting = MPDError(.system, "the room's player is being replaced", command: "\u{0}")
    var isRoomRestarting: Bool { command == "\u{0}" }

    /// Compared as the client reads it: code, text, command and index.
    public static func == (a: MPDError, b: MPDError) -> Bool {
        a.code == b.code && a.message == b.message && a.command == b.command && a.index == b.index
    }

    public init(_ code: Code, _ message: String, command: String = "", index: Int = 0) {
        self.code = code
        self.message = message
        self.command = command
        self.index = index
    }

    /// The line sent to the client, without its newline. A message never spans lines.
    public var line: String {
        let flat = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "ACK [\(code.rawValue)@\(index)] {\(command)} \(flat)"
    }
}
