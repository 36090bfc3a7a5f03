/// A taglist compiled for evaluation: needles folded once, comparisons reduced to intervals once,
/// as `QueryMatcher` does for queries.
///
/// A song is in the taglist when it satisfies every positive clause and not every negative one
/// (DESIGN §5); a clause is satisfied by any one of its rules. Pure: the answer depends on the
/// song alone.
///
/// Rules on a value the song lacks (`@year:<2000` on a song with no year) do not hold, except
/// `!=`, which is the negation of `=` and so holds. Text comparisons are case- and
/// accent-insensitive on both sides (`@artist:=bjork` matches `Björk`); a multi-valued field holds
/// when any of its values does, or the display string `A; B`, as in QUERY.
public struct TaglistMatcher: Sendable {
    private let positive: [[Test]]
    private let negative: [[Test]]

    public init(_ taglist: Taglist) {
        positive = taglist.clauses.filter { $0.sign == .positive }.map { $0.rules.map(Test.init) }
        negative = taglist.clauses.filter { $0.sign == .negative }.map { $0.rules.map(Test.init) }
    }

    public func matches(_ song: Song) -> Bool {
        for clause in positive where !Self.satisfies(song, clause) { return false }
        if negative.isEmpty { return true }
        for clause in negative where !Self.satisfies(song, clause) { return true }
        return false
    }

    private static func satisfies(_ song: Song, _ clause: [Test]) -> Bool {
        clause.contains { $0.holds(for: song) }
    }

    /// One compiled rule.
    private enum Test: Sendable {
        case tag(String)
        /// The prefix with its colon: `instruments:`.
        case anyChild(String)
        case count(prefix: String, Interval)
        /// Numbers, and truth values as 0 and 1.
        case number(SongField, Interval)
        case text(SongField, TextTest)
        /// A comparison that can never hold (a text compared with a count).
        case never

        init(_ rule: Rule) {
            switch rule {
            case .tag(let path): self = .tag(path)
            case .tagPrefix(let path): self = .anyChild(path + ":")
            case .count(let path, let c): self = Interval(c).map { .count(prefix: path + ":", $0) } ?? .never
            case .field(let f, let c):
                switch c {
                case .contains(let t): self = .text(f, TextTest(nil, t))
                case .compare(let op, .text(let t)): self = .text(f, TextTest(op, t))
                case .compare(_, .number), .compare(_, .bool), .range: self = .number(f, Interval(c)!)
                }
            }
        }

        func holds(for s: Song) -> Bool {
            switch self {
            case .tag(let path):
                return s.tags.contains(path)
            case .anyChild(let prefix):
                return s.tags.contains { $0.hasPrefix(prefix) }
            case .count(let prefix, let interval):
                var n = 0
                for t in s.tags where t.hasPrefix(prefix) { n += 1 }
                return interval.contains(Double(n))
            case .number(let f, let interval):
                let v = f.value(in: s)
                if let b = v.bool { return interval.contains(b ? 1 : 0) }
                return interval.contains(v.double)
            case .text(let f, let test):
                return test.holds(for: f.value(in: s))
            case .never:
                return false
            }
        }
    }

    /// A numeric comparison as an interval, maybe negated (`!=`). A missing value is in no
    /// interval, so it passes only a negated one.
    private struct Interval: Sendable {
        var lower: Double?, lowerIncluded = true
        var upper: Double?, upperIncluded = true
        var negated = false

        /// Nil when the comparison is not numeric.
        init?(_ c: Comparison) {
            switch c {
            case .range(let lo, let hi):
                self = Interval(lower: lo, upper: hi)
            case .compare(let op, .number(let n)):
                self = Interval(op, n)
            case .compare(let op, .bool(let b)):
                self = Interval(op, b ? 1 : 0)
            case .contains, .compare(_, .text):
                return nil
            }
        }

        private init(lower: Double?, upper: Double?) {
            self.lower = lower
            self.upper = upper
        }

        private init(_ op: Comparison.Operator, _ n: Double) {
            switch op {
            case .equal: lower = n; upper = n
            case .notEqual: lower = n; upper = n; negated = true
            case .less: upper = n; upperIncluded = false
            case .lessOrEqual: upper = n
            case .greater: lower = n; lowerIncluded = false
            case .greaterOrEqual: lower = n
            }
        }

        func contains(_ v: Double?) -> Bool {
            guard let v else { return negated }
            let inside = (lower.map { lowerIncluded ? v >= $0 : v > $0 } ?? true)
                && (upper.map { upperIncluded ? v <= $0 : v < $0 } ?? true)
            return inside != negated
        }
    }

    /// A text comparison (a substring when there is no operator) with its needle folded.
    private struct TextTest: Sendable {
        var op: Comparison.Operator?
        var needle: String

        init(_ op: Comparison.Operator?, _ text: String) {
            self.op = op
            needle = Fold.key(text)
        }

        func holds(for v: FieldValue) -> Bool {
            let texts = Self.texts(v)
            guard let op else { return texts.contains { Fold.key($0).contains(needle) } }
            switch op {
            case .equal: return texts.contains { Fold.key($0) == needle }
            case .notEqual: return !texts.contains { Fold.key($0) == needle }
            case .less: return texts.contains { Fold.key($0) < needle }
            case .lessOrEqual: return texts.contains { Fold.key($0) <= needle }
            case .greater: return texts.contains { Fold.key($0) > needle }
            case .greaterOrEqual: return texts.contains { Fold.key($0) >= needle }
            }
        }

        /// The strings a value offers to text tests: each of a list and the list as displayed
        /// (`A; B`), numbers and truth values as printed, nothing for a missing value.
        private static func texts(_ v: FieldValue) -> [String] {
            switch v {
            case .null: return []
            case .strings(let xs): return xs.count > 1 ? xs + [xs.joined(separator: "; ")] : xs
            default: return [v.description]
            }
        }
    }
}

extension DataBasis {
    /// The songs in a taglist, in browsing order (album artist, album, disc, track, path).
    ///
    /// Complexity: O(n) rule tests over the basis's songs plus O(k log k) to sort the k found.
    public func songs(in taglist: Taglist) -> [Song] {
        let matcher = TaglistMatcher(taglist)
        return SongOrder([]).sorted(songs.values.filter(matcher.matches))
    }
}
