/// Subsonic's JSON: `{"subsonic-response":{…}}`, members in the order added, a list always an
/// array (one song is `[{…}]`, none is `[]`), numbers and booleans unquoted, an element's text
/// as `value`.
public enum SubsonicJSON {
    public static func encode(_ response: SubsonicResponse, serverVersion: String) -> String {
        var out = #"{"subsonic-response":"#
        out.reserveCapacity(256)
        write(response.root(serverVersion: serverVersion), into: &out)
        out += "}"
        return out
    }

    static func write(_ element: SubsonicElement, into out: inout String) {
        out += "{"
        var first = true
        func key(_ name: String) {
            if !first { out += "," }
            first = false
            string(name, into: &out)
            out += ":"
        }
        for (name, member) in element.members {
            key(name)
            switch member {
            case let .value(v): value(v, into: &out)
            case let .element(e): write(e, into: &out)
            case let .elements(list):
                out += "["
                for (i, e) in list.enumerated() {
                    if i > 0 { out += "," }
                    write(e, into: &out)
                }
                out += "]"
            case let .values(list):
                out += "["
                for (i, v) in list.enumerated() {
                    if i > 0 { out += "," }
                    value(v, into: &out)
                }
                out += "]"
            }
        }
        if let text = element.text {
            key("value")
            string(text, into: &out)
        }
        out += "}"
    }

    static func value(_ v: SubsonicValue, into out: inout String) {
        switch v {
        case let .string(s): string(s, into: &out)
        case .int, .double, .bool: out += v.text
        }
    }

    /// A JSON string; U+2028 and U+2029 escaped too, so the same text is safe inside JSONP's
    /// JavaScript.
    ///
    /// A string with nothing to escape, as nearly every name is, is appended whole: looking at
    /// its UTF-8 bytes is several times cheaper than appending it a scalar at a time, which a
    /// page of 500 songs (~20,000 strings) would otherwise spend most of its answer on.
    static func string(_ s: String, into out: inout String) {
        out += "\""
        if s.utf8.allSatisfy(isPlain) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// A UTF-8 byte that is written as it is whatever follows: not a quote, a backslash or a
    /// control character, and not 0xE2, the first byte of U+2028 and U+2029 (and of other
    /// characters, which then go the careful way).
    static func isPlain(_ byte: UInt8) -> Bool { byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0xE2 }
}
