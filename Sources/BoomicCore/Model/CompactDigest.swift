/// A text that is nearly always a lowercase hexadecimal digest (a fingerprint: 16 or 32 digits)
/// or a MusicBrainz id (a UUID: 36 characters), kept in two words where a `String` of 16 or more
/// bytes takes a heap object of its own (80 bytes for an id). A song has up to three such values
/// unique to it (its fingerprint, and from Picard its track and release-track ids): 4 to 12 MB
/// at 50,000 songs in every process holding the library.
///
/// Any other text is kept as it is, so the value reads back exactly as it was set; and since a
/// text packs one way only, two equal texts are equal values (and hash alike).
enum CompactDigest: Hashable, Sendable {
    /// 16 hexadecimal digits in `low`; 32 in `high` and `low`; a UUID's 32 digits likewise.
    case hex16(low: UInt64)
    case hex32(high: UInt64, low: UInt64)
    case uuid(high: UInt64, low: UInt64)
    case text(String)

    init(_ text: String) {
        self = (text.utf8.withContiguousStorageIfAvailable(Self.pack) ?? Array(text.utf8).withUnsafeBufferPointer(Self.pack))
            ?? .text(text)
    }

    var string: String {
        switch self {
        case let .text(text): return text
        case let .hex16(low): return Self.spell(high: nil, low: low, hyphens: false)
        case let .hex32(high, low): return Self.spell(high: high, low: low, hyphens: false)
        case let .uuid(high, low): return Self.spell(high: high, low: low, hyphens: true)
        }
    }

    private static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> CompactDigest? {
        switch bytes.count {
        case 16:
            guard let low = hex(bytes, 0..<16) else { return nil }
            return .hex16(low: low)
        case 32:
            guard let high = hex(bytes, 0..<16), let low = hex(bytes, 16..<32) else { return nil }
            return .hex32(high: high, low: low)
        case 36:
            // 8-4-4-4-12 digits: the first 16 are 0..<8, 9..<13, 14..<18; the last 16 19..<23, 24..<36.
            guard bytes[8] == 0x2D, bytes[13] == 0x2D, bytes[18] == 0x2D, bytes[23] == 0x2D,
                  let a = hex(bytes, 0..<8), let b = hex(bytes, 9..<13), let c = hex(bytes, 14..<18),
                  let d = hex(bytes, 19..<23), let e = hex(bytes, 24..<36) else { return nil }
            return .uuid(high: a << 32 | b << 16 | c, low: d << 48 | e)
        default:
            return nil
        }
    }

    /// Lowercase digits only: an uppercase one would not read back as it was written.
    private static func hex(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64? {
        var value: UInt64 = 0
        for i in range {
            let b = bytes[i]
            let digit: UInt8
            switch b {
            case 0x30...0x39: digit = b - 0x30
            case 0x61...0x66: digit = b - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    private static func spell(high: UInt64?, low: UInt64, hyphens: Bool) -> String {
        let count = (high == nil ? 16 : 32) + (hyphens ? 4 : 0)
        return String(unsafeUninitializedCapacity: count) { out in
            var at = 0
            var digit = 0
            func put(_ word: UInt64) {
                for shift in stride(from: 60, through: 0, by: -4) {
                    // A UUID's hyphens come after its 8th, 12th, 16th and 20th digits.
                    if hyphens, digit == 8 || digit == 12 || digit == 16 || digit == 20 {
                        out[at] = 0x2D
                        at += 1
                    }
                    let d = UInt8(truncatingIfNeeded: word >> UInt64(shift)) & 0xF
                    out[at] = d < 10 ? 0x30 + d : 0x61 + d - 10
                    at += 1
                    digit += 1
                }
            }
            if let high { put(high) }
            put(low)
            return at
        }
    }
}
