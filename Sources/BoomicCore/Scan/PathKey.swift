import Foundation

/// A path compared the way Linux compares names: byte for byte.
///
/// Swift's `String ==` (and `Set<String>`, `hasPrefix`) treat canonically equivalent strings as
/// equal, so `é` as U+00E9 and as `e` + U+0301 (as a copy from macOS leaves it) would be one
/// path to them, while to the file system they are two files. Wherever a path is a key (the
/// basis's path index, import's matching, M3U matching) it is a `PathKey`.
public struct PathKey: Hashable, Sendable, CustomStringConvertible {
    public let path: String

    public init(_ path: String) { self.path = path }

    public static func == (a: PathKey, b: PathKey) -> Bool { a.path.sameBytes(as: b.path) }

    public func hash(into h: inout Hasher) {
        // One way for every string (withUTF8 makes a rare non-contiguous one contiguous), so
        // equal bytes always hash alike.
        var p = path
        p.withUTF8 { h.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public var description: String { path }

    /// Whether the path is `root` or inside it (by bytes: `/music/cafe\u{301}` is not under
    /// `/music/café`).
    public func isUnder(_ root: String) -> Bool {
        let p = path.utf8, r = root.utf8
        guard p.starts(with: r) else { return false }
        if p.count == r.count || r.last == UInt8(ascii: "/") { return true }
        return p[p.index(p.startIndex, offsetBy: r.count)] == UInt8(ascii: "/")
    }

    public func isUnder(any roots: [String]) -> Bool { roots.contains(where: isUnder) }
}

extension String {
    /// Equal as bytes (UTF-8), not merely canonically equivalent as `==` has it.
    ///
    /// One `memcmp` where both are stored contiguously (native strings are): walking the
    /// `UTF8View`s element by element costs half the time of building the MPD server's columns.
    public func sameBytes(as other: String) -> Bool {
        let contiguous = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in
                a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            }
        }
        if let same = contiguous ?? nil { return same }
        return utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8)
    }
}
