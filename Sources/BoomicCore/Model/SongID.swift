import Foundation

/// A song's identity for its whole life in the library.
///
/// Given once, at first import, and kept across edits, moves and renames (a rescan matches a moved
/// file by its audio fingerprint), so history, playlists and play counts follow the song, not the path.
/// Ids come from outside BoomicCore (it has no randomness); see `IDSource`.
public struct SongID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID) { self.uuid = uuid }

    /// Byte order, which is also the order of the lowercase strings: cheap and stable.
    public static func < (a: SongID, b: SongID) -> Bool {
        withUnsafeBytes(of: a.uuid.uuid) { x in
            withUnsafeBytes(of: b.uuid.uuid) { y in x.lexicographicallyPrecedes(y) }
        }
    }

    public var description: String { uuid.lowercaseText }

    public init(from decoder: any Decoder) throws {
        uuid = try decoder.singleValueContainer().decode(UUID.self) // any case
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// Where new ids come from. Generation functions take one so they stay deterministic in tests.
public protocol IDSource {
    mutating func next() -> UUID
}

/// Ids from a seeded counter: deterministic, for tests and replays.
public struct CountingIDSource: IDSource, Sendable {
    private var counter: UInt64
    private let salt: UInt64

    public init(seed: UInt64 = 0) { counter = 0; salt = seed }

    public mutating func next() -> UUID {
        counter += 1
        var bytes = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: salt.bigEndian) { for (i, b) in $0.enumerated() { bytes[i] = b } }
        withUnsafeBytes(of: counter.bigEndian) { for (i, b) in $0.enumerated() { bytes[8 + i] = b } }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
