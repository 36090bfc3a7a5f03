import Foundation

/// Writes bytes at a cursor into memory reserved beforehand (`ByteBuffer`'s
/// `writeWithUnsafeMutableBytes`): each put is a plain copy. Writing a song's fifteen lines
/// through `ByteBuffer`'s own methods paid a capacity check and the runtime's exclusivity
/// checks on every call, a quarter of `listallinfo`'s time.
///
/// The caller reserves enough: `maxDecimal`, `timeStampLength` and a value's UTF-8 count bound
/// what each put writes. Debug builds (the tests) check every put against the end of what was
/// reserved, so a bound that is too small fails a test instead of writing past the buffer.
struct ByteCursor {
    private(set) var at: UnsafeMutableRawPointer
    private let end: UnsafeMutableRawPointer

    init(_ start: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer) {
        at = start
        self.end = end
    }

    private func fits(_ count: Int) -> Bool { at + count <= end }

    /// The most bytes `putDecimal` writes: a sign and 19 digits.
    static let maxDecimal = 20
    /// The most bytes `putTimeStamp` writes (a year of up to 11 digits, as `gmtime_r` may give).
    static let timeStampLength = 32

    mutating func put(_ s: StaticString) {
        assert(fits(s.utf8CodeUnitCount), "a put past the reserved room")
        at.copyMemory(from: s.utf8Start, byteCount: s.utf8CodeUnitCount)
        at += s.utf8CodeUnitCount
    }

    mutating func put(_ byte: UInt8) {
        assert(fits(1), "a put past the reserved room")
        at.storeBytes(of: byte, as: UInt8.self)
        at += 1
    }

    mutating func put(_ raw: UnsafeRawBufferPointer) {
        guard let base = raw.baseAddress else { return }
        assert(fits(raw.count), "a put past the reserved room")
        at.copyMemory(from: base, byteCount: raw.count)
        at += raw.count
    }

    /// A value's bytes as they are, but for control characters: each byte below 0x20 becomes a
    /// space, as MPD's `FixTagString` makes it when it reads a tag. A newline would end the
    /// line and a client would read the rest as a line of its own; a tab or a 0x01 reached
    /// clients raw. Never more bytes than the value's UTF-8 count.
    mutating func putValue(_ value: some StringProtocol) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { raw in
            guard raw.contains(where: { $0 < 0x20 }) else {
                put(UnsafeRawBufferPointer(raw))
                return
            }
            for byte in raw { put(byte < 0x20 ? UInt8(ascii: " ") : byte) }
        }
        if done == nil {  // not contiguous (a bridged string): made so, once
            var copy = String(value)
            copy.makeContiguousUTF8()
            putValue(copy)
        }
    }

    mutating func putDecimal(_ n: Int) {
        if n < 0 { put(UInt8(ascii: "-")) }
        var m = n.magnitude
        if m < 10 {
            put(UInt8(ascii: "0") + UInt8(m))
            return
        }
        var digits = 0, probe = m
        while probe > 0 {
            digits += 1
            probe /= 10
        }
        assert(fits(digits), "a put past the reserved room")
        var p = at + digits
        at = p
        repeat {
            p -= 1
            p.storeBytes(of: UInt8(ascii: "0") + UInt8(m % 10), as: UInt8.self)
            m /= 10
        } while m > 0
    }

    /// `2026-11-26T09:36:58Z`, as MPD writes `Last-Modified`.
    mutating func putTimeStamp(seconds: Int) {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        putDecimal(Int(parts.tm_year) + 1900)
        putTwoDigits(parts.tm_mon + 1, after: "-")
        putTwoDigits(parts.tm_mday, after: "-")
        putTwoDigits(parts.tm_hour, after: "T")
        putTwoDigits(parts.tm_min, after: ":")
        putTwoDigits(parts.tm_sec, after: ":")
        put(UInt8(ascii: "Z"))
    }

    private mutating func putTwoDigits(_ n: Int32, after separator: StaticString) {
        put(separator)
        put(UInt8(ascii: "0") + UInt8(n / 10))
        put(UInt8(ascii: "0") + UInt8(n % 10))
    }

    /// Seconds with three decimals (`545.432`), as MPD prints `duration` and `elapsed`: at most
    /// `maxDecimal + 4` bytes.
    mutating func putMilliseconds(_ seconds: Double) {
        let ms = Int((max(0, min(seconds, 1e15)) * 1000).rounded())
        putDecimal(ms / 1000)
        let frac = ms % 1000
        put(UInt8(ascii: "."))
        put(UInt8(ascii: "0") + UInt8(frac / 100))
        put(UInt8(ascii: "0") + UInt8(frac / 10 % 10))
        put(UInt8(ascii: "0") + UInt8(frac % 10))
    }
}
