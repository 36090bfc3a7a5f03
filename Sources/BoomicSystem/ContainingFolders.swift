/// Folders a file must lie in to be read, as the file system resolves them.
///
/// Each folder is kept as its real path (`SystemCall.realPath`: a music folder may be a link to
/// a NAS), resolved once when the value is made; a file is inside when its own real path is one
/// of them or lies below one. A folder that does not resolve (gone, unreadable) contains nothing.
///
/// ```swift
/// let music = ContainingFolders(["/home/u/Music"])
/// music.contains(real: "/home/u/Music/Album/cover.jpg")   // true
/// music.contains(real: "/etc/shadow")                      // false
/// ```
public struct ContainingFolders: Hashable, Sendable {
    /// The folders' real paths, each without a trailing slash (but `/` itself).
    public let realPaths: [String]

    public init(_ folders: [String]) {
        realPaths = folders.compactMap(SystemCall.realPath)
    }

    /// Whether `real`, a real path (no link, `.` or `..` in it), is one of the folders or lies
    /// inside one. Compared byte by byte, as the file system compares names: `Café` composed
    /// and decomposed are two folders there, though Swift's `==` calls them equal.
    public func contains(real: String) -> Bool {
        realPaths.contains { folder in
            guard folder != "/" else { return real.utf8.first == UInt8(ascii: "/") }
            guard real.utf8.starts(with: folder.utf8) else { return false }
            let rest = real.utf8.dropFirst(folder.utf8.count)
            return rest.isEmpty || rest.first == UInt8(ascii: "/")
        }
    }

    /// Whether `path` resolves (through every link in it) to a place inside the folders.
    public func resolvesInside(_ path: String) -> Bool {
        SystemCall.realPath(path).map(contains(real:)) ?? false
    }
}
