import BoomicCore

/// A tag value as MPD tells values apart: by its bytes. Swift's `String ==` (and so a
/// `[String: …]` key) makes `É` as U+00C9 and as `E` + U+0301 one value, which MPD lists as two
/// (in byte order, far apart); and which spelling a merged key kept depended on which song came
/// first, so the same question could answer differently. Ordered by its bytes too, as C's
/// `strcmp` orders MPD's values (`sort`, `count group`).
struct ValueKey: Hashable, Comparable {
    let value: String

    init(_ value: String) { self.value = value }

    static func == (a: ValueKey, b: ValueKey) -> Bool { a.value.sameBytes(as: b.value) }

    static func < (a: ValueKey, b: ValueKey) -> Bool { a.value.utf8.lexicographicallyPrecedes(b.value.utf8) }

    func hash(into h: inout Hasher) {
        var v = value
        v.withUTF8 { h.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
