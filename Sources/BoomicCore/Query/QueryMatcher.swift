import Foundation
import Synchronization

/// A query compiled for evaluation: needles folded once, regexes compiled once.
///
/// Evaluation is a pure function of the song, so the same query over the same basis always
/// gives the same songs (TagViews and time travel rely on it).
public struct QueryMatcher: Sendable {
    private let test: @Sendable (Song) -> Bool
    private var budget = RegexBudget()

    public init(_ query: Query) {
        test = Self.compile(query, budget)
    }

    /// A matcher whose regexes share `budget` with another evaluation of the same query (the
    /// image's columns and the delta's songs are one answer).
    init(_ query: Query, budget: RegexBudget) {
        self.budget = budget
        test = Self.compile(query, budget)
    }

    public func matches(_ song: Song) -> Bool { test(song) }

    /// The regular expression that ran too long on a value and was stopped (`RegexBudget`),
    /// if one was: from then on it matched nothing, so the songs matched are not the answer.
    public var stoppedRegex: String? { budget.stopped }

    /// A match as a test of one text value: for a caller holding a field's distinct values
    /// (the MPD server's columns), which tests each value once instead of each song.
    public static func textTest(_ m: Query.Match, budget: RegexBudget = RegexBudget()) -> @Sendable (String) -> Bool {
        let t = compile(m, budget)
        return { t(.string($0)) }
    }

    private static func compile(_ q: Query, _ budget: RegexBudget) -> @Sendable (Song) -> Bool {
        func compile(_ q: Query) -> @Sendable (Song) -> Bool { Self.compile(q, budget) }
        func compile(_ m: Query.Match) -> @Sendable (FieldValue) -> Bool { Self.compile(m, budget) }
        switch q {
        case .all:
            return { _ in true }
        case .not(let inner):
            let t = compile(inner)
            return { !t($0) }
        case .and(let qs):
            let ts = qs.map(compile)
            return { s in ts.allSatisfy { $0(s) } }
        case .or(let qs):
            let ts = qs.map(compile)
            return { s in ts.contains { $0(s) } }
        case .tag(let name, let children):
            let prefix = name + ":"
            // `#instruments:` is any child of the tag, not the tag itself (as in taglists).
            return { s in s.tags.contains { children ? $0.hasPrefix(prefix) : $0 == name } }
        case .anyField(let m):
            let t = compile(m)
            return { s in Query.anyFieldTargets.contains { t($0.value(in: s)) } }
        case .field(.artists, let m):
            // `artist:` is any listed artist, the list joined (`A; B`), or the file's credit.
            let t = compile(m)
            return { s in t(.strings(s.artists)) || (s.artistCredit.map { t(.string($0)) } ?? false) }
        case .field(let f, let m):
            let t = compile(m)
            return { s in t(f.matchValue(in: s)) }
        case .userField(let name, let m):
            let t = compile(m)
            if case .range = m { return { s in t(UserFieldValue.typed(s.userField(name))) } }
            return { s in t(s.userField(name).map(FieldValue.string) ?? .null) }
        }
    }

    static func compile(_ m: Query.Match, _ budget: RegexBudget) -> @Sendable (FieldValue) -> Bool {
        switch m {
        case .substring(let needle):
            let n = FoldedNeedle(folded: needle)
            return { v in
                switch v {
                case .null: return false
                case .string(let s): return n.isFound(in: s)
                case .strings(let xs):
                    return xs.contains(where: n.isFound) || (xs.count > 1 && n.isFound(in: xs.joined(separator: "; ")))
                default: return n.isFound(in: v.description)
                }
            }
        case .exact(let want):
            return { v in texts(v).contains { $0 == want } || (texts(v).isEmpty && want.isEmpty) }
        case .exactIgnoringCase(let want):
            return { v in texts(v).contains { CaseFold.full($0) == want } || (texts(v).isEmpty && want.isEmpty) }
        case .substringIgnoringCase(let needle):
            // The ASCII search ignores case only, as wanted; other text is case-folded, which
            // keeps accents (not `Fold.key`).
            let n = FoldedNeedle(folded: needle)
            return { v in needle.isEmpty || texts(v).contains { n.asciiMatch($0, whole: false) ?? CaseFold.full($0).contains(needle) } }
        case .regex(let pattern):
            let re = CompiledRegex(pattern, budget: budget)
            return { v in texts(v).contains { re.matches($0) } }
        case .pathPrefix(let prefix):
            let folder = prefix.hasSuffix("/") ? prefix : prefix + "/"
            return { v in v.string.map { $0 == prefix || $0.hasPrefix(folder) } ?? false }
        case .range(let lo, let hi):
            return { v in
                guard let d = v.double else { return false }
                return (lo.map { d >= $0 } ?? true) && (hi.map { d <= $0 } ?? true)
            }
        }
    }

    /// The strings a value offers to text matches: each of a list, numbers as typed.
    private static func texts(_ v: FieldValue) -> [String] {
        switch v {
        case .null: return []
        case .strings(let xs): return xs.count > 1 ? xs + [xs.joined(separator: "; ")] : xs
        default: return [v.description]
        }
    }

    /// NSRegularExpression is immutable once made and documented thread-safe for matching.
    private struct CompiledRegex: @unchecked Sendable {
        let re: NSRegularExpression?
        let pattern: String
        let budget: RegexBudget
        let literals: RegexLiterals

        init(_ pattern: String, budget: RegexBudget) {
            re = try? NSRegularExpression(pattern: pattern)
            self.pattern = pattern
            self.budget = budget
            literals = RegexLiterals(pattern: pattern)
        }

        /// Whether `s` has a match; false without trying once the budget stopped a regex.
        /// The engine calls back now and then while it works (`.reportProgress`): a match that
        /// runs past `RegexBudget.perValue` is stopped there.
        func matches(_ s: String) -> Bool {
            guard let re, budget.stopped == nil else { return false }
            guard literals.admits(s) else { return false }
            if literals.whole != nil { return true }
            var found = false
            let deadline = ContinuousClock.now + RegexBudget.perValue
            re.enumerateMatches(in: s, options: [.reportProgress], range: NSRange(s.startIndex..., in: s)) { match, _, stop in
                if match != nil {
                    found = true
                    stop.pointee = true
                } else if ContinuousClock.now > deadline {
                    budget.stop(pattern)
                    stop.pointee = true
                }
            }
            return found
        }
    }
}

/// A limit on the time regular expressions may take, shared by those of one query.
///
/// A pattern with nested repeats (`(.*)*X`) tries every way to split a text, which on a long
/// title takes longer than anyone would wait; NSRegularExpression has no time limit of its own.
/// A match that runs past `perValue` is stopped, and from then on every regex of the query
/// matches nothing, so a query costs at most that much more than its plain work; the caller
/// asks `stopped` and reports it as an error rather than a short answer.
public final class RegexBudget: Sendable {
    /// Long enough for any sane pattern on any tag value, short enough to feel like an answer.
    public static let perValue: Duration = .milliseconds(250)

    private let stoppedPattern = Mutex<String?>(nil)

    public init() {}

    /// The pattern that was stopped, if one was.
    public var stopped: String? { stoppedPattern.withLock { $0 } }

    func stop(_ pattern: String) { stoppedPattern.withLock { if $0 == nil { $0 = pattern } } }
}

extension DataBasis {
    /// The songs matching a query, in the query's sort order (default: album artist, album,
    /// disc, track, path — the order people browse in).
    ///
    /// With `taglist`, only the songs it holds: what `view(through:).songs(matching:)` gives
    /// (a query and a taglist each decide on the song alone), without building the view. The
    /// taglist is decided on the few songs the query picked when it picked few (`ls --view T
    /// artist:X` reads ~100 songs, not every title of the library), else on its columns.
    ///
    /// `sorted: false` leaves the songs in no promised order, for a caller that orders what it
    /// makes of them itself (albums, artists). A caller may name in `reading` the only fields it
    /// reads of the songs (`Browse.albumFields`, the fields a listing's line prints): the image's
    /// songs are then made of those, their ids and paths, and the fields the order reads
    /// (`SongOrder.fieldsRead`) alone.
    ///
    /// Complexity: over an image, O(distinct values + rows) of the fields the query names, read
    /// in place, plus O(k) songs materialised; else O(n) to match. Then O(k log k) to sort the k
    /// matches; sort keys are computed once per song, not per comparison.
    ///
    /// - Throws: a `QueryError` naming a regular expression that ran too long and was stopped
    ///   (`RegexBudget`): the songs it would have matched are unknown.
    public func songs(matching parsed: ParsedQuery, through taglist: Taglist? = nil, timeZone: TimeZone = .gmt,
                      sorted: Bool = true, reading fields: [SongField]? = nil) throws(QueryError) -> [Song] {
        try songs(matching: parsed, through: taglist, timeZone: timeZone, sorted: sorted, reading: fields, fewRows: Self.fewRows)
    }

    /// `fewRows`: the tests' hand on which way a taglist is decided (1: always on the songs).
    func songs(matching parsed: ParsedQuery, through taglist: Taglist?, timeZone: TimeZone, sorted: Bool,
               reading fields: [SongField]? = nil, fewRows: Int) throws(QueryError) -> [Song] {
        let budget = RegexBudget()
        let m = QueryMatcher(parsed.query, budget: budget)
        let held = taglist.map { TaglistMatcher($0, timeZone: timeZone) }
        var found: [Song]
        let order = SongOrder(parsed.sort)
        var planner = songs.image.map { ImageQuery(image: $0, budget: budget) }
        if let rows = planner?.rows(parsed.query), let planner {
            // The image's rows the query picks that the delta does not shadow, then the delta's
            // own songs tested one by one: only the matches are materialised. An image's song
            // whose patches leave the fields the query reads alone matches as its row does, so
            // it is read only when that row matched (at 1,000,000 songs reading one touches a
            // segment of each of some 23 columns).
            let image = planner.image, read = planner.read
            let delta = songs.deltaSongs { id, patches in
                patches.contains { !read.isDisjoint(with: $0.keys) } || image.row(of: id).map(rows.contains) == true
            }
            var picked = rows, decided = held == nil
            if let held, rows.population > image.rowCount / fewRows, let kept = held.rows(in: image) {
                picked.formIntersection(kept)
                decided = true
            }
            // The fields read: the caller's, the order's, and the taglist's when it decides on
            // the songs.
            let reading = fields.map { $0 + (sorted ? order.fieldsRead : []) + (decided ? [] : held?.fieldsRead ?? []) }
            found = image.songs(atRows: picked.indices.filter { songs.isLive(imageID: image.id(atRow: $0)) }, reading: reading)
            if !decided, let held { found.removeAll { !held.matches($0) } }
            found += delta.filter { m.matches($0) && held?.matches($0) != false }
        } else {
            found = songs.values.filter { m.matches($0) && held?.matches($0) != false }
        }
        if let pattern = budget.stopped { throw QueryError.regexTooSlow(pattern) }
        return sorted ? order.sorted(found) : found
    }

    /// A query's rows are few when they are at most this fraction of the image's: then a
    /// taglist reads those songs rather than its fields' distinct values (a title column holds
    /// about one value a song).
    static let fewRows = 16
}

/// The order songs are listed in: the sort keys given, then the browsing order (album artist,
/// album, disc, track, path; the artist and album by their sort names where the files give
/// them), then id so that the order is total and stable across runs.
///
/// Each sort column is first reduced to integer ranks (distinct values sorted once), so sorting
/// 50,000 songs compares integers instead of moving and comparing strings.
public struct SongOrder: Sendable {
    public var keys: [SortKey]
    public init(_ keys: [SortKey]) { self.keys = keys }

    /// The fields `sorted` reads of a song besides its id and path, so that a listing may read
    /// only these and the fields it prints (`DataBasis.songs(matching:reading:)`): `ls` of 6,000
    /// songs then makes a dozen fields of each, not sixty.
    public var fieldsRead: [SongField] {
        // The browsing order: `albumArtistSortName` (sort names, the album artist, the
        // compilation flag, the first artist), the album's sort name or the album, disc, track.
        var fields: [SongField] = [.albumartistSort, .albumartist, .compilation, .artistSort, .artists,
                                   .albumSort, .album, .disc, .track]
        // `SortKey.value(in:)` reads a sort name first for these three (and the artist as shown,
        // its credit, after the artist's).
        for k in keys {
            fields.append(k.field)
            switch k.field {
            case .artists: fields += [.artistSort, .artistCredit]
            case .albumartist: fields.append(.albumartistSort)
            case .album: fields.append(.albumSort)
            default: break
            }
        }
        return fields
    }

    /// A field's value reduced to something cheap to compare: numbers as numbers, text case- and
    /// accent-folded; a missing value is less than any other, so it sorts first ascending and
    /// last descending, as in beets.
    enum SortValue: Hashable, Comparable {
        case missing
        case number(Double)
        case text(String)

        init(_ v: FieldValue) {
            switch v {
            case .null: self = .missing
            case .strings(let xs) where xs.isEmpty: self = .missing
            default:
                if let d = v.double { self = .number(d) } else { self = .text(Fold.key(v.description)) }
            }
        }
    }

    private struct Column {
        /// Rank of each song's value (a missing value ranks lowest).
        var ranks: [Int]
        var ascending: Bool

        init(_ values: [SortValue], ascending: Bool) {
            let distinct = Set(values).sorted()
            var rank: [SortValue: Int] = [:]
            rank.reserveCapacity(distinct.count)
            for (i, v) in distinct.enumerated() { rank[v] = i }
            ranks = values.map { rank[$0]! }
            self.ascending = ascending
        }

        /// A column of texts ranked by `key` of each (`SortValue.text`'s order), `key` worked
        /// out once per distinct text: a listing's 6,000 songs hold a few hundred album artists
        /// and albums, and folding is the dear part.
        init(texts: some Sequence<String>, key: (String) -> String) {
            var code: [String: Int] = [:]
            var distinct: [String] = []
            var codes: [Int] = []
            codes.reserveCapacity(texts.underestimatedCount)
            for t in texts {
                if let c = code[t] {
                    codes.append(c)
                } else {
                    code[t] = distinct.count
                    codes.append(distinct.count)
                    distinct.append(t)
                }
            }
            let keys = distinct.map(key)
            let order = keys.indices.sorted { keys[$0] < keys[$1] }
            var rankOf = [Int](repeating: 0, count: keys.count)
            var rank = 0
            for (j, i) in order.enumerated() {
                if j > 0, keys[i] != keys[order[j - 1]] { rank += 1 }
                rankOf[i] = rank
            }
            ranks = codes.map { rankOf[$0] }
            ascending = true
        }

        /// A column of whole numbers, which are their own ranks.
        init(integers: [Int]) {
            ranks = integers
            ascending = true
        }
    }

    public func sorted(_ songs: [Song]) -> [Song] {
        var columns = keys.map { k in Column(songs.map { SortValue(k.value(in: $0)) }, ascending: k.ascending) }
        columns.append(Column(texts: songs.lazy.map { $0.albumArtistSortName ?? "" }, key: Fold.key))
        columns.append(Column(texts: songs.lazy.map { $0.albumSort ?? $0.album ?? "" }, key: Fold.key))
        columns.append(Column(integers: songs.map { $0.disc ?? 0 }))
        columns.append(Column(integers: songs.map { $0.track ?? 0 }))
        // The path, unique but for a CUE image's tracks, is compared only between songs the
        // columns tie (tracks of an album without numbers): ranking 6,000 paths would hash each.
        let ids = songs.map(\.id)
        var order = Array(songs.indices)
        order.sort { i, j in
            for c in columns {
                let a = c.ranks[i], b = c.ranks[j]
                if a == b { continue }
                return c.ascending ? a < b : a > b
            }
            let p = songs[i].path, q = songs[j].path
            return p != q ? p < q : ids[i] < ids[j]
        }
        return order.map { songs[$0] }
    }
}
