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

    /// What is at the path of a song outside the scanned folders, whose audio was just found
    /// inside them: the caller looks (a `stat` of both paths), the plan stays pure.
    public enum Elsewhere: Sendable {
        /// Nothing: the file was moved from there into the scanned folders.
        case gone
        /// The very file just found, reached by another route (a hard link, a symbolic link).
        case sameFile
        /// Another file with the same audio: what was found is a copy.
        case otherFile
    }

    /// The listed files whose tags must be read; with `reread`, all of them (`import --reread`:
    /// files swapped with equal size and mtime look unchanged, and only reading tells).
    ///
    /// A file is unchanged when the song `songs(at:)` puts first at its path is present with its
    /// size and mtime. Those four columns are read of every song, not whole songs: a rescan
    /// that finds nothing changed compares every file, and materialising 50,000 songs from the
    /// image made it twice MPD's `update` (1.9 s against 0.89 s).
    public static func filesToRead(in basis: DataBasis, listed: [ListedFile], reread: Bool = false) -> [ListedFile] {
        if reread { return listed }
        let first = firstAtEachPath(in: basis, reading: [.missing, .size, .mtime, .start], by: comesFirst)
        return listed.filter { f in
            guard let s = first[PathKey(f.path)] else { return true }
            return s.missing || s.size != f.size || s.mtime != f.mtime
        }
    }

    /// The cover hash of the song `DataBasis.song(atPath:)` gives at each path, for the paths
    /// whose song has one: a rescan asks it of every unchanged file (is its cover still in
    /// `art/`?), so it is read from one column of every song, not from whole songs.
    public static func artByPath(in basis: DataBasis) -> [PathKey: String] {
        firstAtEachPath(in: basis, reading: [.art]) { $0.id < $1.id }.compactMapValues(\.art)
    }

    /// At each path, the song that comes first by `comesFirst`, with only `fields` (and its id
    /// and path) read.
    private static func firstAtEachPath(in basis: DataBasis, reading fields: [SongField],
                                        by comesFirst: (Song, Song) -> Bool) -> [PathKey: Song] {
        var first: [PathKey: Song] = [:]
        first.reserveCapacity(basis.songs.count)
        basis.songs.forEach(reading: fields) { s in
            let key = PathKey(s.path)
            if let held = first[key], !comesFirst(s, held) { return }
            first[key] = s
        }
        return first
    }

    /// The order of `songs(at:)` without a fingerprint or a start asked: present songs first,
    /// then the whole file before its tracks and tracks by where they start, then by id.
    static func comesFirst(_ a: Song, _ b: Song) -> Bool {
        let ka = (a.missing ? 1 : 0, a.start ?? -1), kb = (b.missing ? 1 : 0, b.start ?? -1)
        return ka != kb ? ka < kb : a.id < b.id
    }

    /// - Parameters:
    ///   - roots: the folders that were walked; only songs under them can go missing.
    ///   - listed: every audio file the walk found (read or not).
    ///   - read: facts for the files that `filesToRead` chose and that could be read.
    ///   - unlisted: folders under the roots that could not be listed (unreadable, too deep):
    ///     their songs are not missing, only unseen.
    ///   - now: the import time, recorded as `added` on new songs.
    ///   - elsewhere: asked, for a present song outside the roots whose audio a read file has,
    ///     what is at the song's path now (song path, then the read file's path). A song whose
    ///     file is gone from there was moved into the roots and keeps its id, wherever it lived.
    public static func plan(basis: DataBasis, roots: [String], listed: [ListedFile], read: [FileFacts],
                            unlisted: [String] = [], now: Double, ids: inout some IDSource,
                            elsewhere: (_ songPath: String, _ filePath: String) -> Elsewhere = { _, _ in .otherFile })
        -> (assertions: [Assertion], summary: Summary) {
        let listedPaths = Set(listed.map { PathKey($0.path) })
        let readAt = Dictionary(read.map { (PathKey($0.path), $0) }, uniquingKeysWith: { first, _ in first })
        var summary = Summary()
        var out: [Assertion] = []
        var claimed = Set<SongID>()
        let gone: (Song) -> Bool = { s in
            let key = PathKey(s.path)
            return !listedPaths.contains(key) && key.isUnder(any: roots) && !key.isUnder(any: unlisted)
        }
        // A song whose path now holds other audio, or audio without a fingerprint (files renamed
        // in a chain, 2→3 then 1→2, or swapped): like a gone song, its own audio may be found
        // elsewhere by fingerprint.
        let displaced: (Song) -> Bool = { s in
            guard let mine = s.fingerprint, let there = readAt[PathKey(s.path)] else { return false }
            return there.fingerprint != mine
        }
        // Present songs outside the roots that share audio with a read file: a gone one may
        // have moved in (remembered, as it is missing unless one does).
        var goneOutside = Set<SongID>()
        func outside(_ s: Song, _ f: FileFacts) -> Elsewhere? {
            guard !s.missing, !PathKey(s.path).isUnder(any: roots) else { return nil }
            if goneOutside.contains(s.id) { return .gone }
            let found = elsewhere(s.path, f.path)
            if found == .gone { goneOutside.insert(s.id) }
            return found
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

        // First the files still at their song's path with the same audio; then the same file
        // reached by another route, or audio found at a new path by its fingerprint (moved from
        // anywhere); then by path alone (a re-encode, a fingerprint that appeared or vanished);
        // what is left is new.
        var unmatched: [FileFacts] = []
        for f in read {
            if let old = songs(at: f.path, in: basis, fingerprint: f.fingerprint).first(where: { $0.start == f.start && !claimed.contains($0.id) }),
               old.fingerprint == f.fingerprint {
                if update(old, from: f) { summary.changed += 1 } else { summary.unchanged += 1 }
            } else {
                unmatched.append(f)
            }
        }
        // Renames keep size and mtime, copies seldom keep the mtime: files whose stat equals a
        // candidate's go first, so that of a moved file and a copy of it the moved one wins.
        func isCandidate(_ s: Song, _ f: FileFacts) -> Bool {
            s.missing || gone(s) || displaced(s) || outside(s, f) == .gone
        }
        var leftover: [FileFacts] = []
        for exact in [true, false] {
            var later: [FileFacts] = []
            for f in unmatched {
                let sharing = songsSharingAudio(with: f, in: basis, claimed: claimed)
                if let alias = sharing.first(where: { outside($0, f) == .sameFile }) {
                    // One file, one song, whatever the route: the song keeps the path it has.
                    claimed.insert(alias.id)
                    summary.unchanged += 1
                } else if let old = sharing.first(where: { (!exact || ($0.size == f.size && $0.mtime == f.mtime)) && isCandidate($0, f) }) {
                    _ = update(old, from: f, whereOnly: true)
                    summary.moved += 1
                } else {
                    later.append(f)
                }
            }
            unmatched = later
        }
        leftover = unmatched
        // A file's parts are read in order, so a file that became tracks (a sheet beside it
        // now) gives its song, id, plays, edits and places in playlists, to its first track, and
        // a file whose tracks became one song again (its sheet gone) takes its first track's;
        // the tracks left over are marked missing below, as a gone file's song is.
        for f in leftover {
            if let old = songs(at: f.path, in: basis, fingerprint: f.fingerprint, start: f.start).first(where: { !claimed.contains($0.id) }) {
                if update(old, from: f) { summary.changed += 1 } else { summary.unchanged += 1 }
            } else {
                out.append(.addSong(f.song(id: SongID(ids.next()), added: now)))
                summary.added += 1
            }
        }
        // Unclaimed with a file read at its path: that file went to another song. Every song is
        // asked, so only its path and `missing` are read (whole songs: a tenth of a rescan).
        basis.songs.forEach(reading: [.missing]) { s in
            guard !s.missing, !claimed.contains(s.id),
                  gone(s) || readAt[PathKey(s.path)] != nil || goneOutside.contains(s.id) else { return }
            out.append(.updateSong(s.id, [.missing: FieldChange(old: .bool(false), new: .bool(true))]))
            summary.missing += 1
        }
        summary.unchanged += listed.count - Set(read.map { PathKey($0.path) }).count
        return (out, summary)
    }

    /// The songs filed at a path (by bytes), best first: the one with this audio, then present
    /// ones, then by id. Usually one; a song marked missing keeps its path after another file
    /// took that path.
    /// With `start`, the songs of the same part of the file (a track's start, or the whole
    /// file's nil) come first, then by where they start (the whole file, then the first track).
    static func songs(at path: String, in basis: DataBasis, fingerprint: String?, start: Int?? = .none) -> [Song] {
        guard let ids = basis.paths[PathKey(path)] else { return [] }
        return ids.compactMap { basis.songs[$0] }.sorted { a, b in
            func key(_ s: Song) -> (Int, Int, Int, Int) {
                (start.map { s.start == $0 ? 0 : 1 } ?? 0, fingerprint != nil && s.fingerprint == fingerprint ? 0 : 1,
                 s.missing ? 1 : 0, s.start ?? -1)
            }
            let ka = key(a), kb = key(b)
            return ka != kb ? ka < kb : a.id < b.id
        }
    }

    /// The paths of songs that are tracks of their file, or come from a sheet: their file is
    /// read at every rescan, for its sheet may have changed or gone.
    public static func pathsOfTracks(in basis: DataBasis) -> Set<PathKey> {
        var out = Set<PathKey>()
        basis.songs.forEach(reading: [.start, .sheet]) { s in
            if s.start != nil || s.sheet != nil { out.insert(PathKey(s.path)) }
        }
        return out
    }

    /// Unclaimed songs with the file's audio, best first: those whose file was present at the
    /// last scan before those already missing (of two copies, a renamed file is the one that
    /// was there, not a copy lost long ago), then those with the file's size and mtime (a
    /// rename keeps both, a copy seldom keeps the mtime), then by id.
    private static func songsSharingAudio(with f: FileFacts, in basis: DataBasis, claimed: Set<SongID>) -> [Song] {
        guard let fp = f.fingerprint, let ids = basis.fingerprints[fp] else { return [] }
        func key(_ s: Song) -> (Int, Int) { (s.missing ? 1 : 0, s.size == f.size && s.mtime == f.mtime ? 0 : 1) }
        return ids.compactMap { basis.songs[$0] }.filter { !claimed.contains($0.id) && $0.start == f.start }.sorted { a, b in
            key(a) != key(b) ? key(a) < key(b) : a.id < b.id
        }
    }

    static func isUnder(_ path: String, _ roots: [String]) -> Bool {
        PathKey(path).isUnder(any: roots)
    }
}
