/// The generation function for `import`: first import and incremental rescan in one.
///
/// Two pure steps around the I/O: `filesToRead` picks the listed files whose tags must be read
/// (new, changed on disk, or coming back after being missing); `plan` turns what was read into
/// assertions: new songs, changed songs, moved songs (matched by fingerprint, keeping id,
/// history and library-only fields) and songs whose file is gone (marked missing, not deleted).
public enum ImportGeneration {
    public struct Summary: Equatable, Sendable {
        public var added = 0, changed = 0, moved = 0, missing = 0, unchanged = 0, unreadable = 0
        public init() {}
        public var isEmpty: Bool { added + changed + moved + missing == 0 }
    }

    public static func filesToRead(in basis: DataBasis, listed: [ListedFile]) -> [ListedFile] {
        listed.filter { f in
            guard let s = basis.song(atPath: f.path) else { return true }
            return s.missing || s.size != f.size || s.mtime != f.mtime
        }
    }

    /// - Parameters:
    ///   - roots: the folders that were walked; only songs under them can go missing.
    ///   - listed: every audio file the walk found (read or not).
    ///   - read: facts for the files that `filesToRead` chose and that could be read.
    ///   - now: the import time, recorded as `added` on new songs.
    public static func plan(basis: DataBasis, roots: [String], listed: [ListedFile], read: [FileFacts],
                            now: Double, ids: inout some IDSource) -> (assertions: [Assertion], summary: Summary) {
        let listedPaths = Set(listed.map(\.path))
        var summary = Summary()
        var out: [Assertion] = []
        var claimed = Set<SongID>()
        let gone: (Song) -> Bool = { s in !listedPaths.contains(s.path) && isUnder(s.path, roots) }

        for f in read {
            if let old = basis.song(atPath: f.path) {
                claimed.insert(old.id)
                var new = old
                f.apply(to: &new)
                let p = old.patch(to: new)
                if !p.isEmpty { out.append(.updateSong(old.id, p)); summary.changed += 1 } else { summary.unchanged += 1 }
            } else if let old = movedSong(for: f, in: basis, claimed: claimed, isGone: gone) {
                claimed.insert(old.id)
                var new = old
                f.apply(to: &new)
                out.append(.updateSong(old.id, old.patch(to: new)))
                summary.moved += 1
            } else {
                out.append(.addSong(f.song(id: SongID(ids.next()), added: now)))
                summary.added += 1
            }
        }
        for (id, s) in basis.songs where !s.missing && !claimed.contains(id) && gone(s) {
            out.append(.updateSong(id, [.missing: FieldChange(old: .bool(false), new: .bool(true))]))
            summary.missing += 1
        }
        summary.unchanged += listed.count - read.count
        return (out, summary)
    }

    private static func movedSong(for f: FileFacts, in basis: DataBasis, claimed: Set<SongID>,
                                  isGone: (Song) -> Bool) -> Song? {
        guard let fp = f.fingerprint, let ids = basis.fingerprints[fp] else { return nil }
        return ids.sorted().lazy.compactMap { basis.songs[$0] }
            .first { !claimed.contains($0.id) && ($0.missing || isGone($0)) }
    }

    static func isUnder(_ path: String, _ roots: [String]) -> Bool {
        roots.contains { root in
            let r = root.hasSuffix("/") ? root : root + "/"
            return path.hasPrefix(r) || path == root
        }
    }
}
