import Foundation

/// What the `Transactor` needs to know about a transaction to log it; the rest is its body.
///
/// The store knows no music: BoomicCore's `Transaction` conforms (see `Transaction+Logged.swift`),
/// and the tests use a toy type. The properties are copied into columns of the log, so `history`
/// can list transactions without decoding bodies and so the file reads well in the `sqlite3` shell.
public protocol LoggedTransaction: Codable, Sendable {
    /// The transaction's identity, unique in the log (`entry(idPrefix:)` finds it by prefix).
    var id: UUID { get }
    /// When it was made, seconds since 1970 (`seq(atOrBefore:)` answers date REFs with it).
    var timestamp: Double { get }
    /// What made the change (`import`, `edit`, `play`, …).
    var kindName: String { get }
    /// Human text such as `modify genre=Jazz (12 songs)`.
    var label: String { get }

    /// The transaction in a body this type wrote, read without Codable's cost; nil when the
    /// body is not one it reads exactly as `JSONDecoder` does, which then decodes it (and names
    /// what is wrong with it). The default reads nothing.
    static func quickly(from body: UnsafeRawBufferPointer) -> Self?

    /// The body the log's `JSONEncoder` (sorted keys, unescaped slashes) writes, byte for byte,
    /// written without Codable's cost; nil hands the transaction to that encoder, which then
    /// says what it refuses. The default writes nothing.
    func encodedQuickly() -> Data?
}

extension LoggedTransaction {
    public static func quickly(from body: UnsafeRawBufferPointer) -> Self? { nil }
    public func encodedQuickly() -> Data? { nil }
}

/// A transaction together with its place in the log.
public struct LogEntry<T: LoggedTransaction>: Sendable {
    /// The sequence number: 1 for the first transaction, contiguous, never reused.
    public var seq: Int
    public var transaction: T

    public init(seq: Int, transaction: T) {
        self.seq = seq
        self.transaction = transaction
    }
}

extension LogEntry: Equatable where T: Equatable {}

/// A log row's columns without its body: what `history` lists, read without decoding JSON.
public struct LogSummary: Sendable, Equatable {
    public var seq: Int
    /// The transaction id in lowercase, as stored.
    public var id: String
    public var time: Double
    public var kind: String
    public var label: String

    public init(seq: Int, id: String, time: Double, kind: String, label: String) {
        self.seq = seq
        self.id = id
        self.time = time
        self.kind = kind
        self.label = label
    }
}
