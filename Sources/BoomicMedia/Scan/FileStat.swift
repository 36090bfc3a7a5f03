/// What the walk learns about an audio file without opening it: enough to tell whether it changed.
public struct FileStat: Hashable, Sendable, Codable {
    /// Absolute path.
    public var path: String
    /// Size in bytes.
    public var size: Int
    /// Modification time in whole nanoseconds since 1970, as stat(2) gives it.
    public var mtime: Int

    public init(path: String, size: Int, mtime: Int) {
        self.path = path
        self.size = size
        self.mtime = mtime
    }
}
