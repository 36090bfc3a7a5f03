/// The search text, normalized once: its words (each must match somewhere: AND), the whole
/// phrase for exact and prefix matches of a name, and the phrase without spaces.
struct SearchQuery {
    /// Each word is one bit of a `FieldMask`; nobody types more into a search box.
    static let maxWords = 32

    /// The distinct words, in the order typed.
    let words: [[UInt8]]
    /// The words joined by single spaces.
    let phrase: [UInt8]
    /// The words joined without spaces (`ac dc` → `acdc`).
    let squash: [UInt8]
    /// A `FieldMask` bit set for every word.
    let all: UInt64

    init(_ text: String, using normalizer: inout SearchText) throws(SearchError) {
        var phrase: [UInt8] = [], squash: [UInt8] = []
        normalizer.append(text, words: &phrase, squash: &squash)
        var words: [[UInt8]] = []
        for w in phrase.split(separator: SearchText.space) where !words.contains(where: { $0.elementsEqual(w) }) {
            words.append(Array(w))
        }
        if words.isEmpty { throw .noWords(text) }
        if words.count > Self.maxWords { throw .tooManyWords(count: words.count, max: Self.maxWords) }
        self.words = words
        self.phrase = phrase
        self.squash = squash
        all = (1 << UInt64(words.count)) - 1
    }
}

/// Which query words a field matched: bit `i` for `words[i]`.
struct FieldMask {
    /// The word starts a word of the field.
    var prefix: UInt64 = 0
    /// The word is inside the field with its spaces taken out.
    var substring: UInt64 = 0

    static func | (a: FieldMask, b: FieldMask) -> FieldMask {
        FieldMask(prefix: a.prefix | b.prefix, substring: a.substring | b.substring)
    }
}

/// Where one field's text sits in the shared `words` and `squash` buffers.
struct FieldSpan {
    var field: SearchField
    var words: Range<Int>
    var squash: Range<Int>
    /// Index into the candidate's list of that field (which artist), for showing its text.
    var ordinal: Int
}

extension SearchQuery {
    /// The words a field matches.
    func mask(_ span: FieldSpan, words w: UnsafeBufferPointer<UInt8>, squash s: UnsafeBufferPointer<UInt8>) -> FieldMask {
        var m = FieldMask()
        for (i, q) in words.enumerated() {
            let bit: UInt64 = 1 << UInt64(i)
            guard Self.contains(q, in: s, span.squash, atWordStart: false) else { continue }
            m.substring |= bit
            if Self.contains(q, in: w, span.words, atWordStart: true) { m.prefix |= bit }
        }
        return m
    }

    /// The tier of a candidate whose name is `name` and whose fields together matched `all`
    /// (the name's mask included), and whether the name alone matched at that tier; nil when
    /// some word matched nowhere.
    func tier(name: FieldSpan, nameMask: FieldMask, allMask: FieldMask,
              words w: UnsafeBufferPointer<UInt8>, squash s: UnsafeBufferPointer<UInt8>) -> (SearchTier, Bool)? {
        guard allMask.substring == all else { return nil }
        let nameWords = UnsafeBufferPointer(rebasing: w[name.words])
        if nameWords.elementsEqual(phrase) || UnsafeBufferPointer(rebasing: s[name.squash]).elementsEqual(squash) {
            return (.exact, true)
        }
        if nameWords.starts(with: phrase) { return (.namePrefix, true) }
        if allMask.prefix == all { return (.wordPrefix, nameMask.prefix == all) }
        return (.substring, nameMask.substring == all)
    }

    /// Whether every word occurs somewhere in `s` (the squashed fields of a candidate): the
    /// cheap test that rejects almost every song of a library.
    func mayMatch(squash s: UnsafeBufferPointer<UInt8>) -> Bool {
        words.allSatisfy { Self.contains($0, in: s, 0..<s.count, atWordStart: false) }
    }

    /// The words (as `FieldMask` bits) that occur in `s`, one field squashed: `mayMatch`'s test
    /// made field by field, so that a column's distinct values are each tested once.
    func wordsInside(squash s: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var mask: UInt64 = 0
        for (i, w) in words.enumerated() where Self.contains(w, in: s, 0..<s.count, atWordStart: false) {
            mask |= 1 << UInt64(i)
        }
        return mask
    }

    /// Whether `needle` occurs in `hay[range]`, at the start of a word if asked.
    static func contains(_ needle: [UInt8], in hay: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, atWordStart: Bool) -> Bool {
        let m = needle.count
        guard m <= range.count else { return false }
        return needle.withUnsafeBufferPointer { n in
            let first = n[0]
            var p = range.lowerBound
            let last = range.upperBound - m
            while p <= last {
                if hay[p] == first, !atWordStart || p == range.lowerBound || hay[p - 1] == SearchText.space {
                    var j = 1
                    while j < m && hay[p + j] == n[j] { j += 1 }
                    if j == m { return true }
                }
                p += 1
            }
            return false
        }
    }
}
