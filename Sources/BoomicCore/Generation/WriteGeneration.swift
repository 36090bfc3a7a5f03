import Foundation

/// What a `write` records in the library once it has written files: the pure half of tag
/// write-back. The files are written above BoomicCore; what the library must then know about
/// them (their new size, mtime and fingerprint, and what each still holds that differs from the
/// library) is decided here, on the latest basis, so the rules are tested without files.
public enum WriteGeneration {
    /// A file a write renamed into place, as the writer saw it.
    public struct WrittenFile: Sendable {
        /// The song as it was when its tags were planned (what the file now holds).
        public var song: Song
        public var stamp: FileStamp
        public var fingerprint: String?
        /// Fields the file still holds differently from `song` (the format could not hold them):
        /// the file's value.
        public var remaining: [SongField: FieldValue]

        public init(song: Song, stamp: FileStamp, fingerprint: String?, remaining: [SongField: FieldValue]) {
            self.song = song
            self.stamp = stamp
            self.fingerprint = fingerprint
            self.remaining = remaining
        }
    }

    /// The assertions recording `written` files and files found already `agreeing` with the
    /// library (a killed write renamed them, or another tagger wrote the same values) on `basis`.
    ///
    /// - Parameter tagFields: the fields a file holds (`TagMap.fields`).
    /// A song moved or removed since it was planned is not the file that was written, and is left
    /// alone. A field committed while the write ran (a `modify` meanwhile) departs from what the
    /// file holds, so the file's value is kept in `fileValues` for the next write and a rescan.
    public static func record(on basis: DataBasis, written: [WrittenFile], agreeing: [(song: Song, stamp: FileStamp)],
                              tagFields: [SongField]) -> [Assertion] {
        let stamps: [Assertion] = agreeing.compactMap { song, stamp in
            guard let old = basis[song.id], old.path.sameBytes(as: song.path),
                  tagFields.allSatisfy({ $0.value(in: old) == $0.value(in: song) }) else { return nil }
            var new = old
            new.size = stamp.size
            new.mtime = stamp.mtime
            new.fileValueMap = [:]
            new.guessed = []
            let p = old.patch(to: new)
            return p.isEmpty ? nil : .updateSong(old.id, p)
        }
        let files: [Assertion] = written.compactMap { w in
            guard let old = basis[w.song.id], old.path.sameBytes(as: w.song.path) else { return nil }
            var new = old
            new.size = w.stamp.size
            new.mtime = w.stamp.mtime
            new.fingerprint = w.fingerprint ?? old.fingerprint
            var held = w.remaining
            for f in tagFields where f.isTag && held[f] == nil && f.value(in: old) != f.value(in: w.song) {
                held[f] = f.value(in: w.song)
            }
            new.fileValueMap = held
            // A value the file now holds is a tag in the file, no longer a guess.
            if !old.guessed.isEmpty { new.guessed = old.guessed.filter { SongField(rawValue: $0).map { held[$0] != nil } ?? false } }
            let p = old.patch(to: new)
            return p.isEmpty ? nil : .updateSong(old.id, p)
        }
        return files + stamps
    }

    /// The assertions recording files a killed write renamed and never recorded: their stamp and
    /// fingerprint, present again, and, where the file differs from the library (an edit made
    /// since), the file's value. `fileValues` per song: the file's value of each differing field.
    public static func recovered(on basis: DataBasis,
                                 files: [(song: SongID, path: String, stamp: FileStamp, fingerprint: String?, fileValues: [SongField: FieldValue])])
        -> [Assertion] {
        files.compactMap { f in
            guard let old = basis[f.song], old.path.sameBytes(as: f.path) else { return nil }
            var new = old
            new.size = f.stamp.size
            new.mtime = f.stamp.mtime
            new.fingerprint = f.fingerprint ?? old.fingerprint
            new.missing = false
            new.fileValueMap = f.fileValues
            let p = old.patch(to: new)
            return p.isEmpty ? nil : .updateSong(old.id, p)
        }
    }

    /// Every size and mtime the log recorded for some songs' files, folded over the log in order:
    /// from their adds and the updates after them. A file whose stamp is one of these was last
    /// written by Boomic (a rollback took the song back past that write), not by someone else.
    public struct RecordedStamps: Sendable {
        public let songs: Set<SongID>
        public private(set) var seen: [SongID: Set<FileStamp>] = [:]
        private var current: [SongID: FileStamp] = [:]

        public init(of songs: Set<SongID>) { self.songs = songs }

        public mutating func add(_ t: Transaction) {
            for a in t.assertions {
                guard let id = a.songID, songs.contains(id) else { continue }
                switch a {
                case .addSong(let s):
                    current[s.id] = FileStamp(of: s)
                case .updateSong(let id, let patch):
                    guard patch[.size] != nil || patch[.mtime] != nil, var stamp = current[id] else { continue }
                    if let size = patch[.size]?.new.int { stamp.size = size }
                    if let mtime = patch[.mtime]?.new.int { stamp.mtime = mtime }
                    current[id] = stamp
                case .deleteSong, .taglist, .playlist, .eqProfile, .annotation:
                    continue
                }
                if let stamp = current[id] { seen[id, default: []].insert(stamp) }
            }
        }
    }
}
