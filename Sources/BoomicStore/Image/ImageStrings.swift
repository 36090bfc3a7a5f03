/// A string table read in place: n strings in strictly increasing byte order, as n + 1 offsets
/// (u32) into their UTF-8. A string's code is its rank, so an exact match is a binary search and
/// a predicate on a field's values runs once per distinct value, not once per song.
///
/// Borrows the image's bytes: valid while the `SnapshotImage` it came from is.
public struct ImageStrings {
    private let offsets: UnsafeRawBufferPointer
    private let text: UnsafeRawBufferPointer
    public let count: Int

    /// Checks the structure: counts within the block, offsets increasing and within the text,
    /// every string valid UTF-8 and after the one before.
    init(checking b: UnsafeRawBufferPointer, name: String) throws {
        self = try Self(b, name: name)
        var previous: UnsafeRawBufferPointer?
        for i in 0..<count {
            let (start, end) = (bound(i), bound(i + 1))
            guard start <= end, end <= text.count else { throw StoreError.image("block \(name): string \(i) lies outside it") }
            let s = UnsafeRawBufferPointer(rebasing: text[start..<end])
            guard String(validating: s, as: UTF8.self) != nil else { throw StoreError.image("block \(name): string \(i) is not UTF-8") }
            if let p = previous, !p.lexicographicallyPrecedes(s) {
                throw StoreError.image("block \(name): string \(i) is out of order")
            }
            previous = s
        }
        guard bound(0) == 0, bound(count) == text.count else { throw StoreError.image("block \(name): text not accounted for") }
    }

    init(_ b: UnsafeRawBufferPointer, name: String) throws {
        guard b.count >= 12 else { throw StoreError.image("block \(name) is shorter than its header") }
        let n = Int(SnapshotImage.u32(b, 0))
        guard n <= (b.count - 12) / 4 else { throw StoreError.image("block \(name): \(n) strings cannot fit") }
        count = n
        offsets = UnsafeRawBufferPointer(rebasing: b[8..<(8 + 4 * (n + 1))])
        text = UnsafeRawBufferPointer(rebasing: b[(8 + 4 * (n + 1))...])
    }

    private func bound(_ i: Int) -> Int { Int(SnapshotImage.u32(offsets, 4 * i)) }

    /// The UTF-8 of the string with code `code`.
    public func utf8(_ code: Int) -> UnsafeRawBufferPointer {
        precondition(code >= 0 && code < count, "string code \(code) of \(count)")
        return UnsafeRawBufferPointer(rebasing: text[bound(code)..<bound(code + 1)])
    }

    public subscript(code: Int) -> String { String(decoding: utf8(code), as: UTF8.self) }

    /// The code of `s`, nil when the table does not hold it: a binary search by bytes.
    public func code(of s: String) -> Int? {
        var s = s
        return s.withUTF8 { key in
            var low = 0, high = count
            while low < high {
                let mid = (low + high) / 2
                let m = utf8(mid)
                if m.elementsEqual(UnsafeRawBufferPointer(key)) { return mid }
                if m.lexicographicallyPrecedes(UnsafeRawBufferPointer(key)) { low = mid + 1 } else { high = mid }
            }
            return nil
        }
    }

    /// The codes whose string satisfies `predicate`: one test per distinct value.
    public func codes(where predicate: (String) -> Bool) -> [Int] {
        (0..<count).filter { predicate(self[$0]) }
    }
}
