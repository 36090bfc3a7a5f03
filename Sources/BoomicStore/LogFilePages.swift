import Foundation

/// What the bytes of a damaged log file still say about the log they held, read without SQLite:
/// how many pages the file should have, and the highest sequence number its surviving pages name.
///
/// SQLite reads a truncated file as far as it goes and reports nothing about what was past its
/// end: a file cut to its first page lists no rows at all, as an empty log would. But the file's
/// header keeps the database's size in pages (offset 28), and the log table's interior pages keep
/// the sequence numbers that divide their children; a child past the end of the file still has
/// its keys named by its parent. So a salvage can tell that transactions are lost, and a lower
/// bound of how far the log reached, where SQLite alone says "nothing is missing".
///
/// Read only when the `-wal` file is empty (a cleanly closed library): pages held in the WAL are
/// not in the file, and then its size says nothing.
struct LogFilePages: Sendable, Equatable {
    /// The pages the file holds whole.
    var present: Int
    /// The pages its header says the database has.
    var expected: Int
    /// The highest seq named by the log table's pages that survive (a row on a leaf, or one past
    /// a divider whose right-hand child is gone), 0 when none names one.
    var highestNamed: Int

    /// Whether the file is shorter than its own header says.
    var isCutShort: Bool { present < expected }

    /// Reads the header and, when the file is cut short or `walking` asks for it, walks the table
    /// b-tree rooted at `root` through the pages that are in the file (a whole file is not read:
    /// SQLite itself reads every row of it). Nil when the file cannot be read or its header is
    /// not SQLite's.
    static func read(path: String, root: Int, walking: Bool) -> LogFilePages? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 100), head.count == 100,
              head.starts(with: Array("SQLite format 3\u{0}".utf8)),
              let size = try? handle.seekToEnd() else { return nil }
        let header = [UInt8](head)
        let rawSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawSize == 1 ? 65_536 : rawSize
        guard pageSize >= 512, pageSize.nonzeroBitCount == 1 else { return nil }
        // The size in the header is SQLite's only when the change counter it was written with
        // (offset 92) is the file's (offset 24); else SQLite takes the file's size, and so do we.
        let sizeIsValid = header[24..<28].elementsEqual(header[92..<96])
        let present = Int(size) / pageSize
        let expected = sizeIsValid ? Int(bigEndian: header, at: 28, width: 4) : present
        var pages = LogFilePages(present: present, expected: max(expected, present), highestNamed: 0)
        guard root > 0, walking || pages.isCutShort,
              (try? handle.seek(toOffset: 0)) != nil, let data = try? handle.readToEnd() else { return pages }
        var walk = Walk(bytes: [UInt8](data), pageSize: pageSize)
        pages.highestNamed = walk.highestKey(page: root, depth: 0) ?? 0
        return pages
    }

    /// A walk of a table b-tree over the bytes in the file, tolerating pages that are gone or
    /// garbled (a page visited twice or a tree deeper than SQLite builds ends the walk there).
    private struct Walk {
        let bytes: [UInt8]
        let pageSize: Int
        var visited: Set<Int> = []

        /// The highest key the subtree at `page` is known to hold; nil when nothing of it is readable.
        mutating func highestKey(page: Int, depth: Int) -> Int? {
            guard depth < 32, page >= 1, page * pageSize <= bytes.count, visited.insert(page).inserted else { return nil }
            let start = (page - 1) * pageSize
            let header = start + (page == 1 ? 100 : 0)
            let type = bytes[header]
            let cells = Int(bigEndian: bytes, at: header + 3, width: 2)
            switch type {
            case 0x0D: // a leaf of a table: each cell is the payload's length, then the rowid
                var highest: Int?
                for i in 0..<cells {
                    guard let at = cellOffset(start, header + 8, i),
                          let (_, next) = varint(at), let (key, _) = varint(next) else { continue }
                    highest = max(highest ?? key, key)
                }
                return highest
            case 0x05: // an interior page: each cell is a child, then the highest key in it
                var highest: Int?
                for i in 0..<cells {
                    guard let at = cellOffset(start, header + 12, i), at + 4 <= start + pageSize,
                          let (key, _) = varint(at + 4) else { continue }
                    let child = Int(bigEndian: bytes, at: at, width: 4)
                    highest = max(highest ?? key, highestKey(page: child, depth: depth + 1) ?? key)
                }
                let right = Int(bigEndian: bytes, at: header + 8, width: 4)
                if let inRight = highestKey(page: right, depth: depth + 1) { return max(highest ?? inRight, inRight) }
                // The right-hand child holds at least one key above every divider.
                return highest.map { $0 + 1 }
            default:
                return nil
            }
        }

        /// The offset of cell `i` of the page starting at `start`, its pointer array at `array`.
        func cellOffset(_ start: Int, _ array: Int, _ i: Int) -> Int? {
            let pointer = array + 2 * i
            guard pointer + 2 <= start + pageSize else { return nil }
            let offset = Int(bigEndian: bytes, at: pointer, width: 2)
            guard offset > 0, offset < pageSize else { return nil }
            return start + offset
        }

        /// SQLite's big-endian varint at `at`: its value and the offset after it.
        func varint(_ at: Int) -> (Int, Int)? {
            var value: UInt64 = 0
            for i in 0..<9 {
                guard at + i < bytes.count else { return nil }
                let b = bytes[at + i]
                if i == 8 { return (Int(truncatingIfNeeded: value << 8 | UInt64(b)), at + 9) }
                value = value << 7 | UInt64(b & 0x7F)
                if b < 0x80 { return (Int(truncatingIfNeeded: value), at + i + 1) }
            }
            return nil
        }
    }
}

private extension Int {
    /// The unsigned big-endian integer of `width` bytes at `at`.
    init(bigEndian bytes: [UInt8], at: Int, width: Int) {
        self = bytes[at..<(at + width)].reduce(0) { $0 << 8 | Int($1) }
    }
}
