import Foundation

/// Resolves the field names users type (`artist`, `comp`, `mb_albumid`) to song fields.
///
/// Unknown names are an error with a suggestion: beets silently matches nothing, which hides typos.
public enum FieldName {
    static let aliases: [String: SongField] = [
        "artist": .artists, "comp": .compilation, "tag": .tags, "length": .duration,
        "filename": .path, "albumartists": .albumartist, "mb_releasegroup": .mbReleaseGroupID,
        "play_count": .playcount, "skip_count": .skipcount, "last_played": .lastplayed,
        "composersort": .composerSort, "movementname": .movement,
    ]

    public static func resolve(_ name: String) -> SongField? {
        let n = name.lowercased()
        return SongField(rawValue: n) ?? aliases[n]
    }

    /// Every name a user may type, for error messages and completions.
    public static var all: [String] { (SongField.allCases.map(\.rawValue) + aliases.keys).sorted() }

    /// The known name closest to a typo, if one is close enough to be a useful hint; `userFields`
    /// are the library's own fields, which count as known too.
    public static func suggestion(for name: String, userFields: Set<String> = []) -> String? {
        let n = name.lowercased()
        let best = (all + userFields.sorted()).map { ($0, editDistance(n, $0)) }.min { $0.1 < $1.1 }
        guard let (candidate, d) = best, d <= max(2, n.count / 3) else { return nil }
        return candidate
    }

    /// Whether `name` can name a user field: lower-case ASCII letters, digits and `_`, starting
    /// with a letter, at most 64 characters (so it is a word in queries, `-f` formats and JSON).
    public static func isValidUserFieldName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (97...122).contains(first), name.utf8.count <= 64 else { return false }
        return name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
    }

    /// A known name (a field, an alias or one of `userFields`) within two edits
    /// of `name`: creating a user field that close to one needs `--new-field`, since it is more
    /// likely a typo (`yeer=1969`) than a new field.
    public static func nearKnownName(_ name: String, userFields: Set<String>) -> String? {
        let known = all + userFields.sorted()
        return known.filter { $0 != name }.map { ($0, editDistance(name, $0)) }.filter { $0.1 <= 2 }
            .min { $0.1 < $1.1 }?.0
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var prev = Array(0...b.count)
        for i in 1...a.count {
            var cur = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where j <= b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            prev = cur
        }
        return prev[b.count]
    }
}

/// An error in what the user asked for, before anything is generated.
public enum FieldError: Error, Equatable, LocalizedError {
    case unknownField(String, suggestion: String?)
    case readOnly(String)
    case badValue(field: String, value: String, expected: String)
    case malformed(String)
    /// `id`: the song's identity, a key of `--json` and `-f`, which no field may take.
    case songID
    /// A new user field whose name is within two edits of a known one.
    case nearKnownField(String, known: String)
    /// A name that can't be a user field.
    case badFieldName(String)

    public var errorDescription: String? {
        switch self {
        case .unknownField(let f, let s):
            return "unknown field '\(f)'" + (s.map { "; did you mean '\($0)'?" } ?? "; see 'boomic ls --help' for the field names")
        case .readOnly(let f):
            return "field '\(f)' is read from the file and can't be modified; rescan with 'boomic import' instead"
        case .badValue(let f, let v, let e):
            return "'\(v)' is not a valid value for '\(f)': expected \(e)"
        case .malformed(let s):
            return "'\(s)' is not an assignment: write FIELD=VALUE to set a field or FIELD! to clear it"
        case .songID:
            return "'id' is the song's identity in the library: it can't be set, nor be the name of your own field"
        case .nearKnownField(let f, let known):
            return "unknown field '\(f)'; did you mean '\(known)'? (pass --new-field to create a field named '\(f)')"
        case .badFieldName(let f):
            return "'\(f)' can't name a field: use lower-case letters, digits and '_', starting with a letter"
        }
    }
}
