import Foundation

/// Resolves the field names users type (`artist`, `comp`, `mb_albumid`) to song fields.
///
/// Unknown names are an error with a suggestion: beets silently matches nothing, which hides typos.
public enum FieldName {
    static let aliases: [String: SongField] = [
        "artist": .artists, "comp": .compilation, "tag": .tags, "length": .duration,
        "filename": .path, "albumartists": .albumartist, "mb_releasegroup": .mbReleaseGroupID,
    ]

    public static func resolve(_ name: String) -> SongField? {
        let n = name.lowercased()
        return SongField(rawValue: n) ?? aliases[n]
    }

    /// Every name a user may type, for error messages and completions.
    public static var all: [String] { (SongField.allCases.map(\.rawValue) + aliases.keys).sorted() }

    /// The known name closest to a typo, if one is close enough to be a useful hint.
    public static func suggestion(for name: String) -> String? {
        let n = name.lowercased()
        let best = all.map { ($0, editDistance(n, $0)) }.min { $0.1 < $1.1 }
        guard let (candidate, d) = best, d <= max(2, n.count / 3) else { return nil }
        return candidate
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
        }
    }
}
