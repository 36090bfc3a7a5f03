/// The songs of a checkpoint image as `BoomicCore` sees them (storage.md, "The layers stay"):
/// rows read where they lie, in path order, each materialised into a `Song` only when asked for.
///
/// The Library's image codec implements it over a mapped file; Core never touches the file.
/// A class-bound protocol so that two bases can tell whether they share one image (`===`),
/// which makes comparing and diffing neighbouring states O(change).
public protocol SongImage: AnyObject, Sendable {
    /// The songs held, one a row, in path order.
    var rowCount: Int { get }
    func id(atRow row: Int) -> SongID
    /// The row holding a song: a binary search of the ids, no song read.
    func row(of id: SongID) -> Int?
    /// The songs of these rows, in the order given: one pass resolving the columns, then one
    /// value a field for each row. With `fields`, only those are read (and the id and path): an
    /// index over every song needs two or three fields, not sixty.
    func songs(atRows rows: some Sequence<Int>, reading fields: [SongField]?) -> [Song]
    /// A field as a column of codes into its distinct values, so that a query tests each distinct
    /// value once rather than each song; nil when the image cannot answer for the field (the
    /// caller then reads songs).
    func column(_ field: SongField) -> SongImageColumn?
    /// The rows whose path's UTF-8 bytes begin with `prefix`: one range, as the rows are in
    /// path order by bytes, found by bisection (`path:` of a folder reads ~40 paths, not every
    /// path of the library); nil when the image cannot say (the caller tests every path).
    func rows(withPathBytesPrefix prefix: [UInt8]) -> Range<Int>?
}

extension SongImage {
    public func rows(withPathBytesPrefix prefix: [UInt8]) -> Range<Int>? { nil }
}

extension SongImage {
    public func songs(atRows rows: some Sequence<Int>) -> [Song] { songs(atRows: rows, reading: nil) }
    public func song(atRow row: Int) -> Song { songs(atRows: CollectionOfOne(row))[0] }
}

/// One field of an image: `valueCount` distinct values, each row's code into them. A row whose
/// code is `valueCount` holds the field's default (nil, 0, false, empty), whose value is
/// `defaultValue`.
public struct SongImageColumn: Sendable {
    public let valueCount: Int
    /// The value with this code, as `SongField.value(in:)` gives it.
    public let value: @Sendable (Int) -> FieldValue
    /// Every row's code, in row order.
    public let codes: @Sendable () -> [UInt32]
    /// Calls its second argument with each row whose code passes (the first, indexed by code),
    /// in row order: what `codes` gives, read where it lies rather than copied.
    public let rows: @Sendable (_ passing: [Bool], _ body: (Int) -> Void) -> Void
    /// Calls `body` with every distinct value in code order, then the default (code
    /// `valueCount`): what `value` gives, with the value table taken once rather than per call.
    public let forEachValue: @Sendable (_ body: (FieldValue) -> Void) -> Void
    /// For a column of single texts: calls `body` with each distinct value's UTF-8 bytes in code
    /// order (not the default's), read where they lie, so that a test of plain ASCII makes no
    /// `String` of 50,000 titles; nil for a column of other values.
    public let forEachText: (@Sendable (_ body: (UnsafeRawBufferPointer) -> Void) -> Void)?

    public init(valueCount: Int, value: @escaping @Sendable (Int) -> FieldValue, codes: @escaping @Sendable () -> [UInt32],
                rows: @escaping @Sendable (_ passing: [Bool], _ body: (Int) -> Void) -> Void,
                forEachValue: @escaping @Sendable (_ body: (FieldValue) -> Void) -> Void,
                forEachText: (@Sendable (_ body: (UnsafeRawBufferPointer) -> Void) -> Void)? = nil) {
        self.valueCount = valueCount
        self.value = value
        self.codes = codes
        self.rows = rows
        self.forEachValue = forEachValue
        self.forEachText = forEachText
    }

    /// Each code's value transformed, indexed by code, the default's last.
    public func map<T>(_ transform: (FieldValue) -> T) -> [T] {
        var out: [T] = []
        out.reserveCapacity(valueCount + 1)
        forEachValue { out.append(transform($0)) }
        return out
    }
}
