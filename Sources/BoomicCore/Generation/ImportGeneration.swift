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
            guard let s = songs(at: f.path, in: basis, fingerprint: nil).first else { return true }
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
        let readAt = Dictionary(read.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var summary = Summary()
        var out: [Assertion] = []
        var claimed = Set<SongID>()
        let gone: (Song) -> Bool = { s in !listedPaths.contains(s.path) && isUnder(s.path, roots) }
        // A song whose path now holds other audio, or audio without a fingerprint (files renamed
        // in a chain, 2→3 then 1→2, or swapped): like a gone song, its own audio may be found
        // elsewhere by fingerprint.
        let displaced: (Song) -> Bool = { s in
            guard let mine = s.fingerprint, let there = readAt[s.path] else { return false }
            return there.fingerprint != mine
        }
        func update(_ old: Song, from f: FileFacts, whereOnly moved: Bool = false) -> Bool {
            claimed.insert(old.id)
            var new = old
            if moved && f.size == old.size && f.mtime == old.mtime {
                // Only renamed (mv keeps size and mtime): nothing in the file changed, so the
                // library's values, edits included, stay; only where it lives is news.
                new.path = f.path
                new.missing = false
            } else {
                new.merge(fileFacts: f)
            }
            let p = old.patch(to: new)
            if !p.isEmpty { out.append(.updateSong(old.id, p)) }
            return !p.isEmpty
        }

        // First the files still at their song's path with the same audio; then audio found at a
        // new path by its fingerprint; then by path alone (a re-encode, a fingerprint that
        // appeared or vanished); what is left is new.
        var unmatched: [FileFacts] = []
        for f in read {
            if let old = songs(at: f.path, in: basis, fingerprint: f.fingerprint).first, old.fingerprint == f.fingerprint {
                if update(old, from: f) { summary.changed += 1 } else { summary.unchanged += 1 }
            } else {
                unmatched.append(f)
            }
        }
        var leftover: [FileFacts] = []
        for f in unmatched {
            if let old = movedSong(for: f, in: basis, claimed: claimed, isCandidate: { $0.missing || gone($0) || displaced($0) }) {
                _ = update(old, from: f, whereOnly: true)
                summary.moved += 1
            } else {
                leftover.append(f)
            }
        }
        for f in leftover {
            if let old = songs(at: f.path, in: basis, fingerprint: f.fingerprint).first(where: { !claimed.contains($0.id) }) {
                if update(old, from: f) { summary.changed += 1 } else { summary.unchanged += 1 }
            } else {
                out.append(.addSong(f.song(id: SongID(ids.next()), added: now)))
                summary.added += 1
            }
        }
        // Unclaimed with a file read at its path: that file went to another song.
        for (id, s) in basis.songs where !s.missing && !claimed.contains(id) && (gone(s) || readAt[s.path] != nil) {
            out.append(.updateSong(id, [.missing: FieldChange(old: .bool(false), new: .bool(true))]))
            summary.missing += 1
        }
        summary.unchanged += listed.count - read.count
        return (out, summary)
    }

    /// The songs filed at a path, best first: the one with this audio, then present ones, then by
    /// id. Usually one; a song marked missing keeps its path after another file took that path.
    static func songs(at path: String, in basis: DataBasis, fingerprint: String?) -> [Song] {
        guard let ids = basis.paths[path] else { return [] }
        return ids.compactMap { basis.songs[$0] }.sorted { a, b in
            let ka = (fingerprint != nil && a.fingerprint == fingerprint ? 0 : 1, a.missing ? 1 : 0)
            let kb = (fingerprint != nil && b.fingerprint == fingerprint ? 0 : 1, b.missing ? 1 : 0)
            return ka != kb ? ka < kb : a.id < b.id
        }
    }

    private static func movedSong(for f: FileFacts, in basis: DataBasis, claimed: Set<SongID>,
                                  isCandidate: (Song) -> Bool) -> Song? {
        guard let fp = f.fingerprint, let ids = basis.fingerprints[fp] else { return nil }
        return ids.sorted().lazy.compactMap { basis.songs[$0] }
            .first { !claimed.contains($0.id) && isCandidate($0) }
    }

    static func isUnder(_ path: String, _ roots: [String]) -> Bool {
        roots.contains { root in
            let r = root.hasSuffix("/") ? root : root + "/"
            return path.hasPrefix(r) || path == root
        }
    }
}
