/// Parsers for the text values tags hold, shared by every format.
///
/// Tags are user input: anything unparsable becomes nil, nothing traps. Kept free of files so the
/// whole table of odd values can be tested directly.
public enum TagValue {
    /// The largest track or disc number accepted; beyond it the value is garbage, not a number.
    static let maxIndex = 99_999

    /// A track or disc number and its optional total: `"3/12"` → (3, 12), `"03"` → (3, nil),
    /// `"3 of 12"` → (3, 12), `"/12"` → (nil, 12), `"A1"` → (nil, nil).
    public static func numberPair(_ text: String) -> (number: Int?, total: Int?) {
        let bytes = Array(text.utf8)
        if let slash = bytes.firstIndex(of: 0x2F) {
            return (index(bytes[..<slash]), index(bytes[(slash + 1)...]))
        }
        let of: [UInt8] = [0x20, 0x6F, 0x66, 0x20] // " of "
        if bytes.count > of.count {
            for i in 0...(bytes.count - of.count) where bytes[i..<(i + of.count)].elementsEqual(of) {
                return (index(bytes[..<i]), index(bytes[(i + of.count)...]))
            }
        }
        return (index(bytes[...]), nil)
    }

    /// A positive whole number such as a track total: `"12"`, `" 07 "`; else nil.
    public static func index(_ text: String) -> Int? {
        index(Array(text.utf8)[...])
    }

    /// ASCII digits only, with surrounding spaces: other scripts' digits are not tag numbers.
    static func index(_ bytes: ArraySlice<UInt8>) -> Int? {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
        var digits = bytes
        while let b = digits.first, isSpace(b) { digits.removeFirst() }
        while let b = digits.last, isSpace(b) { digits.removeLast() }
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        var n = 0
        for b in digits {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            n = n * 10 + Int(b - 0x30)
        }
        return n >= 1 && n <= maxIndex ? n : nil
    }

    /// A year and a date from a DATE tag: `"1969-09-26"` → (1969, "1969-09-26"),
    /// `"1969"` → (1969, nil) since a bare year says nothing more; `"26.09.1969"` → (1969, that
    /// text); text with no plausible year → (nil, nil).
    public static func yearAndDate(_ text: String) -> (year: Int?, date: String?) {
        let t = text.trimmingWhitespace()
        let bytes = Array(t.utf8)
        func isDigit(_ i: Int) -> Bool { i >= 0 && i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
        // The year is the first run of exactly four digits.
        var i = 0
        while i < bytes.count {
            guard isDigit(i) else { i += 1; continue }
            var j = i
            while isDigit(j) { j += 1 }
            if j - i == 4, let year = Int(String(decoding: bytes[i..<j], as: UTF8.self)), year >= 1 {
                return (year, bytes.count > 4 ? t : nil)
            }
            i = j
        }
        return (nil, nil)
    }

    /// A ReplayGain gain or peak: `"-6.50 dB"` → -6.5, `"+1.2 dB"` → 1.2, `"0.988"` → 0.988.
    /// A decimal comma is accepted; NaN, infinities and other text give nil.
    public static func decibels(_ text: String) -> Double? {
        // On bytes: this runs for four tags of every file, and Foundation's string helpers cost
        // more than the rest of the tag mapping together.
        var bytes = Array(text.utf8)
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        if bytes.count >= 2, bytes[bytes.count - 2] | 0x20 == 0x64, bytes[bytes.count - 1] | 0x20 == 0x62 {
            bytes.removeLast(2) // "dB", any case
            while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        }
        var start = 0
        while start < bytes.count, isSpace(bytes[start]) { start += 1 }
        if start < bytes.count, bytes[start] == 0x2B { start += 1 } // "+"
        guard start < bytes.count else { return nil }
        // Only digits, one sign, a decimal point or comma and an exponent: Double() alone would
        // also take "nan", "inf" and hex floats.
        var number = [UInt8]()
        number.reserveCapacity(bytes.count - start)
        for b in bytes[start...] {
            switch b {
            case 0x30...0x39, 0x2D, 0x2E, 0x65, 0x45: number.append(b)
            case 0x2C: number.append(0x2E) // decimal comma
            default: return nil
            }
        }
        guard let value = Double(String(decoding: number, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// An Opus file's `R128_TRACK_GAIN` or `R128_ALBUM_GAIN` (RFC 7845: a whole number of 1/256
    /// dB to reach -23 LUFS over the header's output gain, which the decoder applies) as a
    /// ReplayGain gain, whose reference is 5 dB louder (-18 LUFS), as MPD reads it: `"-2560"` →
    /// -5.0. To 0.01 dB, as ReplayGain gains are written, so that a gain written as R128
    /// (`TagMap.r128`) reads back as it was. Anything but a whole number in Q7.8's range gives nil.
    public static func r128Gain(_ text: String) -> Double? {
        guard let q78 = Int(text.trimmingWhitespace()), (-32768...32767).contains(q78) else { return nil }
        return ((Double(q78) / 256 + 5) * 100).rounded() / 100
    }

    /// A yes/no flag such as COMPILATION: `"1"`, `"true"`, `"yes"` (any case) are true.
    public static func flag(_ text: String) -> Bool {
        switch text.trimmingWhitespace().lowercased() {
        case "1", "true", "yes": return true
        default: return false
        }
    }

    /// ID3's two genre words, which TagLib leaves as their codes (`(RX)` reads as `RX`): spelled
    /// out as the ID3v2.3 specification, id3lib and MPD spell them. Any other value as it is.
    public static func genre(_ text: String) -> String {
        switch text {
        case "RX": "Remix"
        case "CR": "Cover"
        default: text
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        // Almost every tag value has no surrounding space; check the ends as bytes first.
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 {
            return self
        }
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }

    /// Empty or only whitespace.
    var isBlank: Bool {
        for b in utf8 {
            if b == 0x20 || (b >= 0x09 && b <= 0x0D) { continue }
            if b < 0x80 { return false }
            return allSatisfy(\.isWhitespace) // non-ASCII: ask Unicode
        }
        return true
    }
}
