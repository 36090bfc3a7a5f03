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
            case .taglist(_, let c):
                out += entityLines("taglist", c) { "    rules: " + $0.arguments.joined(separator: " ") }
            case .playlist(_, let c):
                out += entityLines("playlist", c) { "    \($0.songs.count) songs" }
            }
        }
        return out
    }

    /// `+ taglist mix` / `- playlist old` / `~ taglist mix` with what changed.
    private static func entityLines<V>(_ kind: String, _ c: EntityChange<V>, body: (V) -> String) -> [String]
    where V: NamedEntity {
        switch (c.old, c.new) {
        case (nil, let new?): return [Terminal.green("+ ") + "\(kind) \(new.name)", body(new)]
        case (let old?, nil): return [Terminal.red("- ") + "\(kind) \(old.name)"]
        case (let old?, let new?):
            var out = [Terminal.yellow("~ ") + "\(kind) \(old.name)"]
            if old.name != new.name { out.append("    name: \(old.name) → \(Terminal.bold(new.name))") }
            let (was, now) = (body(old), body(new))
            if was != now { out.append(was + " →"); out.append(Terminal.bold(now)) }
            return out
        case (nil, nil): return []
        }
    }
}

protocol NamedEntity { var name: String { get } }
extension Taglist: NamedEntity {}
extension Playlist: NamedEntity {}

