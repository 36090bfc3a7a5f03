/// Prepares the raw arguments for swift-argument-parser.
///
/// Two things the parser cannot do by itself (STYLE "CLI conventions"):
/// - QUERY negation with `-` (`-genre:jazz`, `-#old`) would be read as short options, so a leading
///   `-` becomes `^` on tokens that contain `:` or start with `-#`, `-@` or `-count(` (taglist
///   clauses) — never after `--`, never on an
///   option's value, never on an option itself (`--as-of` has no colon).
/// - `--library PATH` given before the subcommand (`boomic --library L ls`) is lifted out, so that
///   every subcommand sees it the same way as `BOOMIC_LIBRARY`.
public enum ArgumentRewriting {
    /// Options that take a value: their next argument is a value, not a query term.
    static let valued: Set<String> = ["--library", "-f", "--format", "--as-of", "-n", "-m", "--message",
                                       "--kind", "--since", "--limit", "--output", "--repeat", "--view",
                                       "--rename", "--name", "--at"]

    public struct Result: Equatable {
        public var arguments: [String]
        public var library: String?
    }

    public static func rewrite(_ args: [String]) -> Result {
        var out: [String] = []
        var library: String?
        var i = 0
        var afterTerminator = false
        var sawSubcommand = false
        while i < args.count {
            let a = args[i]
            if afterTerminator { out.append(a); i += 1; continue }
            if a == "--" { afterTerminator = true; out.append(a); i += 1; continue }
            if !sawSubcommand, a == "--library", i + 1 < args.count {
                library = args[i + 1]; i += 2; continue
            }
            if !sawSubcommand, a.hasPrefix("--library=") {
                library = String(a.dropFirst("--library=".count)); i += 1; continue
            }
            if valued.contains(a), i + 1 < args.count {
                out.append(a); out.append(args[i + 1]); i += 2; continue
            }
            if !a.hasPrefix("-") { sawSubcommand = true }
            out.append(isNegatedTerm(a) ? "^" + a.dropFirst() : a)
            i += 1
        }
        return Result(arguments: out, library: library)
    }

    static func isNegatedTerm(_ a: String) -> Bool {
        guard a.hasPrefix("-"), !a.hasPrefix("--"), a.count > 1 else { return false }
        // `-@year(<2000)` and `-count(#x:)<2` are negative taglist clauses.
        return a.hasPrefix("-#") || a.hasPrefix("-@") || a.hasPrefix("-count(") || a.contains(":")
    }
}
