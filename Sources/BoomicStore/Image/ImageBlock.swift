/// A block's bytes as a reader sees them: each range is checked against its segments' checksums
/// before it is read (`check`), so a reader touching a few rows checks only the segments those
/// rows lie in.
///
/// Borrows the image's bytes: valid while the `SnapshotImage` it came from is.
public struct ImageBlock {
    /// The block's bytes, unchecked until `check` says otherwise.
    public let bytes: UnsafeRawBufferPointer
    public let name: String
    let image: SnapshotImage
    /// Where the block starts in the image.
    let offset: Int
    let firstSegment: Int

    /// Checks the segments holding `count` bytes from `offset` (clamped to the block); returns
    /// only when they match their checksums (see `ImageChecks` for when they do not).
    @inline(__always)
    public func check(_ offset: Int, _ count: Int) {
        guard count > 0, offset >= 0, offset < bytes.count else { return }
        let end = min(offset + count, bytes.count) - 1
        var s = firstSegment + offset >> ImageLayout.segmentShift
        let last = firstSegment + end >> ImageLayout.segmentShift
        while s <= last {
            if !image.marks.isSet(s) { image.checkSegment(s, of: self) }
            s += 1
        }
    }

    /// Checks every segment of the block.
    public func checkAll() { check(0, bytes.count) }

    public var count: Int { bytes.count }
}
