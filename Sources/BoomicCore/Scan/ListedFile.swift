/// A file found by walking the music folders: just what `stat` says, no tags.
///
/// A rescan compares these with the basis and reads tags only for files that are new or changed,
/// which is what keeps a no-change rescan as cheap as MPD's.
public struct ListedFile: Hashable, Sendable {
    public var path: String
    public var size: Int
    /// Nanoseconds since 1970.
    public var mtime: Int

    public init(path: String, size: Int, mtime: Int) {
        self.path = path
        self.size = size
        self.mtime = mtime
    }
}
