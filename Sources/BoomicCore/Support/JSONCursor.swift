import Foundation

/// A forward-only reader of one JSON text, for the log's quick decoder (`Transaction.quickly`).
///
/// Foundation's `JSONDecoder` spends most of a log row's decode in Codable's machinery (generic
/// containers, coding paths, metadata lookups), not in the JSON: a row is read about eight times
/// faster by walking its bytes once and building the values directly. The cursor accepts only
/// what is plainly valid and meant the same way by `JSONDecoder`; anything else (an escape it
/// does not know, invalid UTF-8, a number `JSONDecoder` might read another way) is a `Miss`, on
/// which the caller hands the whole text to `JSONDecoder`, whose result or error is the reference.
struct JSONCursor {
    /// The text is not one the quick path reads the way `JSONDecoder` does: decode it with that.
    struct Miss: Error {}

    /// A number as written: an integer that fits `Int`, or a value with a fraction or exponent.
    enum Number {
        case int(Int)
        case double(Double)
    }

    let bytes: UnsafeRawBufferPointer
    var at: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        at = 0
    }

    /// Skips JSON's four whitespace bytes and returns the next byte, nil at the end.
    mutating func next() -> UInt8? {
        while at < bytes.count {
            let b = bytes[at]
            if b != 0x20 && b != 0x0A && b != 0x0D && b != 0x09 { return b }
            at += 1
        }
        return nil
    }

    mutating func expect(_ byte: UInt8) throws(Miss) {
        guard next() == byte else { throw Miss() }
        at += 1
    }

    /// Nothing but whitespace is left.
    mutating func end() throws(Miss) {
        guard next() == nil else { throw Miss() }
    }

    /// Consumes `null` when it is next.
    mutating func null() -> Bool {
        guard next() == UInt8(ascii: "n"), literal("null") else { return false }
        return true
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard at + n <= bytes.count else { return false }
        for k in 0..<n where bytes[at + k] != word.utf8Start[k] { return false }
        at += n
        return true
    }

    /// Calls `body` once per member of the object that is next, with the member's key and the
    /// cursor at its value; `body` consumes the value. Keys are UTF-8 bytes without escapes (a
    /// key with an escape is a miss: the log's keys never need one).
    mutating func object(_ body: (inout JSONCursor, UnsafeRawBufferPointer) throws(Miss) -> Void) throws(Miss) {
        try expect(UInt8(ascii: "{"))
        if next() == UInt8(ascii: "}") { at += 1; return }
        while true {
            try expect(UInt8(ascii: "\""))
            let start = at
            var ascii = true
            while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
                if bytes[at] == UInt8(ascii: "\\") || bytes[at] < 0x20 { throw Miss() }
                ascii = ascii && bytes[at] < 0x80
                at += 1
            }
            guard at < bytes.count else { throw Miss() }
            let key = UnsafeRawBufferPointer(rebasing: bytes[start..<at])
            // `JSONDecoder` refuses a text with invalid UTF-8 anywhere, in a key it ignores too.
            if !ascii, String(validating: key, as: UTF8.self) == nil { throw Miss() }
            at += 1
            try expect(UInt8(ascii: ":"))
            try body(&self, key)
            switch next() {
            case UInt8(ascii: ","): at += 1
            case UInt8(ascii: "}"): at += 1; return
            default: throw Miss()
            }
        }
    }

    /// Calls `body` once per element of the array that is next, the cursor at the element.
    mutating func array(_ body: (inout JSONCursor) throws(Miss) -> Void) throws(Miss) {
        try expect(UInt8(ascii: "["))
        if next() == UInt8(ascii: "]") { at += 1; return }
        while true {
            try body(&self)
            switch next() {
            case UInt8(ascii: ","): at += 1
            case UInt8(ascii: "]"): at += 1; return
            default: throw Miss()
            }
        }
    }

    mutating func strings() throws(Miss) -> [String] {
        var out: [String] = []
        try array { (c: inout JSONCursor) throws(Miss) in out.append(try c.string()) }
        return out
    }

    mutating func bool() throws(Miss) -> Bool {
        switch next() {
        case UInt8(ascii: "t"): if literal("true") { return true }
        case UInt8(ascii: "f"): if literal("false") { return false }
        default: break
        }
        throw Miss()
    }

    /// The string that is next. Escapes are decoded; a `\u` escape that is not a whole scalar
    /// (a lone surrogate), a raw control byte or invalid UTF-8 is a miss.
    mutating func string() throws(Miss) -> String {
        try expect(UInt8(ascii: "\""))
        let start = at
        while at < bytes.count {
            let b = bytes[at]
            if b == UInt8(ascii: "\"") {
                let text = UnsafeRawBufferPointer(rebasing: bytes[start..<at])
                at += 1
                guard let s = String(validating: text, as: UTF8.self) else { throw Miss() }
                return s
            }
            if b == UInt8(ascii: "\\") { return try escapedString(from: start) }
            if b < 0x20 { throw Miss() }
            at += 1
        }
        throw Miss()
    }

    private mutating func escapedString(from start: Int) throws(Miss) -> String {
        var out: [UInt8] = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<at]))
        while at < bytes.count {
            let b = bytes[at]
            at += 1
            switch b {
            case UInt8(ascii: "\""):
                guard let s = String(validating: out, as: UTF8.self) else { throw Miss() }
                return s
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { throw Miss() }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var unit = try hex4()
                    if (0xD800..<0xDC00).contains(unit) {
                        guard literal("\\u") else { throw Miss() }
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw Miss() }
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(unit) else { throw Miss() }
                    out.append(contentsOf: UTF8.encode(scalar)!)
                default: throw Miss()
                }
            default:
                if b < 0x20 { throw Miss() }
                out.append(b)
            }
        }
        throw Miss()
    }

    private mutating func hex4() throws(Miss) -> UInt32 {
        guard at + 4 <= bytes.count else { throw Miss() }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[at]
            at += 1
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = v << 4 | UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = v << 4 | UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = v << 4 | UInt32(b - UInt8(ascii: "A") + 10)
            default: throw Miss()
            }
        }
        return v
    }

    /// The number that is next, in JSON's grammar. An integer outside `Int`, `-0`, and a whole
    /// value written with a fraction or exponent (`3.0`, `1e3`) are misses: whether
    /// `JSONDecoder` reads those as integers is its own business.
    mutating func number() throws(Miss) -> Number {
        let (text, fractional) = try numberText()
        if !fractional {
            guard let i = Int(text), !(i == 0 && text.utf8.first == UInt8(ascii: "-")) else { throw Miss() }
            return .int(i)
        }
        guard let d = Double(text), d.isFinite, d != d.rounded(.towardZero) else { throw Miss() }
        return .double(d)
    }

    /// A number read as a `Double`, as `JSONDecoder` reads a `Double` from any JSON number.
    mutating func double() throws(Miss) -> Double {
        guard let d = Double(try numberText().text), d.isFinite else { throw Miss() }
        return d
    }

    mutating func int() throws(Miss) -> Int {
        guard case .int(let i) = try number() else { throw Miss() }
        return i
    }

    /// The next number's text, checked against JSON's grammar, and whether it has a fraction or
    /// an exponent.
    private mutating func numberText() throws(Miss) -> (text: String, fractional: Bool) {
        _ = next()
        let start = at
        var fractional = false
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        let digits = at
        while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        guard at > digits, bytes[digits] != UInt8(ascii: "0") || at == digits + 1 else { throw Miss() }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            let f = at
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
            guard at > f else { throw Miss() }
            fractional = true
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            let e = at
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
            guard at > e else { throw Miss() }
            fractional = true
        }
        return (String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self), fractional)
    }

    /// Skips the value that is next, checking its grammar; returns where it started.
    @discardableResult
    mutating func skip() throws(Miss) -> Int {
        let start: Int
        switch next() {
        case UInt8(ascii: "{"):
            start = at
            try object { (c: inout JSONCursor, _) throws(Miss) in try c.skip() }
        case UInt8(ascii: "["):
            start = at
            try array { (c: inout JSONCursor) throws(Miss) in try c.skip() }
        case UInt8(ascii: "\""):
            start = at
            _ = try string()
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            start = at
            _ = try bool()
        case UInt8(ascii: "n"):
            start = at
            guard null() else { throw Miss() }
        case nil: throw Miss()
        default:
            start = at
            _ = try numberText()
        }
        return start
    }

    /// The bytes from `start` to the cursor: a value just skipped, to hand to `JSONDecoder`.
    func bytes(from start: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[start..<at])
    }

    /// A UUID string in the 8-4-4-4-12 form, hex digits in either case.
    mutating func uuid() throws(Miss) -> UUID {
        try expect(UInt8(ascii: "\""))
        guard at + 37 <= bytes.count, bytes[at + 36] == UInt8(ascii: "\""), let uuid = UUID.parse(bytes, at: at) else { throw Miss() }
        at += 37
        return uuid
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
