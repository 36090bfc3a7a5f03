import Foundation

extension UUID {
    /// The UUID a 36-character 8-4-4-4-12 text names, hex digits in either case: what
    /// `UUID(uuidString:)` accepts, without its cost. Foundation parses with `sscanf`, about half
    /// a microsecond a call, and `undo` reads the id of every transaction in the log (twice) and
    /// of every song a rollback touched.
    public init?(text: String) {
        var text = text
        guard let uuid = text.withUTF8({ UUID.parse(UnsafeRawBufferPointer($0), at: 0) }), text.utf8.count == 36 else { return nil }
        self = uuid
    }

    /// The 8-4-4-4-12 text in lower case, as the log spells ids: `uuidString.lowercased()`
    /// without its cost (Foundation formats with `snprintf`, then lower-casing copies), paid for
    /// every song a commit writes and indexes.
    public var lowercaseText: String {
        withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                let digits: (UInt8) -> UInt8 = { $0 < 10 ? $0 + UInt8(ascii: "0") : $0 - 10 + UInt8(ascii: "a") }
                var i = 0
                for (k, b) in raw.enumerated() {
                    if k == 4 || k == 6 || k == 8 || k == 10 { out[i] = UInt8(ascii: "-"); i += 1 }
                    out[i] = digits(b >> 4)
                    out[i + 1] = digits(b & 0x0F)
                    i += 2
                }
                return 36
            }
        }
    }

    /// The UUID in the 36 bytes of `bytes` from `start`, or nil when they are not one.
    static func parse(_ bytes: UnsafeRawBufferPointer, at start: Int) -> UUID? {
        guard start >= 0, start + 36 <= bytes.count else { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &raw) { out -> Bool in
            var i = start
            for k in 0..<16 {
                if i == start + 8 || i == start + 13 || i == start + 18 || i == start + 23 {
                    guard bytes[i] == UInt8(ascii: "-") else { return false }
                    i += 1
                }
                guard let hi = hexDigit(bytes[i]), let lo = hexDigit(bytes[i + 1]) else { return false }
                out[k] = hi << 4 | lo
                i += 2
            }
            return true
        }
        return ok ? UUID(uuid: raw) : nil
    }

    private static func hexDigit(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
