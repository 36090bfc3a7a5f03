import Synchronization

/// A block's bytes as a reader sees them: each range is checked against its segments' checksums
/// before it is read (`check`), so a reader touching a few rows checks only the segments those
/// rows lie in. Once every segment of the block is found good, a check is one atomic load: a
/// scan of every song reads several values a field and pays next to nothing for them.
///
/// Borrows the image's bytes: valid while the `SnapshotImage` it came from is.
public struct ImageBlock {
    /// The block's bytes, unchecked until `check` says otherwise.
    public let bytes: UnsafeRawBufferPointer
    /// Where the block starts in the image.
    let offset: Int
    let firstSegment: Int
    /// The image's segment size, as a shift.
    let segmentShift: Int
    /// The one reference a copy of this value retains: readers copy blocks often.
    @usableFromInline let whole: WholeBlockMark

    public var name: String { whole.name }
    var image: SnapshotImage { whole.image }

    /// Checks the segments holding `count` bytes from `offset` (clamped to the block); returns
    /// only when they match their checksums (see `ImageChecks` for when they do not).
    @inlinable
    public func check(_ offset: Int, _ count: Int) {
        if whole.isSet { return }
        checkSegments(offset, count)
    }

    @usableFromInline
    func checkSegments(_ offset: Int, _ count: Int) {
        guard count > 0, offset >= 0, offset < bytes.count else { return }
        let end = min(offset + count, bytes.count) - 1
        var s = firstSegment + offset >> segmentShift
        let last = firstSegment + end >> segmentShift
        // The marks, not the image: a read of a song checks some sixty values, and reaching the
        // image through its unowned reference costs more than a check that finds its mark set.
        let marks = whole.marks
        while s <= last {
            if !marks.isSet(s) { image.checkSegment(s, of: self) }
            s += 1
        }
    }

    /// Checks every segment of the block.
    public func checkAll() { check(0, bytes.count) }

    public var count: Int { bytes.count }
}

/// A block's name and image, and a flag set once every segment of the block is found good.
@usableFromInline
final class WholeBlockMark: Sendable {
    @usableFromInline let flag = Atomic<Bool>(false)
    let name: String
    /// Unowned: the image holds this mark, and a reader's block is valid only while the image is.
    unowned let image: SnapshotImage
    /// The image's marks (which hold no reference back).
    let marks: SegmentMarks
    /// Segments of the block found good so far, and how many it has.
    private let good = Atomic<Int>(0)
    private let segments: Int

    init(name: String, image: SnapshotImage, segments: Int) {
        self.name = name
        self.image = image
        marks = image.marks
        self.segments = segments
    }

    @inlinable var isSet: Bool { flag.load(ordering: .acquiring) }

    /// Counts a segment newly found good; sets the flag with the last one.
    func segmentGood() {
        if good.add(1, ordering: .acquiringAndReleasing).newValue == segments { set() }
    }

    func set() { flag.store(true, ordering: .releasing) }
}
