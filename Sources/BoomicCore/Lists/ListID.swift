import Foundation

/// The identity of a taglist or playlist for its whole life in the library.
///
/// Names are for people and can change (`playlist rename`); history, rollback and search follow
/// the id. Like `SongID`, ids come from the caller's `IDSource`, so generation stays pure.
public struct ListID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID) { self.uuid = uuid }

    public init?(uuidString: String) {
        guard let u = UUID(uuidString: uuidString) else { return nil }
        uuid = u
    }

    public static func < (a: ListID, b: ListID) -> Bool { SongID(a.uuid) < SongID(b.uuid) }

    public var description: String { uuid.uuidString.lowercased() }

    public init(from decoder: any Decoder) throws {
        uuid = try decoder.singleValueContainer().decode(UUID.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
