/// How a CUE sheet's bytes become text. Rippers write sheets in whatever the system's code page
/// was: EAC on Windows in CP1252 (or UTF-8 with a BOM when asked), XLD in UTF-8, some tools in
/// UTF-16 with a BOM. The rule, as foobar2000 and MPD read them:
/// - a UTF-8 byte order mark: UTF-8 (the bytes after it must be valid UTF-8);
/// - a UTF-16 byte order mark (`FF FE` or `FE FF`): UTF-16 in that byte order;
/// - else bytes that are valid UTF-8 are UTF-8;
/// - else CP1252 (Latin-1 with Windows' letters in 0x80–0x9F; its five unassigned bytes are
///   Latin-1's control characters).
/// A NUL byte outside UTF-16, or UTF-16 that does not decode, is no sheet (a binary file named
/// `.cue`).
public enum CueText {
    /// The text, or nil when the bytes are no text by the rule above.
    public static func decode(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return utf8(bytes.dropFirst(3)) }
        if bytes.starts(with: [0xFF, 0xFE]) { return utf16(bytes.dropFirst(2), bigEndian: false) }
        if bytes.starts(with: [0xFE, 0xFF]) { return utf16(bytes.dropFirst(2), bigEndian: true) }
        guard !bytes.contains(0) else { return nil }
        return utf8(bytes[...]) ?? cp1252(bytes[...])
    }

    private static func utf8(_ bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.contains(0) else { return nil }
        var out = String.UnicodeScalarView()
        var it = bytes.makeIterator()
        var codec = UTF8()
        while true {
            switch codec.decode(&it) {
            case .scalarValue(let u): out.append(u)
            case .emptyInput: return String(out)
            case .error: return nil
            }
        }
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String? {
        guard bytes.count % 2 == 0 else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            i += 2
        }
        var out = String.UnicodeScalarView()
        var it = units.makeIterator()
        var codec = UTF16()
        while true {
            switch codec.decode(&it) {
            case .scalarValue(let u):
                if u.value == 0 { return nil }
                out.append(u)
            case .emptyInput: return String(out)
            case .error: return nil
            }
        }
    }

    /// Windows-1252's letters for 0x80–0x9F; 0 where it assigns none (Latin-1's C1 control).
    private static let windows: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    private static func cp1252(_ bytes: ArraySlice<UInt8>) -> String {
        var out = String.UnicodeScalarView()
        for b in bytes {
            let w = (0x80...0x9F).contains(b) ? windows[Int(b) - 0x80] : 0
            out.append(Unicode.Scalar(w != 0 ? w : UInt32(b))!)
        }
        return String(out)
    }
}
