import BoomicCore
import BoomicLibrary
import BoomicMedia

/// Prints assertions in words: per song, `field: old → new` (`show`, previews, `diff`).
enum ChangePrinter {
    /// A song's name as people read it, from whichever side of the change has one.
    static func name(of s: Song) -> String {
        SongFormat.line(s)
    }

    /// A field value for people: `∅` for nothing, tags with `#`.
    static func shown(_ v: FieldValue, _ f: SongField) -> String {
        // A moment (`lastplayed`) as a date, not seconds since 1970.
        if f.isDate, let t = v.double { return Formatting.localTime(t) }
        return Terminal.printable(v.shown(as: f))
    }

    /// A difference `write` would make: `field: file value → library value`.
    static func shown(_ d: TagDifference) -> String {
        "\(d.field.name): \(shown(d.file, d.field)) → \(Terminal.bold(shown(d.library, d.field)))"
    }

    /// Fields the library keeps for itself, not for people: `file_values` records what a file
    /// held before the library's edits, so that `write` knows what it may overwrite.
    static let bookkeeping: Set<SongField> = [.fileValues]

    /// - Parameter showingBookkeeping: also list `bookkeeping` fields (`show --verbose`); a
    ///   change that touched nothing else is then left out altogether.
    static func lines(for assertions: [Assertion], in basis: DataBasis?, limit: Int = .max,
                      showingBookkeeping: Bool = false) -> [String] {
        var out: [String] = []
        // The songs updated, read in one pass: an image's row read alone resolves every column.
        let named = basis?.songs.songs(assertions.prefix(limit).lazy.compactMap { if case .updateSong(let id, _) = $0 { id } else { nil } })
        for (i, a) in assertions.enumerated() {
            if i == limit { out.append("… and \(assertions.count - limit) more"); break }
            switch a {
            case .addSong(let s):
                out.append(Terminal.green("+ ") + name(of: s) + Terminal.dim("  " + Terminal.printable(s.path)))
            case .deleteSong(let s):
                out.append(Terminal.red("- ") + name(of: s) + Terminal.dim("  " + Terminal.printable(s.path)))
            case .updateSong(let id, let patch):
                let shownFields = patch.filter { showingBookkeeping || !bookkeeping.contains($0.key) }
                guard !shownFields.isEmpty else { continue }
                let song = named?[id]
                out.append(Terminal.yellow("~ ") + (song.map(name(of:)) ?? id.description))
                for (f, c) in shownFields.sorted(by: { $0.key < $1.key }) {
                    if f == .userFields { out += userFieldLines(c.old, c.new); continue }
                    out.append("    \(f.name): \(shown(c.old, f)) → \(Terminal.bold(shown(c.new, f)))")
                }
            case .taglist(_, let c):
                out += entityLines("taglist", c) { "    rules: " + $0.arguments.joined(separator: " ") }
            case .playlist(_, let c):
                out += entityLines("playlist", c) { "    songs: \($0.songs.count)" }
            case .eqProfile(_, let c):
                out += entityLines("EQ profile", c) { "    " + $0.spec.summary }
            case .annotation(let key, let c):
                out.append(annotationLine(key, c))
            }
        }
        return out
    }

    /// `~ album "nico" – "chelsea girl": starred ∅ → 2026-11-29 07:10, rating ∅ → 4`.
    static func annotationLine(_ key: AnnotationKey, _ c: EntityChange<Annotation>) -> String {
        let sign = c.old == nil ? Terminal.green("+ ") : c.new == nil ? Terminal.red("- ") : Terminal.yellow("~ ")
        func starred(_ a: Annotation?) -> String { a?.starred.map(Formatting.localTime) ?? "∅" }
        func rating(_ a: Annotation?) -> String { a?.rating.map(String.init) ?? "∅" }
        var parts: [String] = []
        if c.old?.starred != c.new?.starred { parts.append("starred: \(starred(c.old)) → \(Terminal.bold(starred(c.new)))") }
        if c.old?.rating != c.new?.rating { parts.append("rating: \(rating(c.old)) → \(Terminal.bold(rating(c.new)))") }
        return sign + Terminal.printable(key.description) + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
    }

    /// A user field's change as the user wrote it (`mood: ∅ → happy`), one line per field that
    /// changed, not the stored list of `name=value` entries they all share.
    static func userFieldLines(_ old: FieldValue, _ new: FieldValue) -> [String] {
        func map(_ v: FieldValue) -> [String: String] {
            guard case .strings(let entries) = v else { return [:] }
            var out: [String: String] = [:]
            for e in entries {
                guard let eq = e.firstIndex(of: "=") else { continue }
                out[String(e[..<eq])] = String(e[e.index(after: eq)...])
            }
            return out
        }
        let (was, now) = (map(old), map(new))
        let shown = { (v: String?) -> String in v.map { Terminal.printable($0) } ?? "∅" }
        return Set(was.keys).union(now.keys).sorted().filter { was[$0] != now[$0] }.map { name in
            "    \(Terminal.printable(name)): \(shown(was[name])) → \(Terminal.bold(shown(now[name])))"
        }
    }

    /// What-if: which taglists the change would make gain or lose which songs (`--dry-run` and
    /// every preview of modify, tag and remove).
    static func taglistLines(for assertions: [Assertion], on basis: DataBasis, songsEach limit: Int = 10) -> [String] {
        let effects = basis.taglistEffects(of: assertions)
        guard !effects.isEmpty else { return [] }
        let after = basis.applying(assertions)
        var out = ["Taglists:"]
        for e in effects {
            let parts = [e.gains.isEmpty ? nil : "gains \(e.gains.count)", e.loses.isEmpty ? nil : "loses \(e.loses.count)"]
            out.append("  \(Terminal.bold(Terminal.printable(e.name))): " + parts.compactMap { $0 }.joined(separator: ", "))
            // In browsing order, as `ls` would list them.
            let order = SongOrder([])
            let listed = order.sorted(e.gains.compactMap { after[$0] }).map { (Terminal.green("+ "), $0) }
                + order.sorted(e.loses.compactMap { basis[$0] }).map { (Terminal.red("- "), $0) }
            for (sign, song) in listed.prefix(limit) { out.append("    " + sign + name(of: song)) }
            if listed.count > limit { out.append("    … and \(listed.count - limit) more") }
        }
        return out
    }

    /// "3 songs", "1 taglist", "2 songs and 1 playlist": what a list of assertions changes.
    static func count(_ assertions: [Assertion]) -> String { RollbackFlow.count(assertions) }

    /// `+ taglist mix` / `- playlist old` / `~ taglist mix` with what changed.
    private static func entityLines<V>(_ kind: String, _ c: EntityChange<V>, body: (V) -> String) -> [String]
    where V: NamedList {
        switch (c.old, c.new) {
        case (nil, let new?): return [Terminal.green("+ ") + "\(kind) \(Terminal.printable(new.name))", Terminal.printable(body(new))]
        case (let old?, nil): return [Terminal.red("- ") + "\(kind) \(Terminal.printable(old.name))"]
        case (let old?, let new?):
            var out = [Terminal.yellow("~ ") + "\(kind) \(Terminal.printable(old.name))"]
            if old.name != new.name { out.append("    name: \(Terminal.printable(old.name)) → \(Terminal.bold(Terminal.printable(new.name)))") }
            let (was, now) = (Terminal.printable(body(old)), Terminal.printable(body(new)))
            if was != now {
                let label = was.prefix { $0 != ":" }
                out.append(was + " → " + Terminal.bold(String(now.dropFirst(label.count + 2))))
            }
            return out
        case (nil, nil): return []
        }
    }
}


