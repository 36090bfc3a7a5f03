/// Why the station did not do what a front asked: each front says it in its own words (MPD's
/// `ACK` codes, an HTTP status).
public enum StationError: Error, Sendable {
    /// The room's player quit before it carried the call out (a move of an output replaced it):
    /// the front gives the call to the room's new player.
    case restarting
    /// A room name the station does not take (letters, digits, `-`, `_`; at most 64 bytes).
    case badName
    case roomExists
    case noSuchRoom
    /// `Station.maxRooms` rooms exist already.
    case tooManyRooms
    case defaultRoomStays
    /// A front's client is in the room.
    case roomOccupied
    case roomHasOutputs
    case noSuchOutput
    /// The room's folder could not be made: one line.
    case system(String)
}
