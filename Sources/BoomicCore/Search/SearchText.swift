import Foundation

/// Text reduced to what search compares: folded like every key in Boomic (`Fold.key`: case,
/// accents, width), then cut into words of letters and digits.
///
/// The words are UTF-8 bytes joined by single spaces (`words`); the same bytes without the
/// spaces (`squash`) are what substring matches look in, so `acdc` is found in `AC/DC`.
/// Apostrophes join rather than split (`dont` finds *Don't*); every other character that is
/// not a letter, digit or combining mark separates words.
///
/// A search folds every title, artist and album of the library, and `Fold.key` costs about
/// 2 µs on a non-ASCII string here (CoreFoundation), so `SearchText` folds one scalar at a time
/// and remembers each scalar's fold for the rest of the call. That equals folding the whole
/// string except around scalars whose fold depends on their neighbours (combining marks,
/// conjoining jamo, half-width kana); a string holding one of those is folded whole.
/// `SearchTextTests` checks the two ways agree.
struct SearchText {
    /// What a folded scalar contributes, as bytes: `space` for a separator, nothing when it is
    /// dropped, else its UTF-8 bytes. `isContextual` when its fold may depend on its neighbours.
    private struct Entry {
        var bytes: [UInt8]
        var isContextual: Bool
    }

    static let space: UInt8 = 0x20
    /// Between two fields in a buffer, so that no match runs from one field into the next.
    static let fieldSeparator: UInt8 = 0x00

    /// ASCII byte → its lowercase form if a letter or digit, `space` if it separates, 0xFF if dropped.
    private static let ascii: [UInt8] = (0..<128).map { b -> UInt8 in
        switch UInt8(b) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(b)
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt8(b) + 0x20
        case UInt8(ascii: "'"), UInt8(ascii: "`"): 0xFF
        default: space
        }
    }

    private var cache: [UInt32: Entry] = [:]
    private let table = SearchText.ascii

    init() {}

    /// Appends the normalized words of `s` (joined by single spaces) to `words` and the same
    /// without spaces to `squash`.
    mutating func append(_ s: String, words: inout [UInt8], squash: inout [UInt8]) {
        let w0 = words.count, s0 = squash.count
        var copy = s
        let done = copy.withUTF8 { appendFast($0, words: &words, squash: &squash) }
        if !done {
            words.removeSubrange(w0...)
            squash.removeSubrange(s0...)
            appendFolded(Fold.key(s), words: &words, squash: &squash)
        }
    }

    /// Bytes written in place, for the scan that every song goes through: appending to an
    /// `Array` byte by byte (capacity and uniqueness checked each time) would be most of its cost.
    struct Scratch {
        var storage = [UInt8](repeating: 0, count: 4_096)
        var count = 0

        var bytes: ArraySlice<UInt8> { storage[..<count] }

        mutating func append(_ b: UInt8) {
            if count == storage.count { storage += repeatElement(0, count: storage.count) }
            storage[count] = b
            count += 1
        }

        mutating func reserve(_ n: Int) {
            while count + n > storage.count { storage += repeatElement(0, count: storage.count) }
        }
    }

    /// Appends the normalized words of `s` without spaces: what `SearchQuery.mayMatch` looks in.
    mutating func appendSquash(_ s: String, to out: inout Scratch) {
        var copy = s
        let start = out.count
        var room = copy.utf8.count + 8
        while true {
            out.reserve(room)
            var count = start
            let result = copy.withUTF8 { src in
                out.storage.withUnsafeMutableBufferPointer { dst in squashFast(src, into: dst, count: &count) }
            }
            switch result {
            case .done:
                out.count = count
                return
            case .needsRoom:
                room *= 4
            case .contextual:
                var w: [UInt8] = [], q: [UInt8] = []
                appendFolded(Fold.key(s), words: &w, squash: &q)
                out.count = start
                out.reserve(q.count)
                for b in q { out.append(b) }
                return
            }
        }
    }

    private enum FastResult { case done, needsRoom, contextual }

    private mutating func squashFast(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>,
                                     count: inout Int) -> FastResult {
        var o = count
        defer { count = o }
        var i = 0
        let n = bytes.count, end = out.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                let c = table[Int(b)]
                if c != Self.space && c != 0xFF {
                    if o == end { return .needsRoom }
                    out[o] = c
                    o += 1
                }
                i += 1
                continue
            }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            var v = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for j in 1..<length { v = v << 6 | UInt32(bytes[i + j] & 0x3F) }
            i += length
            let entry = cache[v] ?? makeEntry(v)
            if entry.isContextual { return .contextual }
            if o + entry.bytes.count > end { return .needsRoom }
            for c in entry.bytes where c != Self.space {
                out[o] = c
                o += 1
            }
        }
        return .done
    }

    /// The normalized words of `s` joined by single spaces.
    mutating func words(_ s: String) -> [UInt8] {
        var w: [UInt8] = [], q: [UInt8] = []
        append(s, words: &w, squash: &q)
        return w
    }

    /// One scalar at a time, with the cache; false (leaving partial output) when `bytes` holds a
    /// scalar whose fold depends on its neighbours.
    private mutating func appendFast(_ bytes: UnsafeBufferPointer<UInt8>, words: inout [UInt8], squash: inout [UInt8]) -> Bool {
        var pendingSpace = false, started = false
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                let c = table[Int(b)]
                if c == Self.space {
                    pendingSpace = true
                } else if c != 0xFF {
                    if pendingSpace && started { words.append(Self.space) }
                    words.append(c)
                    squash.append(c)
                    pendingSpace = false
                    started = true
                }
                i += 1
                continue
            }
            // A valid multi-byte UTF-8 sequence (String guarantees validity).
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            var v = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for j in 1..<length { v = v << 6 | UInt32(bytes[i + j] & 0x3F) }
            i += length
            let entry = cache[v] ?? makeEntry(v)
            if entry.isContextual { return false }
            for c in entry.bytes {
                if c == Self.space {
                    pendingSpace = true
                } else {
                    if pendingSpace && started { words.append(Self.space) }
                    words.append(c)
                    squash.append(c)
                    pendingSpace = false
                    started = true
                }
            }
        }
        return true
    }

    private mutating func makeEntry(_ v: UInt32) -> Entry {
        let scalar = Unicode.Scalar(v)!
        let folded = Fold.key(String(Character(scalar)))
        var bytes: [UInt8] = []
        for f in folded.unicodeScalars { Self.classify(f, into: &bytes) }
        let entry = Entry(bytes: bytes, isContextual: Self.isContextual(scalar))
        cache[v] = entry
        return entry
    }

    /// Already folded text (the slow path): classification only.
    private func appendFolded(_ folded: String, words: inout [UInt8], squash: inout [UInt8]) {
        var bytes: [UInt8] = []
        for f in folded.unicodeScalars { Self.classify(f, into: &bytes) }
        var pendingSpace = false, started = false
        for c in bytes {
            if c == Self.space {
                pendingSpace = true
            } else {
                if pendingSpace && started { words.append(Self.space) }
                words.append(c)
                squash.append(c)
                pendingSpace = false
                started = true
            }
        }
    }

    /// Appends what one folded scalar contributes: its bytes, `space`, or nothing.
    static func classify(_ f: Unicode.Scalar, into bytes: inout [UInt8]) {
        if f.isASCII {
            let c = ascii[Int(f.value)]
            if c != 0xFF { bytes.append(c) }
            return
        }
        switch f.value {
        case 0x2018, 0x2019, 0x02BC, 0x02BB, 0xFF07: return  // apostrophes join, like `'`
        default: break
        }
        if isWordScalar(f) {
            bytes.append(contentsOf: String(f).utf8)
        } else {
            bytes.append(space)
        }
    }

    /// Letters, digits and marks make words; punctuation, symbols, spaces and controls separate.
    static func isWordScalar(_ f: Unicode.Scalar) -> Bool {
        switch f.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber,
             .nonspacingMark, .spacingMark, .enclosingMark:
            true
        default:
            false
        }
    }

    /// Scalars whose fold may depend on the scalars around them, so a string holding one is
    /// folded whole: combining marks (stripped after a letter, kept alone), conjoining Hangul
    /// jamo, half-width katakana and the kana sound marks.
    static func isContextual(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF, 0x3099...0x309C, 0xFF61...0xFF9F: return true
        default: break
        }
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return s.properties.canonicalCombiningClass.rawValue != 0
        }
    }
}
