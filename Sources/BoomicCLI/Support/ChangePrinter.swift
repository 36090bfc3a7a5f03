import BoomicCore

/// Prints assertions in words: per song, `field: old → new` (`show`, previews, `diff`).
enum ChangePrinter {
    /// A song's name as people read it, from whichever side of the change has one.
    static func name(of s: Song) -> String {
        SongFormat.line(s)
    }

    /// A field value for people: `∅` for nothing, tags with `#`.
    static func shown(_ v: FieldValue, _ f: SongField) -> String {
        switch v {
        case .null, .strings([]): return "∅"
        case .strings(let xs) where f == .tags: return xs.map { "#" + $0 }.joined(separator: " ")
        default: return v.description
        }
    }

    static func lines(for assertions: [Assertion], in basis: DataBasis?, limit: Int = .max) -> [String] {
        var out: [String] = []
        for (i, a) in assertions.enumerated() {
            if i == limit { out.append("… and \(assertions.count - limit) more"); break }
            switch a {
            case .addSong(let s):
                out.append(Terminal.green("+ ") + name(of: s) + Terminal.dim("  \(s.path)"))
            case .deleteSong(let s):
                out.append(Terminal.red("- ") + name(of: s) + Terminal.dim("  \(s.path)"))
            case .updateSong(let id, let patch):
                let song = basis?[id]
                out.append(Terminal.yellow("~ ") + (song.map(name(of:)) ?? id.description))
                for (f, c) in patch.sorted(by: { $0.key < $1.key }) {
                    out.append("    \(f.name): \(shown(c.old, f)) → \(Terminal.bold(shown(c.new, f)))")
                }
            }
        }
        return out
    }
}

