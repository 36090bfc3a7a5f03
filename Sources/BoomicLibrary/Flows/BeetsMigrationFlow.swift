import BoomicCore
import BoomicMedia
import BoomicSystem
import Foundation
import Glibc

/// `boomic migrate beets`: a beets library into the log as one `migrate` transaction.
///
/// Reads beets' database read-only, reads the files no song is at yet as `import` reads them
/// (`MediaScanner.readAll`: tags, audio, fingerprint, cover), stores album covers (`artpath`)
/// in the art store, and commits `BeetsMigration.plan` on the latest basis. beets' music folder
/// is remembered as a music folder, so `import` rescans its songs afterwards.
public enum BeetsMigrationFlow {
    public struct Result: Sendable {
        public var location: BeetsLocation
        public var summary = BeetsMigration.Summary()
        public var seq: Int?
        public var label: String?
        /// Items left out, one line each (no file, unreadable, a path that is not UTF-8).
        public var skipped: [String] = []
        /// Items carried without some of their values: the item's path and the values.
        public var notCarried: [(path: String, values: [String])] = []
    }

    public static func run(_ lib: LibrarySession, location: BeetsLocation, message: String?,
                           events: any LibraryEvents, now: Double = Date().timeIntervalSince1970) throws -> Result {
        let contents = try BeetsLibraryReader.read(location)
        var result = Result(location: location)
        result.skipped = contents.skipped
        for line in contents.skipped { events.warn(line) }

        var st = stat()
        if stat(location.directory, &st) == 0, st.st_mode & S_IFMT == S_IFDIR {
            _ = try lib.addFolders([location.directory])
        }
        let art = try lib.artStore(musicFolders: try lib.folders())
        let basis = lib.basis

        // Files no present song is at are read, as import reads them.
        var entries: [BeetsLibraryReader.Entry] = []
        var toRead: [ListedFile] = []
        for entry in contents.entries {
            let path = entry.record.path
            let songs = basis.paths[PathKey(path)]?.compactMap { basis[$0] } ?? []
            if songs.contains(where: { !$0.missing }) { entries.append(entry); continue }
            if stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG {
                toRead.append(ListedFile(path: path, size: Int(st.st_size),
                                         mtime: Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec)))
                entries.append(entry)
            } else if !songs.isEmpty {
                entries.append(entry)   // its missing song still takes beets' values
            } else {
                let line = "skipped \(path): no file there (beets item \(entry.record.id))"
                result.skipped.append(line)
                events.warn(line)
            }
        }
        let progress = events.progress("Reading tags", total: toRead.count)
        let read = MediaScanner.readAll(toRead, art: art) { n in progress.advance(by: n) }
        progress.finish()
        for failure in read.failures {
            let line = "skipped \(failure.localizedDescription)"
            result.skipped.append(line)
            events.warn(line)
        }
        let facts = Dictionary(read.facts.map { (PathKey($0.path), $0) }, uniquingKeysWith: { a, _ in a })
        let unreadable = Set(read.failures.map(\.path).map(PathKey.init))

        var covers: [String: String?] = [:]
        var items: [BeetsMigration.Item] = []
        for entry in entries {
            let key = PathKey(entry.record.path)
            if unreadable.contains(key) { continue }
            var item = BeetsMigration.Item(record: entry.record, facts: facts[key])
            if let artPath = entry.artPath {
                if covers[artPath] == nil {
                    let hash = art.storeCoverFile(artPath)
                    covers[artPath] = .some(hash)
                    if hash == nil { events.warn("cover \(artPath) not carried: it cannot be read as a picture inside the music folders") }
                }
                // A picture of the song's own (embedded) stays; a folder's cover gives way.
                let own = item.facts?.art ?? basis.song(atPath: entry.record.path)?.art
                if own == nil || own == art.folderCover(in: ImportFlow.folder(of: entry.record.path)) {
                    item.cover = covers[artPath] ?? nil
                }
            }
            items.append(item)
        }

        let committed = try lib.commit(kind: .migrate, message: message) { basis in
            var ids = SystemIDSource()
            let plan = BeetsMigration.plan(basis: basis, items: items, now: now, ids: &ids)
            result.summary = plan.summary
            result.notCarried = plan.notCarried.map { ($0.record.path, $0.values) }
            return plan.assertions.isEmpty ? nil : (plan.assertions, label(plan.summary, location))
        }
        for (path, values) in result.notCarried {
            events.warn("\(path): not carried: \(values.joined(separator: ", "))")
        }
        result.seq = committed?.seq
        result.label = committed?.transaction.label
        return result
    }

    static func label(_ s: BeetsMigration.Summary, _ location: BeetsLocation) -> String {
        var parts: [String] = []
        if s.added > 0 { parts.append("\(s.added) new") }
        if s.updated > 0 { parts.append("\(s.updated) updated") }
        return "migrate beets \(location.database): " + parts.joined(separator: ", ")
    }
}
