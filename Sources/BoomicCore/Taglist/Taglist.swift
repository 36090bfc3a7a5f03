/// A named set of songs defined by rules (DESIGN §5): the music a user wants to hear.
///
/// A taglist is a list of clauses, each positive or negative; a clause is a list of rules, and a
/// song satisfies a clause when it matches at least one of them. A song is in the taglist when
/// it satisfies every positive clause and does not satisfy every negative clause: it is excluded
/// only when all the negative clauses hold. No positive clause lets every song through the
/// positive part; no negative clause excludes nothing.
///
/// ```swift
/// let mix = try Taglist.parse(name: "mix", clauses: ["+#english,#french", "-#french", "-@year(<2000)"])
/// mix.matches(song)          // English 1980: yes; French 2020: yes; French 1980: no; Japanese: no
/// basis.songs(in: mix)       // in browsing order
/// ```
///
/// A pure value: whether a song is in it depends on the song alone, so the same taglist over
/// the same basis always gives the same songs (TagViews and `--as-of` rely on it).
public struct Taglist: Hashable, Sendable, Codable {
    public var name: String
    public var clauses: [Clause]

    public init(name: String, clauses: [Clause]) {
        self.name = name
        self.clauses = clauses
    }

    /// Whether the song is in the taglist.
    ///
    /// Compiles the taglist on every call; to test many songs, make one `TaglistMatcher`
    /// (or call `DataBasis.songs(in:)`), which folds needles and compiles comparisons once.
    public func matches(_ song: Song) -> Bool { TaglistMatcher(self).matches(song) }

    /// The clauses as command-line arguments (`+#english,#french`), in the syntax `parse` reads:
    /// `Taglist.parse(name: t.name, clauses: t.arguments) == t`.
    public var arguments: [String] { clauses.map(\.description) }
}

/// One clause of a taglist: a sign and the rules it is satisfied by (any one of them).
public struct Clause: Hashable, Sendable {
    public enum Sign: Hashable, Sendable {
        /// `+`: every song in the taglist satisfies this clause.
        case positive
        /// `-` or `^`: a song is excluded when it satisfies this clause and every other negative one.
        case negative
    }

    public var sign: Sign
    /// Never empty: a clause is written as a sign followed by at least one rule.
    public let rules: [Rule]

    public init(_ sign: Sign, _ rules: [Rule]) {
        precondition(!rules.isEmpty, "a clause has at least one rule")
        self.sign = sign
        self.rules = rules
    }

    public static func positive(_ rules: Rule...) -> Clause { Clause(.positive, rules) }
    public static func negative(_ rules: Rule...) -> Clause { Clause(.negative, rules) }
}

extension Clause: Codable {
    // Stored as its argument text (`"+#english,#french"`), like `Rule`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        do { self = try Clause(stored: text) } catch {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: error.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
