/// JSON written byte for byte as Foundation's `JSONEncoder` writes it with sorted keys and
/// unescaped slashes (the log's settings), for the log's quick encoder (`Transaction.encodedQuickly`).
///
/// The caller writes keys in sorted order itself; this type only spells values: strings with
/// `JSONEncoder`'s escapes (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other control characters as
/// `\u00xx`, everything else as UTF-8), integers in decimal, and doubles as their `description`
/// without a trailing `.0` (`3`, `0.5`, `1e+20`). `JSONEncoder` refuses a non-finite double; so
/// does `double(_:)`, and the caller hands the value to `JSONEncoder` to say why.
struct JSONText {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func raw(_ other: some Sequence<UInt8>) { bytes.append(contentsOf: other) }

    /// `"name":`, for a key that needs no escape.
    mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            var run = 0
            for (k, b) in utf8.enumerated() where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<k]))
                run = k + 1
                bytes.append(UInt8(ascii: "\\"))
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(b)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    raw("u00")
                    bytes.append(Self.hex[Int(b >> 4)])
                    bytes.append(Self.hex[Int(b & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    mutating func strings(_ xs: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (k, x) in xs.enumerated() {
            if k > 0 { bytes.append(UInt8(ascii: ",")) }
            string(x)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func int(_ i: Int) {
        var i = i
        if i < 0 {
            bytes.append(UInt8(ascii: "-"))
            // Int.min has no positive counterpart: its digits come from its description.
            if i == .min { raw(String(i).utf8.dropFirst()); return }
            i = -i
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { d in
            var n = 20
            repeat {
                n -= 1
                d[n] = UInt8(ascii: "0") + UInt8(i % 10)
                i /= 10
            } while i > 0
            bytes.append(contentsOf: d[n...])
        }
    }

    /// False, writing nothing, for a value `JSONEncoder` refuses (not finite).
    mutating func double(_ d: Double) -> Bool {
        guard d.isFinite else { return false }
        let text = d.description
        if text.hasSuffix(".0") { raw(text.utf8.dropLast(2)) } else { raw(text.utf8) }
        return true
    }

    mutating func bool(_ b: Bool) { if b { raw("true") } else { raw("false") } }
}
