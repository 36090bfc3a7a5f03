import BoomicCore
import Foundation

extension MPDFilter {
    /// The library query that selects what this filter does, so MPD's commands run on the same
    /// evaluator as `boomic ls`. `foldCase` is the command's default (`search` ignores case,
    /// `find` does not); `absolutePath` turns a client's path (relative to the music folder)
    /// into the library's, or nil when it names no music folder.
    ///
    /// What MPD does and Boomic's matches lack is written with regexes: a case-sensitive
    /// substring or prefix. A priority filter selects queue entries, not songs: an error here.
    public func query(foldCase: Bool, absolutePath: (String) -> String?) throws(MPDError) -> Query {
        switch self {
        case let .tag(tag, test):
            try Self.checkRegex(test)
            let match = Self.match(test, foldCase: foldCase)
            let positive: Query
            switch tag {
            case _ where test.value.isEmpty && test.position != .full:
                // Every value holds "" (an empty pattern matches anything), and MPD counts a
                // song without the tag as holding it.
                positive = .all
            case nil: positive = Self.anyTag(match)
            case .artist?: positive = Self.artist(match)
            case .albumArtist?: positive = Self.albumArtist(match)
            case .artistSort?: positive = Self.artistSort(match)
            case .albumSort?: positive = Self.fallback(.albumSort, match, else: .field(.album, match))
            case .albumArtistSort?:
                positive = Self.fallback(.albumartistSort, match, else: Self.fallback(.albumartist, match, else: Self.artistSort(match)))
            case .date?: positive = Self.date(match)
            case let tag?: positive = .field(tag.field, match)
            }
            return test.negated ? .not(positive) : positive
        case let .unkeptTag(_, test):
            // Empty everywhere: only "is empty" (or its negation's opposite) matches.
            let matchesEmpty = test.value.isEmpty
            return matchesEmpty != test.negated ? .all : .not(.all)
        case let .file(test):
            try Self.checkRegex(test)
            let match: Query.Match
            if test.position == .full {
                match = .exact(absolutePath(test.value) ?? "\u{0}")
            } else {
                match = Self.match(test, foldCase: foldCase)
            }
            return test.negated ? .not(.field(.path, match)) : .field(.path, match)
        case let .base(folder):
            // Nothing outside the music folders: an unknown one selects nothing.
            guard let path = absolutePath(folder) else { return .not(.all) }
            return .field(.path, .pathPrefix(path))
        case let .modifiedSince(seconds):
            return .field(.mtime, .range(lower: seconds * 1_000_000_000, upper: nil))
        case let .addedSince(seconds):
            return .field(.added, .range(lower: seconds, upper: nil))
        case let .audioFormat(text, mask):
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { throw MPDError(.argument, "Failed to parse audio format: \(text)") }
            var terms: [Query] = []
            for (field, part) in zip([SongField.samplerate, .bitdepth, .channels], parts) {
                if mask && part == "*" { continue }
                if field == .bitdepth && part == "f" { continue } // float: Boomic keeps no sample type
                guard let n = Double(part) else { throw MPDError(.argument, "Failed to parse audio format: \(text)") }
                terms.append(.field(field, .range(lower: n, upper: n)))
            }
            return terms.isEmpty ? .all : .and(terms)
        case .priority:
            // MPD 0.23 has no prio filter; Boomic takes one (as 0.24) where it means something,
            // in the queue's playlistfind and playlistsearch.
            throw MPDError(.argument, "Unknown filter type: prio")
        case let .not(inner):
            return .not(try inner.query(foldCase: foldCase, absolutePath: absolutePath))
        case let .and(items):
            var queries: [Query] = []
            for item in items { queries.append(try item.query(foldCase: foldCase, absolutePath: absolutePath)) }
            return .and(queries)
        }
    }

    /// Artist as MPD reads it (`MPDResponse.forEachValue`): the file's credit where it has one,
    /// else the artists. Boomic's own `artist:` tries both, which would find songs by a name
    /// `list artist` does not show.
    static func artist(_ match: Query.Match) -> Query {
        fallback(.artistCredit, match, else: .field(.artists, match))
    }

    /// Date is the full date, else the year (Boomic keeps a date only when it says more than
    /// the year), as `list date` shows it: `find date 1971` after it.
    static func date(_ match: Query.Match) -> Query {
        .or([.field(.date, match), .and([.field(.date, .exact("")), .field(.year, match)])])
    }

    /// MPD's `any`: any value of any tag the song has (not its file name, which is `file`).
    /// The fallbacks add nothing here: what a sort name or AlbumArtist falls back to is another
    /// tag's value, tested anyway. `AnyFieldText` lays out the same values for a byte search.
    static func anyTag(_ match: Query.Match) -> Query {
        .or(MPDTag.allCases.map { tag in
            switch tag {
            case .artist: artist(match)
            case .date: date(match)
            default: .field(tag.field, match)
            }
        })
    }

    /// MPD's fallbacks: AlbumArtist, else Artist; ArtistSort, else Artist; AlbumSort, else Album;
    /// AlbumArtistSort, else AlbumArtist, else ArtistSort, else Artist.
    static func albumArtist(_ match: Query.Match) -> Query { fallback(.albumartist, match, else: artist(match)) }
    static func artistSort(_ match: Query.Match) -> Query { fallback(.artistSort, match, else: artist(match)) }

    /// `field` where a song has it, `otherwise` where it does not (so `== ''` finds only songs
    /// with neither).
    static func fallback(_ field: SongField, _ match: Query.Match, else otherwise: Query) -> Query {
        let none = Query.field(field, .exact(""))
        return .or([.and([.not(none), .field(field, match)]), .and([none, otherwise])])
    }

    /// The folders a song must be under for the whole filter to match (`base`, alone or in the
    /// top-level AND): MPD looks them up before anything else.
    var requiredBases: [String] {
        switch self {
        case .base(let folder): [folder]
        case .and(let items): items.flatMap(\.requiredBases)
        default: []
        }
    }

    /// A regex that does not compile is an error, as MPD's PCRE refuses it, not a filter that
    /// quietly matches nothing.
    static func checkRegex(_ test: StringTest) throws(MPDError) {
        guard test.position == .regex, !test.value.isEmpty else { return }
        if (try? NSRegularExpression(pattern: test.value)) == nil {
            throw MPDError(.argument, "Error in regex: cannot compile '\(test.value)'")
        }
    }

    static func match(_ test: StringTest, foldCase commandDefault: Bool) -> Query.Match {
        let fold = test.foldCase ?? commandDefault
        let escaped = NSRegularExpression.escapedPattern(for: test.value)
        let caseless = fold ? "(?i)" : ""
        switch test.position {
        case .full: return fold ? .exactIgnoringCase(CaseFold.full(test.value)) : .exact(test.value)
        case .anywhere: return fold ? .substringIgnoringCase(CaseFold.full(test.value)) : .regex(escaped)
        case .prefix: return .regex(caseless + "^" + escaped)
        case .regex: return .regex(caseless + test.value)
        }
    }
}
