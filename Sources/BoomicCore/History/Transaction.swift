import Foundation

/// One change to the library: a set of assertions with where it came from (DESIGN §1).
///
/// The unit of the log, of history and of undo. Its sequence number is the log's business
/// (the store assigns it); `parent` names the transaction whose basis it was generated on.
public struct Transaction: Identifiable, Hashable, Sendable, Codable {
    public var id: UUID
    public var parent: UUID?
    /// Seconds since 1970, given by the caller.
    public var timestamp: Double
    public var kind: Kind
    /// Human text, e.g. `modify genre=Jazz (12 songs)`.
    public var label: String
    public var provenance: Provenance
    public var assertions: [Assertion]
    /// For undo: the ids of the transactions it took back. For redo: the one it brought back.
    public var undoes: [UUID]?
    public var redoes: UUID?

    public init(id: UUID, parent: UUID?, timestamp: Double, kind: Kind, label: String,
                provenance: Provenance = Provenance(), assertions: [Assertion],
                undoes: [UUID]? = nil, redoes: UUID? = nil) {
        self.id = id
        self.parent = parent
        self.timestamp = timestamp
        self.kind = kind
        self.label = label
        self.provenance = provenance
        self.assertions = assertions
        self.undoes = undoes
        self.redoes = redoes
    }

    // Codable: ids are written in lower case, as `history`, `ls` and the log's `id` column spell
    // them, so scripts can join on them; any case is read.
    private enum CodingKeys: String, CodingKey {
        case id, parent, timestamp, kind, label, provenance, assertions, undoes, redoes
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        parent = try c.decodeIfPresent(UUID.self, forKey: .parent)
        timestamp = try c.decode(Double.self, forKey: .timestamp)
        kind = try c.decode(Kind.self, forKey: .kind)
        label = try c.decode(String.self, forKey: .label)
        provenance = try c.decodeIfPresent(Provenance.self, forKey: .provenance) ?? Provenance()
        assertions = try c.decode([Assertion].self, forKey: .assertions)
        undoes = try c.decodeIfPresent([UUID].self, forKey: .undoes)
        redoes = try c.decodeIfPresent(UUID.self, forKey: .redoes)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.lowercaseText, forKey: .id)
        try c.encodeIfPresent(parent?.lowercaseText, forKey: .parent)
        try c.encode(timestamp, forKey: .timestamp)
        try c.encode(kind, forKey: .kind)
        try c.encode(label, forKey: .label)
        try c.encode(provenance, forKey: .provenance)
        try c.encode(assertions, forKey: .assertions)
        try c.encodeIfPresent(undoes?.map { $0.lowercaseText }, forKey: .undoes)
        try c.encodeIfPresent(redoes?.lowercaseText, forKey: .redoes)
    }

    /// What made the change. An open set on disk (older logs may hold kinds this build lacks).
    public struct Kind: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
                        CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }
        public var description: String { rawValue }

        public static let `import`: Kind = "import"
        public static let rescan: Kind = "rescan"
        public static let edit: Kind = "edit"
        public static let tag: Kind = "tag"
        public static let rollback: Kind = "rollback"
        public static let undo: Kind = "undo"
        public static let redo: Kind = "redo"
        public static let revert: Kind = "revert"
        public static let remove: Kind = "remove"
        public static let play: Kind = "play"
        public static let rating: Kind = "rating"
        /// Songs, albums or artists starred or unstarred (OpenSubsonic's `star`, `unstar`).
        public static let star: Kind = "star"
        public static let taglist: Kind = "taglist"
        public static let playlist: Kind = "playlist"
        /// EQ profiles saved or removed (`boomic eq save`, `eq rm`).
        public static let eq: Kind = "eq"
        /// Tags written into files: records the files' new size, mtime and fingerprint.
        public static let write: Kind = "write"
        /// What Boomic guessed after an import (a disc from a `CD2` folder, a title from a file
        /// name): a transaction of its own, so `undo` takes back the guesses alone.
        public static let guess: Kind = "guess"
        /// A library brought in from another program (`boomic migrate beets`, `migrate mpd`).
        public static let migrate: Kind = "migrate"
    }

    /// Where a transaction came from, kept for `show` and `blame`.
    ///
    /// Every field is optional and absent from the JSON when nil, so logs written before a field
    /// existed decode unchanged and a transaction without it encodes as it always did.
    public struct Provenance: Hashable, Sendable, Codable {
        /// The command line as typed (arguments joined), if it came from one.
        public var command: String?
        public var message: String?
        public var version: String?
        /// The account that made the change through a network API (OpenSubsonic's `u=`).
        public var user: String?
        /// The program it came through, as it names itself (OpenSubsonic's `c=`: `Symfonium`).
        public var client: String?

        public init(command: String? = nil, message: String? = nil, version: String? = nil,
                    user: String? = nil, client: String? = nil) {
            self.command = command
            self.message = message
            self.version = version
            self.user = user
            self.client = client
        }

        /// ` by anna via Symfonium`, ` by anna`, ` via Symfonium` or empty: what a label or a
        /// line of history adds to say who made the change.
        public var byLine: String {
            // Names a client sent may be long or hold newlines: a label stays one short line.
            (user.map { " by " + OneLine.excerpt($0, around: 0) } ?? "") + (client.map { " via " + OneLine.excerpt($0, around: 0) } ?? "")
        }
    }
}

extension Transaction {
    /// How costly the transaction is to replay, for the checkpoint policy (when one is due, which
    /// to keep, where one moves): two for the row itself, one per assertion, plus one per
    /// hundred entries of a playlist it carries (a playlist change keeps the whole list twice, so
    /// adding one song to a 20,000-entry playlist is a big row). The row's two: in the bench's
    /// history a row of small edits is about 635 bytes for two assertions, a rollback's 156
    /// bytes an assertion, so a row's own cost (its id, time, provenance, decoding) is about two
    /// assertions'; without it a rollback of 9,000 songs weighed as much as 4,500 edits that
    /// take twice its bytes to replay, and drew a checkpoint away from them.
    public var replayWeight: Int {
        assertions.reduce(2) { w, a in
            if case .playlist(_, let c) = a { return w + 1 + ((c.old?.songs.count ?? 0) + (c.new?.songs.count ?? 0)) / 100 }
            return w + 1
        }
    }
}
