import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// The query matcher against a naive reference filter, on random queries over the libraries of
/// the random histories; and beets' complement laws.
@Suite("Query matcher")
struct QueryMatcherTests {
    // MARK: A model of query terms, rendered to text and evaluated on songs directly

    enum TextField: String, CaseIterable { case title, artist, album, albumartist, genre, composer }

    /// One term of a query, as a user would mean it.
    enum Term {
        case bare(String)
        case substring(TextField, String)
        case exact(TextField, String)
        case regex(TextField, String)
        case range(NumberField, lower: Int?, upper: Int?)
        case flag(FlagField, Bool)
        case tag(String, children: Bool)
        indirect case not(Term, sign: Character)
    }

    enum NumberField: String, CaseIterable { case year, rating, track }
    enum FlagField: String, CaseIterable { case favorite, comp }

    /// The argument a user would type for a term.
    static func text(_ t: Term) -> String {
        func escaped(_ s: String) -> String { s.replacingOccurrences(of: ":", with: "\\:") }
        switch t {
        case .bare(let s): return escaped(s)
        case .substring(let f, let s): return "\(f.rawValue):\(escaped(s))"
        case .exact(let f, let s): return "\(f.rawValue):=\(escaped(s))"
        case .regex(let f, let r): return "\(f.rawValue)::\(r)"
        case .range(let f, let lo, let hi):
            if let lo, let hi, lo == hi { return "\(f.rawValue):\(lo)" }
            return "\(f.rawValue):\(lo.map(String.init) ?? "")..\(hi.map(String.init) ?? "")"
        case .flag(let f, let b): return "\(f.rawValue):\(b ? "yes" : "false")"
        case .tag(let name, let children): return "#" + name + (children ? ":" : "")
        case .not(let inner, let sign): return String(sign) + text(inner)
        }
    }

    /// Case and accent folding written independently of `Fold`: decompose, drop the marks, lower-case.
    static func fold(_ s: String) -> String {
        String(String.UnicodeScalarView(s.decomposedStringWithCanonicalMapping.unicodeScalars
            .filter { $0.properties.generalCategory != .nonspacingMark })).lowercased()
    }

    /// The texts a song offers for a field: each artist, the list joined when there are several,
    /// and the file's credit (`A feat. B`) when it has one; each of several joined values.
    static func texts(_ s: Song, _ f: TextField) -> [String] {
        switch f {
        case .title: return [s.title].compactMap { $0 }
        case .artist:
            return (s.artists.count > 1 ? s.artists + [s.artists.joined(separator: "; ")] : s.artists) + [s.artistCredit].compactMap { $0 }
        case .album: return [s.album].compactMap { $0 }
        // Several values the import joined with "; ": each, and the whole text.
        case .albumartist: return Samples.joinedValues(s.albumartist)
        case .genre: return Samples.joinedValues(s.genre)
        case .composer: return Samples.joinedValues(s.composer)
        }
    }

    /// The reference filter: what each term means, evaluated on the song's properties.
    static func matches(_ t: Term, _ s: Song) -> Bool {
        switch t {
        case .bare(let needle):
            let hay = TextField.allCases.flatMap { texts(s, $0) } + [s.path]
            return hay.contains { fold($0).contains(fold(needle)) }
        case .substring(let f, let needle): return texts(s, f).contains { fold($0).contains(fold(needle)) }
        case .exact(let f, let want): return texts(s, f).contains(want)
        case .regex(let f, let pattern):
            let re = try! Regex(pattern)
            return texts(s, f).contains { $0.contains(re) }
        case .range(let f, let lo, let hi):
            let v: Int? = switch f { case .year: s.year; case .rating: s.rating; case .track: s.track }
            guard let v else { return false }
            return (lo.map { v >= $0 } ?? true) && (hi.map { v <= $0 } ?? true)
        case .flag(let f, let b): return (f == .favorite ? s.favorite : s.compilation) == b
        case .tag(let name, let children):
            return s.tags.contains { children ? $0.hasPrefix(name + ":") : $0 == name }
        case .not(let inner, _): return !matches(inner, s)
        }
    }

    /// A piece of a name from the pools, sometimes with its case changed or its accents dropped.
    static func fragment(_ rng: inout SplitMix64) -> String {
        let source = rng.pick(Samples.artists + Samples.artistCredits + Samples.albums + Samples.titles + Samples.genres + Samples.composers)
        var chars = Array(rng.chance(0.3) ? fold(source) : source)
        let start = Int.random(in: 0..<chars.count, using: &rng)
        chars = Array(chars[start..<min(chars.count, start + Int.random(in: 1...6, using: &rng))])
        var s = String(chars)
        if rng.chance(0.3) { s = s.uppercased() }
        return s
    }

    static func randomTerm(_ rng: inout SplitMix64) -> Term {
        let term: Term
        switch Int.random(in: 0..<8, using: &rng) {
        case 0:
            var word = fragment(&rng)
            // A bare word must not read as a negation, a tag or a sort key.
            while word.first.map({ "^-#".contains($0) }) == true || word.last.map({ "+-,".contains($0) }) == true {
                word = fragment(&rng)
            }
            term = .bare(word)
        case 1, 2:
            var word = fragment(&rng)
            while word.first.map({ "=:".contains($0) }) == true || word.last == "," { word = fragment(&rng) }
            term = .substring(rng.pick(TextField.allCases), word)
        case 3:
            let f = rng.pick(TextField.allCases)
            let values: [String] = switch f {
            case .title: Samples.titles
            case .artist: Samples.artists + Samples.artistCredits + ["Miles Davis; John Coltrane"]
            case .album: Samples.albums
            case .albumartist: Samples.artists
            case .genre: Samples.genres
            case .composer: Samples.composers
            }
            term = .exact(f, rng.pick(values))
        case 4:
            term = .regex(rng.pick(TextField.allCases), rng.pick(["^M", "s$", "^[A-C]", "(?i)jazz", "o.e", "[0-9]", "^.{4}$", "ö|ó|é"]))
        case 5:
            let f = rng.pick(NumberField.allCases)
            let r: ClosedRange<Int> = f == .year ? 1950...2030 : f == .rating ? 0...6 : 0...13
            let lo = Int.random(in: r, using: &rng), hi = Int.random(in: r, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: term = .range(f, lower: lo, upper: nil)
            case 1: term = .range(f, lower: nil, upper: hi)
            case 2: term = .range(f, lower: lo, upper: lo)
            default: term = .range(f, lower: min(lo, hi), upper: max(lo, hi))
            }
        case 6:
            term = .flag(rng.pick(FlagField.allCases), rng.chance(0.5))
        default:
            let t = rng.pick(["jazz", "rock", "mood", "instruments", "instruments:piano", "français", "nothing"])
            term = .tag(t, children: rng.chance(0.4))
        }
        return rng.chance(0.25) ? .not(term, sign: rng.pick(["^", "-"])) : term
    }

    /// A random query: `,`-separated groups of terms, each group an AND, the groups an OR.
    static func randomQuery(_ rng: inout SplitMix64) -> (args: [String], groups: [[Term]]) {
        let groups = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
            (0..<Int.random(in: 1...3, using: &rng)).map { _ in randomTerm(&rng) }
        }
        var args: [String] = []
        for (i, g) in groups.enumerated() {
            if i > 0 {
                // A comma joined to a term takes the spaces around it as its own (`'a, b'`):
                // only a term without them can carry it.
                let last = args[args.count - 1]
                if rng.chance(0.5) || last.trimmingCharacters(in: .whitespaces) != last { args.append(",") } else { args[args.count - 1] += "," }
            }
            args += g.map(text)
        }
        if rng.chance(0.2) { args.append(rng.pick(["year+", "title-", "artist+"])) }
        return (args, groups)
    }

    // MARK: Laws

    @Test("random queries match exactly the songs the reference filter picks")
    func matcherAgreesWithReference() throws {
        var checked = 0, matchedSome = 0, missedSome = 0
        for h in Histories.all where !h.head.isEmpty {
            var rng = SplitMix64(seed: h.seed ^ 0x0E47)
            for _ in 0..<2 {
                let (args, groups) = Self.randomQuery(&rng)
                let parsed: ParsedQuery
                do { parsed = try QueryParser.parse(args) } catch {
                    Issue.record("seed \(h.seed): \(args) does not parse: \(error.localizedDescription)")
                    continue
                }
                let found = Set(try h.head.songs(matching: parsed).map(\.id))
                let expected = Set(h.head.songs.values.filter { s in groups.contains { $0.allSatisfy { Self.matches($0, s) } } }.map(\.id))
                #expect(found == expected, "seed \(h.seed): query \(args) as \(parsed.query); \(found.count) found, \(expected.count) expected")
                checked += 1
                if !expected.isEmpty { matchedSome += 1 }
                if expected.count < h.head.songs.count { missedSome += 1 }
            }
        }
        #expect(checked >= Seeds.atLeast(200))
        #expect(matchedSome >= checked / 5 && missedSome >= checked / 5, "queries too weak or too strong: \(matchedSome), \(missedSome) of \(checked)")
    }

    @Test("q OR not-q matches everything, q AND not-q nothing, not-not-q is q")
    func complementLaws() throws {
        var checked = 0
        for h in Histories.all where !h.head.isEmpty {
            var rng = SplitMix64(seed: h.seed ^ 0xC0C0)
            let all = Set(h.head.songs.keys)
            func ids(_ q: Query) -> Set<SongID> { Set((try? h.head.songs(matching: ParsedQuery(query: q))).map { $0.map(\.id) } ?? []) }
            for _ in 0..<2 {
                let (args, _) = Self.randomQuery(&rng)
                let q = try QueryParser.parse(args).query
                let yes = ids(q), no = ids(.not(q))
                #expect(ids(.or([q, .not(q)])) == all, "seed \(h.seed): \(args)")
                #expect(ids(.and([q, .not(q)])).isEmpty, "seed \(h.seed): \(args)")
                #expect(ids(.not(.not(q))) == yes, "seed \(h.seed): \(args)")
                #expect(yes.union(no) == all && yes.isDisjoint(with: no), "seed \(h.seed): \(args)")

                // The same through the parser: a negated term picks exactly the other songs.
                var positive = Self.randomTerm(&rng)
                if case .not(let inner, _) = positive { positive = inner }
                let term = Self.text(positive)
                let matching = ids(try QueryParser.parse([term]).query)
                let notMatching = ids(try QueryParser.parse(["^" + term]).query)
                #expect(matching.union(notMatching) == all && matching.isDisjoint(with: notMatching), "seed \(h.seed): \(term)")
                checked += 1
            }
        }
        #expect(checked >= Seeds.atLeast(200))
    }

    // MARK: Examples

    static let db = library([
        facts("/music/Björk/Jóga.flac", title: "Jóga", artists: ["Björk"], album: "Homogenic", year: 1997),
        facts("/music/Miles/So What.flac", title: "So What", artists: ["Miles Davis", "John Coltrane"], album: "Kind of Blue", year: 1959),
        facts("/music/untagged.mp3"),
    ])

    static func find(_ args: String...) throws -> [Int] {
        try db.songs(matching: QueryParser.parse(args)).map { s in (1...3).first { songID($0) == s.id }! }
    }

    @Test("accents and case fold both ways", arguments: [
        (["bjork"], [1]), (["BJÖRK"], [1]), (["artist:björk"], [1]), (["joga"], [1]), (["title:JÓGA"], [1]),
    ])
    func accentFolding(args: [String], expected: [Int]) throws {
        #expect(try Self.db.songs(matching: QueryParser.parse(args)).map(\.id) == expected.map(songID))
    }

    @Test("multi-valued artists match each artist and the display string")
    func multiValuedArtists() throws {
        #expect(try Self.find("artist:coltrane") == [2])
        #expect(try Self.find("artist:=John Coltrane") == [2])
        #expect(try Self.find("artist:=Miles Davis; John Coltrane") == [2])
        #expect(try Self.find("artist:=Miles") == [])
    }

    @Test("a missing value matches no value term, and its negation matches")
    func missingValues() throws {
        #expect(try Self.find("year:1900..2100") == [1, 2])
        #expect(try Self.find("^year:1900..2100") == [3])
        #expect(try Self.find("-title:o") == [3])
        #expect(try Self.find("untagged") == [3], "bare words look in the path")
    }

    @Test("sorting: by the keys given, missing values first ascending and last descending (as beets), then the browsing order")
    func sortOrder() throws {
        #expect(try Self.find("year+") == [3, 2, 1])
        #expect(try Self.find("title+") == [3, 1, 2])
        #expect(try Self.find("year-") == [1, 2, 3], "missing values sort last in descending order")
        #expect(try Self.find("title-") == [2, 1, 3])
        #expect(try Self.find() == [3, 1, 2], "album artist, album, disc, track, path: the untagged song has no album artist")
    }
}
