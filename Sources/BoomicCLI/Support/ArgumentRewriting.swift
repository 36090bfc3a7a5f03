/// Prepares the raw arguments for swift-argument-parser.
///
/// Three things the parser cannot do by itself (STYLE "CLI conventions"):
/// - A command's trailing terms (its QUERY, assignments or clauses: `TakesTerms`) are taken out
///   and handed over after parsing, exactly as typed: the parser's bookkeeping is quadratic in
///   their number, and errors then quote what the user wrote (`-#`, not `^#`).
/// - QUERY negation with `-` (`-genre:jazz`, `-#old`) would be read as short options, so such a
///   token is a term, not an option; where it still reaches the parser (a command that does not
///   take terms) its leading `-` becomes `^`. A token is a negated term when it contains `:` or
///   starts with `-#`, `-@` or `-count(` (taglist clauses) — never after `--`, never on an
///   option's value, never on an option itself (`--as-of` has no colon). An option's value that
///   starts with `-` is joined to the option (`--name -x:1` → `--name=-x:1`), which the parser
///   takes.
/// - `--library PATH` given before the subcommand (`boomic --library L ls`) is lifted out, so that
///   every subcommand sees it the same way as `BOOMIC_LIBRARY`.
///
/// Which options take a value, and how many positionals come before the terms, is read from the
/// commands' own definitions (`CommandShape`). Linear in the number of arguments.
enum ArgumentRewriting {
    struct Result: Equatable {
        /// What the parser sees.
        var arguments: [String]
        var library: String?
        /// The trailing terms taken out, as typed; nil when the command takes none.
        var terms: [String]?
        /// The command run, by name from the root (`["playlist", "add"]`), for usage messages.
        var command: [String] = []
    }

    static func rewrite(_ args: [String], root: CommandShape) -> Result {
        var out: [String] = []
        var terms: [String] = []
        var library: String?
        var shape = root
        var command: [String] = []
        var positionals = 0
        var afterTerminator = false
        var i = 0
        out.reserveCapacity(args.count)
        while i < args.count {
            let a = args[i]
            i += 1
            if !afterTerminator, a == "--" { afterTerminator = true; out.append(a); continue }
            let isValue = afterTerminator || !a.hasPrefix("-") || a == "-" || isNegatedTerm(a)
            if !isValue {
                if command.isEmpty, a == "--library", i < args.count { library = args[i]; i += 1; continue }
                if command.isEmpty, a.hasPrefix("--library=") { library = String(a.dropFirst("--library=".count)); continue }
                guard i < args.count, takesValue(a, shape) else { out.append(a); continue }
                let value = args[i]
                i += 1
                // The parser refuses a value that starts with `-` after a space (`--name -live:1`)
                // but takes it joined (`--name=-live:1`), so both spellings mean the same.
                if value.hasPrefix("-"), value != "-", let long = shape.long[a] {
                    out.append(long + "=" + value)
                } else {
                    out.append(a)
                    out.append(value)
                }
                continue
            }
            if !afterTerminator, positionals == 0, let sub = shape.subcommand(a) {
                shape = sub
                command.append(sub.name)
                out.append(a)
                continue
            }
            if shape.takesTerms, positionals >= shape.leadingPositionals {
                terms.append(a)
            } else {
                out.append(!afterTerminator && isNegatedTerm(a) ? "^" + a.dropFirst() : a)
                positionals += 1
            }
        }
        return Result(arguments: out, library: library, terms: shape.takesTerms ? terms : nil, command: command)
    }

    /// `--format`, `-f`, and a cluster of short flags ending in one that takes a value (`-af`).
    private static func takesValue(_ option: String, _ shape: CommandShape) -> Bool {
        if shape.valued.contains(option) { return true }
        guard !option.hasPrefix("--"), !option.contains("="), option.count > 2, let last = option.last else { return false }
        return shape.valued.contains("-" + String(last))
    }

    static func isNegatedTerm(_ a: String) -> Bool {
        guard a.hasPrefix("-"), !a.hasPrefix("--"), a.count > 1 else { return false }
        // `-@year(<2000)` and `-count(#x:)<2` are negative taglist clauses.
        return a.hasPrefix("-#") || a.hasPrefix("-@") || a.hasPrefix("-count(") || a.contains(":")
    }
}
