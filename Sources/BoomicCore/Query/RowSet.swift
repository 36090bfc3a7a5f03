/// A set of an image's rows as a bitmap: the answer of a query planned on columns, combined by
/// AND, OR and NOT one machine word at a time.
struct RowSet: Equatable, Sendable {
    private(set) var words: [UInt64]
    let count: Int

    init(count: Int, all: Bool = false) {
        self.count = count
        words = [UInt64](repeating: all ? ~0 : 0, count: (count + 63) / 64)
        if all { clearTail() }
    }

    /// Inserts the rows `fill` hands to its argument, the words taken once: inserting row by
    /// row asks on every row whether they are shared (a tenth of a TagView over 50,000 songs).
    mutating func insert(_ fill: ((Int) -> Void) -> Void) {
        let n = count
        words.withUnsafeMutableBufferPointer { w in
            fill { row in
                precondition(row >= 0 && row < n, "row \(row) of \(n)")
                w[row >> 6] |= 1 << UInt64(row & 63)
            }
        }
    }

    func contains(_ row: Int) -> Bool { words[row >> 6] & (1 << UInt64(row & 63)) != 0 }

    mutating func formIntersection(_ other: RowSet) {
        for i in words.indices { words[i] &= other.words[i] }
    }

    mutating func formUnion(_ other: RowSet) {
        for i in words.indices { words[i] |= other.words[i] }
    }

    func complement() -> RowSet {
        var out = self
        for i in out.words.indices { out.words[i] = ~out.words[i] }
        out.clearTail()
        return out
    }

    /// How many rows the set holds.
    var population: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    var isFull: Bool { self == RowSet(count: count, all: true) }

    /// The rows in the set, in order.
    var indices: [Int] {
        var out: [Int] = []
        for (w, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                out.append(w << 6 | bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return out
    }

    private mutating func clearTail() {
        let extra = words.count * 64 - count
        if extra > 0 { words[words.count - 1] &= ~0 >> UInt64(extra) }
    }
}

extension SongImage {
    /// The rows whose value of `field` (as `SongField.value(in:)` gives it) passes `test`: one
    /// test per distinct value, then one look-up per row's code; nil when the image has no
    /// column for the field. What queries, TagViews and album counts decide on.
    func rows(of field: SongField, where test: (FieldValue) -> Bool) -> RowSet? {
        guard let column = column(field) else { return nil }
        return rows(of: column, passing: column.map(test))
    }

    /// `rows(of:where:)` of a text field, each distinct value's bytes tested by `bytes` (nil:
    /// undecided, as for a text that is not plain ASCII), else its value by `test`, which must
    /// agree with `bytes` where that decides.
    func rows(ofText field: SongField, where bytes: (UnsafeRawBufferPointer) -> Bool?,
              else test: (FieldValue) -> Bool) -> RowSet? {
        guard let column = column(field) else { return nil }
        guard let forEachText = column.forEachText else { return rows(of: field, where: test) }
        var passes: [Bool] = []
        passes.reserveCapacity(column.valueCount + 1)
        forEachText { b in passes.append(bytes(b) ?? test(.string(String(decoding: b, as: UTF8.self)))) }
        passes.append(test(column.value(column.valueCount)))
        return rows(of: column, passing: passes)
    }

    private func rows(of column: SongImageColumn, passing passes: [Bool]) -> RowSet {
        var out = RowSet(count: rowCount)
        if passes.contains(true) { out.insert { insert in column.rows(passes, insert) } }
        return out
    }
}
