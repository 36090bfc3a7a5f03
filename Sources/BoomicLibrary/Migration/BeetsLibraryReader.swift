import BoomicCore
import BoomicStore
import Foundation

/// Reads a beets library database, read-only (`ReadOnlyDatabase`: beets may be running), into
/// `BeetsRecord`s: every item with its album's row and both tables of flexible attributes.
///
/// Paths are bytes in beets: absolute in beets 1.6, relative to `directory` in beets 2.x (an
/// absolute one there lies outside it). Boomic keeps paths as text, so an item whose path is
/// not UTF-8 is skipped with a line saying so.
public enum BeetsLibraryReader {
    public struct Entry: Sendable {
        public var record: BeetsRecord
        /// The album's cover file (`artpath`), absolute.
        public var artPath: String?
    }

    public struct Contents: Sendable {
        public var entries: [Entry] = []
        /// Items that cannot be carried, one line each (a path that is not UTF-8).
        public var skipped: [String] = []
    }

    public static func read(_ location: BeetsLocation) throws -> Contents {
        let db: ReadOnlyDatabase
        do {
            db = try ReadOnlyDatabase(path: location.database)
        } catch {
            if error == .notADatabase(path: location.database) {
                throw LibraryError("\(location.database) is not a beets library: it is not an SQLite database")
            }
            throw error
        }
        let tables = try db.tableNames()
        guard tables.contains("items"), tables.contains("albums") else {
            throw LibraryError("\(location.database) is not a beets library: it has no \(tables.contains("items") ? "albums" : "items") table")
        }
        var albums: [Int: [String: BeetsValue]] = [:]
        try db.forEachRow("SELECT * FROM albums") { row in
            let fields = Self.fields(row)
            if let id = fields["id"]?.int { albums[id] = fields }
        }
        let itemFlex = tables.contains("item_attributes") ? try flexibleAttributes(db, "item_attributes") : [:]
        let albumFlex = tables.contains("album_attributes") ? try flexibleAttributes(db, "album_attributes") : [:]
        var contents = Contents()
        var items: [[String: BeetsValue]] = []
        try db.forEachRow("SELECT * FROM items ORDER BY id") { items.append(Self.fields($0)) }
        for fields in items {
            let id = fields["id"]?.int ?? 0
            guard let path = resolve(fields["path"], directory: location.directory) else {
                contents.skipped.append("skipped beets item \(id): its path \(shown(fields["path"])) is not UTF-8, and Boomic keeps paths as text; rename it to UTF-8 (convmv -f latin1 -t utf-8 --notest FILE) and run 'beet update'")
                continue
            }
            let albumID = fields["album_id"]?.int
            let album = albumID.flatMap { albums[$0] } ?? [:]
            let record = BeetsRecord(id: id, path: path, item: fields, flex: itemFlex[id] ?? [:], album: album,
                                     albumFlex: albumID.flatMap { albumFlex[$0] } ?? [:])
            contents.entries.append(Entry(record: record, artPath: resolve(album["artpath"], directory: location.directory)))
        }
        return contents
    }

    private static func fields(_ row: [ReadOnlyDatabase.Column]) -> [String: BeetsValue] {
        var out: [String: BeetsValue] = [:]
        for c in row {
            out[c.name] = switch c.value {
            case .null: .null
            case .int(let i): .int(i)
            case .real(let d): .real(d)
            case .text(let s): .text(s)
            case .blob(let b): .blob(b)
            }
        }
        return out
    }

    /// Flexible attributes by entity id, then name; values as text.
    private static func flexibleAttributes(_ db: ReadOnlyDatabase, _ table: String) throws -> [Int: [String: String]] {
        var out: [Int: [String: String]] = [:]
        try db.forEachRow("SELECT entity_id, key, value FROM \(table) ORDER BY id") { row in
            let values = fields(row)
            guard let id = values["entity_id"]?.int, let key = values["key"]?.text else { return }
            out[id, default: [:]][key] = values["value"]?.text ?? ""
        }
        return out
    }

    /// A stored path made absolute; nil when it is empty or not UTF-8.
    static func resolve(_ stored: BeetsValue?, directory: String) -> String? {
        let bytes: [UInt8]
        switch stored {
        case .blob(let b): bytes = b
        case .text(let s): bytes = Array(s.utf8)
        default: return nil
        }
        guard !bytes.isEmpty, let path = String(validating: bytes, as: UTF8.self) else { return nil }
        return path.hasPrefix("/") ? path : directory + "/" + path
    }

    /// A path's bytes for a message: UTF-8 as it is, other bytes as `\xNN`.
    private static func shown(_ stored: BeetsValue?) -> String {
        guard case .blob(let bytes)? = stored else { return "?" }
        return bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
    }
}
