/// What `stat` says about a file that tells whether it changed: its size and modification time,
/// as a scan records them on a song.
public struct FileStamp: Hashable, Sendable, CustomStringConvertible {
    public var size: Int
    /// Nanoseconds since 1970.
    public var mtime: Int

    public init(size: Int, mtime: Int) {
        self.size = size
        self.mtime = mtime
    }

    /// The stamp the library recorded for the song's file at its last scan or write.
    public init(of song: Song) {
        self.init(size: song.size, mtime: song.mtime)
    }

    public var description: String { "\(size) bytes, mtime \(mtime)" }
}
