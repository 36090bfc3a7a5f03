/// Subsonic's JSON: `{"subsonic-response":{…}}`, members in the order added, a list always an
/// array (one song is `[{…}]`, none is `[]`), numbers and booleans unquoted, an element's text
/// as `value`.
///
/// The text is written as UTF-8 bytes into one array and made a `String` once at the end:
/// appending tens of thousands of small pieces to a `String` (a page of 500 songs is ~20,000
/// strings) costs several times as much as copying their bytes, and was most of such an answer.
public enum SubsonicJSON {
    public static func encode(_ response: SubsonicResponse, serverVersion: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        out.append(contentsOf: #"{"subsonic-response":"#.utf8)
        write(response.root(serverVersion: serverVersion), into: &out)
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    static func write(_ element: SubsonicElement, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        func key(_ name: String) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            string(name, into: &out)
            out.append(UInt8(ascii: ":"))
        }
        for (name, member) in element.members {
            key(name)
            switch member {
            case let .value(v): value(v, into: &out)
            case let .element(e): write(e, into: &out)
            case let .elements(list):
                out.append(UInt8(ascii: "["))
                for (i, e) in list.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    write(e, into: &out)
                }
                out.append(UInt8(ascii: "]"))
            case let .values(list):
                out.append(UInt8(ascii: "["))
                for (i, v) in list.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    value(v, into: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        if let text = element.text {
            key("value")
            string(text, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    static func value(_ v: SubsonicValue, into out: inout [UInt8]) {
        switch v {
        case let .string(s): string(s, into: &out)
        case .int, .double, .bool: out.append(contentsOf: v.text.utf8)
        }
    }

    /// A JSON string as text (for tests; answers use the bytes form).
    static func string(_ s: String, into out: inout String) {
        var bytes: [UInt8] = []
        string(s, into: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// A JSON string; U+2028 and U+2029 escaped too, so the same text is safe inside JSONP's
    /// JavaScript.
    ///
    /// A string with nothing to escape, as nearly every name is, is copied whole: looking at its
    /// UTF-8 bytes is several times cheaper than writing it a scalar at a time.
    static func string(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let plain = s.utf8.withContiguousStorageIfAvailable { bytes in
            for b in bytes where !isPlain(b) { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain != true { escaped(s, into: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// The string's characters one at a time, those JSON must escape escaped.
    private static func escaped(_ s: String, into out: inout [UInt8]) {
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: #"\""#.utf8)
            case "\\": out.append(contentsOf: #"\\"#.utf8)
            case "\n": out.append(contentsOf: #"\n"#.utf8)
            case "\r": out.append(contentsOf: #"\r"#.utf8)
            case "\t": out.append(contentsOf: #"\t"#.utf8)
            case "\u{2028}": out.append(contentsOf: #"\u2028"#.utf8)
            case "\u{2029}": out.append(contentsOf: #"\u2029"#.utf8)
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                } else {
                    out.append(contentsOf: UTF8.encode(scalar)!)
                }
            }
        }
    }

    /// A UTF-8 byte that is written as it is whatever follows: not a quote, a backslash or a
    /// control character, and not 0xE2, the first byte of U+2028 and U+2029 (and of other
    /// characters, which then go the careful way).
    static func isPlain(_ byte: UInt8) -> Bool { byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0xE2 }
}
