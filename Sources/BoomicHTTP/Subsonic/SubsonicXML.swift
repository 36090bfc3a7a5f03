/// Subsonic's XML: `<subsonic-response xmlns="http://subsonic.org/restapi" …>`, scalars as
/// attributes, nested elements and lists as child elements (a list repeats its element), a list
/// of scalars as one child element per value with the value as its text.
public enum SubsonicXML {
    public static let namespace = "http://subsonic.org/restapi"

    public static func encode(_ response: SubsonicResponse, serverVersion: String) -> String {
        var root = SubsonicElement(["xmlns": .string(namespace)])
        let full = response.root(serverVersion: serverVersion)
        for (name, member) in full.members { root.set(name, member) }
        root.text = full.text
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out.reserveCapacity(256)
        write(root, named: "subsonic-response", into: &out)
        out += "\n"
        return out
    }

    static func write(_ element: SubsonicElement, named name: String, into out: inout String) {
        out += "<" + name
        var hasChildren = element.text != nil
        for (attribute, member) in element.members {
            guard case let .value(v) = member else {
                hasChildren = true
                continue
            }
            out += " " + attribute + "=\""
            escape(v.text, attribute: true, into: &out)
            out += "\""
        }
        guard hasChildren else {
            out += "/>"
            return
        }
        out += ">"
        if let text = element.text { escape(text, attribute: false, into: &out) }
        for (child, member) in element.members {
            switch member {
            case .value: break
            case let .element(e): write(e, named: child, into: &out)
            case let .elements(list): for e in list { write(e, named: child, into: &out) }
            case let .values(list):
                for v in list {
                    out += "<" + child + ">"
                    escape(v.text, attribute: false, into: &out)
                    out += "</" + child + ">"
                }
            }
        }
        out += "</" + name + ">"
    }

    /// Markup characters as entities; in an attribute, tab and line breaks as character
    /// references too (a parser would fold them to spaces); characters XML 1.0 cannot carry
    /// (the C0 controls but those three, U+FFFE, U+FFFF) as U+FFFD.
    ///
    /// A string with nothing to escape is appended whole (see `SubsonicJSON.string`).
    static func escape(_ s: String, attribute: Bool, into out: inout String) {
        if s.utf8.allSatisfy(isPlain) {
            out += s
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "'" where attribute: out += "&apos;"
            case "\t" where attribute: out += "&#9;"
            case "\n" where attribute: out += "&#10;"
            case "\r": out += "&#13;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }

    /// A UTF-8 byte that is written as it is wherever it stands: not markup (`&`, `<`, `>`, the
    /// quotes), not a control character, and not 0xEF, the first byte of U+FFFE and U+FFFF (and
    /// of other characters, which then go the careful way).
    static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != 0x26 && byte != 0x3C && byte != 0x3E && byte != 0x22 && byte != 0x27 && byte != 0xEF
    }
}
