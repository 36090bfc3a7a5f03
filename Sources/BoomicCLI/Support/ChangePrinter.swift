import BoomicCore

/// Prints assertions in words: per song, `field: old → new` (`show`, previews, `diff`).
enum ChangePrinter {
    /// A song's name as people read it, from whichever side of the change has one.
    static func name(of s: Song) -> String {
        [s.artist, s.album, s.title ?? s.path.split(separator: "/").last.map(String.init) ?? s.path]
            .compactMap { $0 }.joined(separator: " - ")
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
                    out.append("    \(f.name): \(c.old) → \(Terminal.bold(c.new.description))")
                }
            }
        }
        return out
    }
}

