import Foundation
import Synchronization

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
    let positive: [[Test]]
    let negative: [[Test]]
    /// The fields `matches` reads, so that a pass over an image's rows materialises only those
    /// (`SongTable.forEach(reading:)`): a TagView or a count over 50,000 songs reads a column
    /// or two instead of every field of every song.
    public let fieldsRead: [SongField]

    /// - Parameter timeZone: the zone dates in `@added` rules are read in (the user's, passed in
    ///   so that matching stays pure; UTC unless given).
    public init(_ taglist: Taglist, timeZone: TimeZone = .gmt) {
        let folds = FoldMemo()
        positive = taglist.clauses.filter { $0.sign == .positive }.map { $0.rules.map { Test($0, folds, timeZone) } }
        negative = taglist.clauses.filter { $0.sign == .negative }.map { $0.rules.map { Test($0, folds, timeZone) } }
        var fields = Set<SongField>()
        for test in (positive + negative).joined() { fields.formUnion(test.fields) }
        fieldsRead = fields.sorted()
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
    enum Test: Sendable {
        case tag(String)
        /// The prefix with its colon: `instruments:`.
        case anyChild(String)
        case count(prefix: String, Interval)
        /// Numbers, and truth values as 0 and 1.
        case number(SongField, Interval)
        case text(SongField, TextTest)
        /// A user field's value as a number, when it reads as one (`UserFieldValue.typed`).
        case userNumber(String, Interval)
        case userText(String, TextTest)
        /// A comparison that can never hold (a text compared with a count).
        case never

        init(_ rule: Rule, _ folds: FoldMemo, _ zone: TimeZone) {
            switch rule {
            case .tag(let path): self = .tag(path)
            case .tagPrefix(let path): self = .anyChild(path + ":")
            case .count(let path, let c): self = Interval(c, zone).map { .count(prefix: path + ":", $0) } ?? .never
            case .field(let f, let c):
                switch c {
                case .contains(let t): self = .text(f, TextTest(nil, t, folds))
                case .compare(let op, .text(let t)): self = .text(f, TextTest(op, t, folds))
                case .compare(_, .number), .compare(_, .bool), .range, .compare(_, .date), .dateRange:
                    self = Interval(c, zone).map { .number(f, $0) } ?? .never
                }
            case .userField(let name, let c):
                switch c {
                case .contains(let t): self = .userText(name, TextTest(nil, t, folds))
                case .compare(let op, .text(let t)): self = .userText(name, TextTest(op, t, folds))
                case .compare(_, .number), .compare(_, .bool), .range, .compare(_, .date), .dateRange:
                    self = Interval(c, zone).map { .userNumber(name, $0) } ?? .never
                }
            }
        }

        /// What `holds` reads of a song.
        var fields: [SongField] {
            switch self {
            case .tag, .anyChild, .count: return [.tags]
            case .number(let f, _): return [f]
            // As `holds` reads it: the list and the file's credit.
            case .text(.artists, _): return [.artists, .artistCredit]
            case .text(let f, _): return [f]
            case .userNumber, .userText: return [.userFields]
            case .never: return []
            }
        }

        /// Whether a number, or a truth value as 0 or 1, is in the interval.
        static func holds(_ interval: Interval, for v: FieldValue) -> Bool {
            if let b = v.bool { return interval.contains(b ? 1 : 0) }
            return interval.contains(v.double)
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
                return Self.holds(interval, for: f.queryValue(in: s))
            case .text(.artists, let test):
                // As in queries: any listed artist, the list joined, or the file's credit.
                return test.holds(for: .strings(s.artists), or: s.artistCredit)
            case .text(let f, let test):
                return test.holds(for: f.matchValue(in: s))
            case .userNumber(let name, let interval):
                // A text that is no number is, to a number, a missing value.
                return interval.contains(UserFieldValue.typed(s.userField(name)).double)
            case .userText(let name, let test):
                return test.holds(for: s.userField(name).map(FieldValue.string) ?? .null)
            case .never:
                return false
            }
        }
    }

    /// A numeric comparison as an interval, maybe negated (`!=`). A missing value is in no
    /// interval, so it passes only a negated one.
    struct Interval: Sendable {
        var lower: Double?, lowerIncluded = true
        var upper: Double?, upperIncluded = true
        var negated = false

        /// Nil when the comparison is not numeric (or names a date that does not exist in `zone`).
        init?(_ c: Comparison, _ zone: TimeZone) {
            switch c {
            case .range(let lo, let hi):
                self = Interval(lower: lo, upper: hi)
            case .dateRange(let lo, let hi):
                var lower: Double?, upper: Double?
                if let lo { guard let p = DatePeriod.parse(lo, timeZone: zone) else { return nil }; lower = p.start }
                if let hi { guard let p = DatePeriod.parse(hi, timeZone: zone) else { return nil }; upper = p.end }
                self = Interval(lower: lower, upper: upper)
                upperIncluded = false
            case .compare(let op, .date(let d)):
                guard let p = DatePeriod.parse(d, timeZone: zone) else { return nil }
                switch op {
                case .equal, .notEqual:
                    self = Interval(lower: p.start, upper: p.end)
                    upperIncluded = false
                    negated = op == .notEqual
                case .less: self = Interval(lower: nil, upper: p.start); upperIncluded = false
                case .lessOrEqual: self = Interval(lower: nil, upper: p.end); upperIncluded = false
                case .greater: self = Interval(lower: p.end, upper: nil)
                case .greaterOrEqual: self = Interval(lower: p.start, upper: nil)
                }
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

    /// A text comparison (a substring when there is no operator) with its needle folded; ASCII
    /// texts are compared without folding them (`FoldedNeedle`).
    struct TextTest: Sendable {
        /// `!=` is kept as `=` and `negated`: it holds when no value is equal.
        var op: Comparison.Operator?
        var negated: Bool
        var needle: FoldedNeedle
        var folds: FoldMemo

        init(_ op: Comparison.Operator?, _ text: String, _ folds: FoldMemo) {
            self.op = op == .notEqual ? .equal : op
            negated = op == .notEqual
            needle = FoldedNeedle(folded: Fold.key(text))
            self.folds = folds
        }

        /// Any of the texts a value offers (and `extra`, when given): each of a list and the list
        /// as displayed (`A; B`), numbers and truth values as printed, nothing for a missing value.
        func holds(for v: FieldValue, or extra: String? = nil) -> Bool {
            finds(v, or: extra) != negated
        }

        /// `holds(for: .string(text))` of a text's UTF-8 bytes, when they decide it without
        /// folding: plain ASCII, compared by containment or equality; else nil.
        func holds(utf8 text: UnsafeRawBufferPointer) -> Bool? {
            let found: Bool?
            switch op {
            case nil: found = needle.asciiMatch(utf8: text, whole: false)
            case .equal, .notEqual: found = needle.asciiMatch(utf8: text, whole: true)
            default: found = nil
            }
            return found.map { $0 != negated }
        }

        /// Whether the comparison, not negated, finds a text of `v` or `extra` (as `holds` reads them).
        func finds(_ v: FieldValue, or extra: String?) -> Bool {
            var found: Bool
            switch v {
            case .null: found = false
            case .string(let s): found = test(s)
            case .strings(let xs): found = xs.contains(where: test) || (xs.count > 1 && test(xs.joined(separator: "; ")))
            default: found = test(v.description)
            }
            if !found, let extra { found = test(extra) }
            return found
        }

        private func test(_ s: String) -> Bool {
            let n = needle.text
            switch op {
            case nil: return needle.asciiMatch(s, whole: false) ?? folds.key(s).contains(n)
            case .equal, .notEqual: return needle.asciiMatch(s, whole: true) ?? (folds.key(s) == n)
            case .less: return folds.key(s) < n
            case .lessOrEqual: return folds.key(s) <= n
            case .greater: return folds.key(s) > n
            case .greaterOrEqual: return folds.key(s) >= n
            }
        }
    }
}

extension TaglistMatcher {
    /// The image's rows whose songs the taglist holds, decided on the columns it reads (each
    /// rule tested once per distinct value of its field, then the clauses combined as `matches`
    /// combines them), so that no song is read to decide; nil when the image lacks a column a
    /// rule reads. Exactly the rows whose song `matches` (the image law tests check it).
    func rows(in image: any SongImage) -> RowSet? {
        let n = image.rowCount
        func rows(_ clause: [Test]) -> RowSet? {
            var out = RowSet(count: n)
            for test in clause {
                guard let r = test.rows(in: image) else { return nil }
                out.formUnion(r)
            }
            return out
        }
        var out = RowSet(count: n, all: true)
        for clause in positive {
            guard let r = rows(clause) else { return nil }
            out.formIntersection(r)
        }
        guard !negative.isEmpty else { return out }
        var excluded = RowSet(count: n, all: true)
        for clause in negative {
            guard let r = rows(clause) else { return nil }
            excluded.formIntersection(r)
        }
        out.formIntersection(excluded.complement())
        return out
    }
}

extension TaglistMatcher.Test {
    /// The rows for which the rule holds, from the distinct values of the field it reads.
    func rows(in image: any SongImage) -> RowSet? {
        switch self {
        case .never:
            return RowSet(count: image.rowCount)
        case .text(.artists, let test):
            // Found in the list or in the credit, then negated once, as `holds` reads both.
            guard var found = image.rows(of: .artists, where: { test.finds($0, or: nil) }),
                  let credit = image.rows(of: .artistCredit, where: { test.finds(.null, or: $0.string) }) else { return nil }
            found.formUnion(credit)
            return test.negated ? found.complement() : found
        // `holds` reads the field's match or query value, which its stored value alone decides.
        case .text(let field, let test) where !field.joinsValues:
            // A single text is its own match value: its bytes decide when they are plain ASCII.
            return image.rows(ofText: field, where: test.holds(utf8:)) { test.holds(for: field.matchValue(of: $0)) }
        case .text(let field, let test):
            return image.rows(of: field) { test.holds(for: field.matchValue(of: $0)) }
        case .number(let field, let interval):
            return image.rows(of: field) { Self.holds(interval, for: field.queryValue(of: $0)) }
        default:
            guard fields.count == 1, let field = fields.first else { return nil }
            // A song holding only that field's value: `holds` reads nothing else.
            var song = Song(id: SongID(.init(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))), path: "")
            return image.rows(of: field) { value in
                field.set(value, in: &song)
                return holds(for: song)
            }
        }
    }

}

/// `Fold.key` remembered for the texts one matcher has folded: Foundation's folding costs
/// microseconds, and a library repeats its artists, albums and genres on every song.
///
/// Bounded, so a matcher kept for a long time over a changing library cannot grow without end;
/// past the bound, texts are folded each time. Shared by the threads using one matcher, hence
/// the `Mutex`.
final class FoldMemo: Sendable {
    private let keys = Mutex<[String: String]>([:])
    static let limit = 100_000

    func key(_ s: String) -> String {
        if let k = keys.withLock({ $0[s] }) { return k }
        let k = Fold.key(s)
        keys.withLock { if $0.count < Self.limit { $0[s] = k } }
        return k
    }
}

extension DataBasis {
    /// The songs in a taglist, in browsing order (album artist, album, disc, track, path).
    ///
    /// Complexity: O(n) rule tests over the basis's songs, reading only the taglist's fields of
    /// an image's rows, plus O(k log k) to sort the k found.
    public func songs(in taglist: Taglist, timeZone: TimeZone = .gmt) -> [Song] {
        SongOrder([]).sorted(view(through: taglist, timeZone: timeZone).songs.map(\.value))
    }
}
