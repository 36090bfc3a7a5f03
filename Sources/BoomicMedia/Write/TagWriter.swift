import BoomicCore
import BoomicSystem
import Glibc

/// Writes the library's tags and front cover back into a song's file, safely (DESIGN §1).
///
/// The file is never written in place. The writer copies it to a hidden file in the same folder,
/// writes the tags into the copy through TagLib, reads the copy back, checks that its audio bytes
/// equal the original's (`AudioComparison`, plus the fingerprint the library records), gives it
/// the original's owner, group and mode, flushes it to disk, renames it over the original and
/// flushes the folder. A crash at any moment leaves the old file or the new one, never a mix; a
/// failed check deletes the copy and leaves the file as it was.
///
/// Only fields that read differently from the library are touched (`TagMap.changes`); keys
/// Boomic does not know stay as they are. A file whose size or mtime is not what the library
/// recorded changed on disk since it was scanned, and is refused unless the caller accepts that
/// stamp or forces; a read-only file or folder is refused with a one-line `MediaError`.
///
/// ```swift
/// let writer = TagWriter(art: try ArtStore(directory: library + "/art"))
/// let outcome = try writer.write(song)   // record outcome.stamp and outcome.fingerprint
/// for field in outcome.unheld { … }      // what the format could not hold
/// ```
public struct TagWriter: Sendable {
    public let art: ArtStore

    public init(art: ArtStore) {
        self.art = art
    }

    /// What writing a song would change in its file, found without changing anything.
    public struct Plan: Sendable {
        public var song: Song
        /// The file as it is now.
        public var stamp: FileStamp
        /// Where the file reads differently from the library, in `TagMap.fields` order; empty
        /// when there is nothing to write.
        public var differences: [TagDifference]
        /// The file's size or mtime is not what the library recorded for it.
        public var isChangedOnDisk: Bool { stamp != FileStamp(of: song) }
        /// Where the file holds neither the library's value nor the one the library remembers
        /// the file had before an edit (`Song.fileValueMap`): someone else changed the tags and
        /// kept the file's size and time (as taggers' "preserve file time" options do), or the
        /// library was read by a Boomic that did not yet read that tag. Writing would lose it.
        public var unexpected: [TagDifference] {
            let remembered = song.fileValueMap
            return differences.filter { $0.file != (remembered[$0.field] ?? $0.library) }
        }
    }

    /// What a write did.
    public struct Outcome: Sendable {
        public var song: Song
        /// The file after writing (unchanged when nothing was written): record it on the song so
        /// that a rescan sees the file unchanged.
        public var stamp: FileStamp
        public var fingerprint: String?
        /// The fields written (as the file read before); empty when the file already agreed.
        public var written: [TagDifference]
        /// Fields the format could not hold: what the file reads back as instead.
        public var unheld: [TagDifference]
        /// Every field where the written file still reads differently from the song: `unheld`
        /// plus what a note explains (a cover missing from the art store, a date the year
        /// overrode). Empty when the file now reads exactly as the library.
        public var remaining: [TagDifference]
        /// Anything else worth telling (hard links that keep the old tags, …); each reads as one
        /// line, and callers decide on the case, never on the words.
        public var notes: [Note]

        public var didWrite: Bool { !written.isEmpty }
    }

    /// Something a write did that the user should know, besides the fields it wrote.
    public enum Note: Hashable, Sendable, CustomStringConvertible {
        /// The song's cover is not in the art store (deleted by hand?), so the file's cover was
        /// left as it was; `hash` is the one the library records.
        case missingCover(hash: String)
        /// One DATE key holds both year and date; they disagreed (the year was edited, the date
        /// not), so only the year was written and the file lost its full date.
        case dateOverriddenByYear(date: String, year: Int)
        /// The file had other hard links: they are other names of the old file, which the
        /// rename left as it was.
        case otherHardLinks(count: Int)

        public var description: String {
            switch self {
            case .missingCover(let hash):
                return "the library's cover is no longer in its art store (\(hash)); its cover was left as it was"
            case let .dateOverriddenByYear(date, year):
                return "its date \(date) disagrees with its year \(year), so only the year was written"
            case .otherHardLinks(let count):
                return "its \(count) other hard link\(count == 1 ? "" : "s") still hold\(count == 1 ? "s" : "") the old tags"
            }
        }

        /// Whether the note explains why the file's cover still differs from the library's.
        var explainsCover: Bool {
            if case .missingCover = self { return true }
            return false
        }
    }

    /// A write refused for want of room (a full disk, a file size limit): said once, in these
    /// words, whichever step noticed it.
    private struct NoRoom: Error {
        var reason: String
    }

    /// Reads the file and compares it with the song. Throws when the file cannot be read, or
    /// when it differs but is read-only.
    public func plan(_ song: Song) throws(MediaError) -> Plan {
        let (real, st) = try Self.target(of: song.path)
        let differences = try inspect(song, real: real).differences
        if !differences.isEmpty { try Self.checkWritable(song.path, real: real, st) }
        return Plan(song: song, stamp: Self.stamp(st), differences: differences)
    }

    /// What a file holds now: enough to tell Boomic's own interrupted write (`WriteJournal`)
    /// from a foreign change, and to record it as a finished write would have.
    public struct Reading: Sendable {
        public var stamp: FileStamp
        public var fingerprint: String?
        public var tags: [String: [String]]
        /// The cover a scan would record.
        public var art: String?

        /// Where the file reads differently from `song`.
        public func differences(from song: Song) -> [TagDifference] {
            TagMap.differences(between: song, fileTags: tags, fileArt: art)
        }
    }

    /// Reads the file at `path` without changing it.
    public func read(_ path: String) throws(MediaError) -> Reading {
        let (real, st) = try Self.target(of: path)
        let file: TagFile
        do {
            file = try TagFile(path: real)
        } catch {
            throw Self.naming(error, path)
        }
        return Reading(stamp: Self.stamp(st), fingerprint: Fingerprint.of(file), tags: file.properties(),
                       art: fileArt(of: file, real: real))
    }

    /// Writes the song's tags and cover into its file, if they differ.
    ///
    /// - Parameters:
    ///   - accepting: stamps besides the song's own under which the file counts as unchanged
    ///     (states the library recorded earlier, e.g. before a rollback).
    ///   - force: write even if the file changed on disk since it was scanned.
    ///   - journal: where the copy's stamp and fingerprint are noted, flushed, before the rename,
    ///     so that a run killed before recording the write can be told from a foreign change.
    public func write(_ song: Song, accepting: Set<FileStamp> = [], force: Bool = false,
                      journal: WriteJournal? = nil) throws(MediaError) -> Outcome {
        let path = song.path
        let (real, st) = try Self.target(of: path)
        let before = Self.stamp(st)
        let (original, differences) = try inspect(song, real: real)
        guard !differences.isEmpty else {
            return Outcome(song: song, stamp: before, fingerprint: Fingerprint.of(original), written: [],
                           unheld: [], remaining: [], notes: [])
        }
        guard force || before == FileStamp(of: song) || accepting.contains(before) else {
            throw .unwritable(path: path, reason: "changed on disk since it was last scanned (\(before), the library recorded \(FileStamp(of: song)))")
        }
        try Self.checkWritable(path, real: real, st)
        Self.removeStaleCopies(of: real)

        let source: FileDescriptor
        do {
            source = try FileDescriptor.openRegular(real)
        } catch {
            throw .unreadable(path: path, reason: "cannot open the file (\(error.reason))")
        }
        guard let sst = try? source.status(), sst.st_ino == st.st_ino, sst.st_dev == st.st_dev, Self.stamp(sst) == before else {
            throw .unwritable(path: path, reason: "changed while its tags were being written; left as it was")
        }
        let temp = Self.tempPath(for: real)
        let copy = try Self.copy(from: source, to: temp, for: path)

        var notes: [Note] = []
        let unheld: [TagDifference]
        let remaining: [TagDifference]
        let fingerprint: String?
        let after: FileStamp
        do {
            var applied = try apply(song, differences: differences, to: temp, path: path, original: original, copy: copy,
                                    source: source, inPlace: true)
            var written = try TagFile(path: temp)
            var back = TagMap.differences(between: song, fileTags: written.properties(), fileArt: fileArt(of: written, real: real))
            // What a write cannot help leaving: one DATE key holds both year and date, and when
            // they disagree (year edited, date not) the year wins.
            var dateYields = false
            if let date = song.date, let year = song.year { dateYields = TagValue.yearAndDate(date).year != year }
            if applied.keptLayout, back.contains(where: { !(dateYields && $0.field == .date) }) {
                // The tags as edited in place do not read back as the library: start the copy
                // again and write it through TagLib, which renders them whole.
                try Self.copyAgain(from: source, into: copy, for: path)
                applied = try apply(song, differences: differences, to: temp, path: path, original: original, copy: copy,
                                    source: source, inPlace: false)
                written = try TagFile(path: temp)
                back = TagMap.differences(between: song, fileTags: written.properties(), fileArt: fileArt(of: written, real: real))
            }
            notes += applied.notes
            remaining = back
            if notes.contains(where: \.explainsCover) { back.removeAll { $0.field == .art } }
            if let date = song.date, let year = song.year, back.contains(where: { $0.field == .date }), dateYields {
                back.removeAll { $0.field == .date }
                notes.append(.dateOverriddenByYear(date: date, year: year))
            }
            unheld = back
            // TagLib's save fails silently when the disk fills or a file size limit is reached.
            // A WAV's or AIFF's tags come after its audio, so a copy cut short keeps the audio
            // and only reads as a file whose tags are gone: never taken for a format that
            // cannot hold them.
            let riff = original.format == .wav || original.format == .aiff
            if let damage = (riff ? Self.cutShort(temp, original: real) : nil) ?? Self.lostFields(back, before: differences) {
                if let room = Self.noRoom(in: temp, needing: Int64(st.st_size) + 65_536) { throw NoRoom(reason: room) }
                throw MediaError.unwritable(path: path, reason: "the rewritten copy is damaged (\(damage)); left as it was")
            }
            if let problem = AudioComparison.difference(original, written) {
                // TagLib's save fails silently when the disk fills; a copy cut short then looks
                // like changed audio. Say what really happened when it is that.
                if let room = Self.noRoom(in: temp, needing: Int64(st.st_size) + 65_536) {
                    throw NoRoom(reason: room)
                }
                throw MediaError.unwritable(path: path, reason: "writing the tags would change the audio (\(problem)); left as it was")
            }
            fingerprint = Fingerprint.of(written)
            guard fingerprint == Fingerprint.of(original) else {
                throw MediaError.unwritable(path: path, reason: "writing the tags would change the audio fingerprint; left as it was")
            }
            try Self.keepOwnership(copy, like: st, for: path)
            try Self.keepExtendedAttributes(of: real, on: copy, for: path)
            try Self.sync(copy, for: path)
            let tst: stat
            do {
                tst = try copy.status()
            } catch {
                throw MediaError.unwritable(path: path, reason: "cannot stat the rewritten copy (\(error.reason))")
            }
            after = Self.stamp(tst)
            guard let now = try? SystemCall.status(of: real), now.st_ino == st.st_ino, Self.stamp(now) == before else {
                throw MediaError.unwritable(path: path, reason: "changed while its tags were being written; left as it was")
            }
            try journal?.append(.init(song: song.id, path: path, stamp: after, fingerprint: fingerprint))
            CrashPoint.journaled.reached()
        } catch {
            // TagLib's save fails silently when the disk fills, and the copy cut short then fails
            // to reopen or reads as changed audio: say what really happened (while the copy still
            // takes its room, so the check sees the disk as the save did).
            let room = (error as? NoRoom)?.reason ?? Self.noRoom(in: temp, needing: Int64(st.st_size) + 65_536)
            Self.discard(copy, temp)
            if let room { throw MediaError.unwritable(path: path, reason: "\(room); left as it was") }
            throw Self.naming(error, path)
        }
        do {
            try Self.close(copy, for: path)
            try Self.replace(real, with: temp, for: path)
        } catch {
            try? SystemCall.unlink(temp)
            throw error
        }
        CrashPoint.renamed.reached()
        if st.st_nlink > 1 {
            notes.append(.otherHardLinks(count: Int(st.st_nlink) - 1))
        }
        return Outcome(song: song, stamp: after, fingerprint: fingerprint, written: differences,
                       unheld: unheld, remaining: remaining, notes: notes)
    }

    // MARK: - Steps

    /// The file opened read-only and where it reads differently from the song.
    private func inspect(_ song: Song, real: String) throws(MediaError) -> (file: TagFile, differences: [TagDifference]) {
        let file: TagFile
        do {
            file = try TagFile(path: real)
        } catch {
            throw Self.naming(error, song.path)
        }
        let differences = TagMap.differences(between: song, fileTags: file.properties(),
                                             fileArt: fileArt(of: file, real: real))
        return (file, differences)
    }

    /// Writes the key changes and the cover into the copy at `temp` (open as `copy`, made from
    /// `source`, which TagLib reads as `original`). With `inPlace`, Vorbis comments (FLAC, Ogg
    /// Vorbis, Opus) are edited as the file has them (`writeFLACComments`, `writeOggComments`)
    /// (the cover too), and an MP3's untouched ID3v2 frames keep their bytes (the shim's
    /// splice); `keptLayout` says whether either may have been done.
    private func apply(_ song: Song, differences: [TagDifference], to temp: String, path: String, original: TagFile,
                       copy: FileDescriptor, source: FileDescriptor,
                       inPlace: Bool) throws(MediaError) -> (notes: [Note], keptLayout: Bool) {
        // The new cover, read from the art store once for whichever path writes it.
        let coverChanges = differences.contains { $0.field == .art }
        let newCover: (bytes: [UInt8], mime: String)? = coverChanges ? song.art.flatMap { hash in
            art.path(forHash: hash).flatMap { stored in
                ArtStore.readFile(stored, limit: ArtStore.maxCoverFileSize).flatMap { $0.isEmpty ? nil : ($0, Self.mime(ofStored: stored)) }
            }
        } : nil
        // What to do with the cover; nil when it is gone from the art store, which TagLib's
        // path below tells (`missingCover`).
        let cover: CoverEdit? = !coverChanges ? .keep : song.art == nil ? .remove
            : newCover.map { .replace(FLACMetadata.picture($0.bytes, mime: $0.mime)) }
        if original.format == .flac, inPlace, let cover {
            if try Self.writeFLACComments(song, original: original, cover: cover, copy: copy, source: source, for: path) {
                return ([], true)
            }
        }
        let file = try TagFile(path: temp, writable: true)
        if let format = file.format, format == .ogg || format == .opus, inPlace, let cover {
            let changes = TagMap.changes(from: file.properties(), to: song, format: format)
            if try Self.writeOggComments(changes, cover: cover, into: file) { return ([], true) }
        }
        guard let format = file.format else {
            throw .unwritable(path: path, reason: "Boomic does not know how to write this format's tags")
        }
        if !inPlace { file.renderWhole() }
        var notes: [Note] = []
        for (key, values) in TagMap.changes(from: file.properties(), to: song, format: format).sorted(by: { $0.key < $1.key }) {
            file.setProperty(key, values) // a refusal shows up in the read-back
        }
        if coverChanges {
            if let hash = song.art {
                if let newCover {
                    file.setFrontCover(newCover.bytes, mime: newCover.mime)
                } else {
                    notes.append(.missingCover(hash: hash))
                }
            } else {
                file.setFrontCover([], mime: "")
            }
        }
        try file.save()
        return (notes, inPlace && format == .mp3)
    }

    /// Why the copy at `temp` is cut short, when it is a RIFF (WAV) or FORM (AIFF) file whose
    /// header says more than it holds while the original's header was right.
    static func cutShort(_ temp: String, original: String) -> String? {
        func sizes(_ path: String) -> (said: Int, length: Int)? {
            guard let fd = try? FileDescriptor.openRegular(path), let st = try? fd.status() else { return nil }
            guard let header = try? fd.read(count: 12, at: 0), header.count == 12 else { return nil }
            let id = String(decoding: header[0..<4], as: UTF8.self)
            let size: Int
            switch id {
            case "RIFF": size = header[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
            case "FORM": size = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
            default: return nil
            }
            return (size + 8, Int(st.st_size))
        }
        guard let copy = sizes(temp), copy.length < copy.said, let before = sizes(original), before.length >= before.said else {
            return nil
        }
        return "\(copy.length) bytes where its header says \(copy.said)"
    }

    /// Fields the write left alone (the file held the library's value) that the copy reads as
    /// nothing: tags lost on the way (a save cut short), not a format that cannot hold them,
    /// which shows only on a field written. The cover aside: a picture gone from the art store
    /// leaves it so on purpose.
    static func lostFields(_ back: [TagDifference], before: [TagDifference]) -> String? {
        let written = Set(before.map(\.field))
        let lost = back.filter { d in
            d.field != .art && !written.contains(d.field) && Self.isNothing(d.file) && !Self.isNothing(d.library)
        }
        guard !lost.isEmpty else { return nil }
        return "it lost its " + lost.map(\.field.name).joined(separator: ", ")
    }

    private static func isNothing(_ value: FieldValue) -> Bool {
        switch value {
        case .null, .strings([]), .string(""): true
        default: false
        }
    }

    /// The cover a scan would record: the embedded front cover (else the first picture), else the
    /// cover file in the folder.
    private func fileArt(of file: TagFile, real: String) -> String? {
        let pictures = file.pictures().filter { $0.size > 0 }
        if let chosen = pictures.first(where: { $0.type == PictureInfo.frontCoverType }) ?? pictures.first,
           let hash = file.withPictureBytes(at: chosen.index, { XXH64.hex($0) }) {
            return hash
        }
        return art.folderCover(in: MediaScanner.folder(of: real))
    }

    static func mime(ofStored path: String) -> String {
        switch MediaScanner.fileExtension(of: path) {
        case "jpg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "bmp": return "image/bmp"
        case "webp": return "image/webp"
        default: return "application/octet-stream"
        }
    }

    /// The error as the user should read it: about their file, not the hidden copy.
    static func naming(_ error: any Error, _ path: String) -> MediaError {
        switch error as? MediaError {
        case .unreadable(_, let reason)?: return .unreadable(path: path, reason: reason)
        case .unwritable(_, let reason)?: return .unwritable(path: path, reason: reason)
        case .unreadableFolder(_, let reason)?: return .unwritable(path: path, reason: reason)
        case nil: return .unwritable(path: path, reason: "\(error)")
        }
    }

    /// Why a file of `needed` bytes cannot be written at `path`, if it is for lack of room:
    /// the file system is (nearly) full, or the process has a file size limit below it.
    static func noRoom(in path: String, needing needed: Int64) -> String? {
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max, Int64(limit.rlim_cur) < needed {
            return "the file size limit (ulimit -f) is smaller than the file with its new tags"
        }
        var fs = statvfs()
        if statvfs(path, &fs) == 0, Int64(fs.f_bavail) * Int64(fs.f_frsize) < needed {
            return "no space left on the disk for a copy of the file"
        }
        return nil
    }
}
