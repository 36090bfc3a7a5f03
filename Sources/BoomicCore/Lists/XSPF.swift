import Foundation

/// XSPF, the XML playlist VLC, Audacious, Strawberry and Clementine write: each
/// `<trackList><track>` names its file in a `<location>` URI (`file:///…` or relative to the
/// playlist, percent-escaped).
///
/// Read by a small scanner of tags and text rather than an XML library: a playlist file is not
/// trusted input, and a tolerant reader of the few elements that matter takes the broken files
/// real players leave (no declaration, undeclared prefixes) where a strict parser stops.
public enum XSPF {
    /// The playlist's `<title>` and the paths its tracks name, in order (the first `<location>`
    /// of each track), each decoded and read as `M3U.path(of:base:)` reads an entry; nil when
    /// the text has no `<playlist>`.
    public static func parse(_ text: String, base: String) -> (name: String?, paths: [String])? {
        var stack: [Substring] = []
        var sawPlaylist = false
        var current = "" // the text of the location being read
        var found: String? // the track's first location: later ones are its alternatives
        var paths: [String] = []
        var title: String?
        func collecting() -> Bool { found == nil && stack.last == "location" && stack.dropLast().last == "track" }
        /// Text between tags, where it belongs: a track's location, or the playlist's title.
        func take(_ chars: some StringProtocol) {
            if collecting() { current += chars }
            if stack.count == 2 && stack[0] == "playlist" && stack[1] == "title" { title = (title ?? "") + chars }
        }
        var text = Substring(text)
        while let open = text.firstIndex(of: "<") {
            take(unescaped(text[..<open]))
            text = text[open...]
            if text.hasPrefix("<!--") { text = text.after("-->"); continue }
            if text.hasPrefix("<![CDATA[") {
                let body = text.dropFirst(9)
                let end = body.range(of: "]]>")
                take(body[..<(end?.lowerBound ?? body.endIndex)])
                text = end.map { body[$0.upperBound...] } ?? ""
                continue
            }
            if text.hasPrefix("<?") || text.hasPrefix("<!") { text = text.after(">"); continue }
            let tag = tagText(text)
            text = text[tag.endIndex...]
            let name = localName(tag)
            if tag.dropFirst().hasPrefix("/") {
                if name == "location", collecting() {
                    let location = current.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !location.isEmpty { found = location }
                }
                if name == "track", let found, stack.contains("trackList") { paths.append(path(of: found, base: base)) }
                if let at = stack.lastIndex(of: name) { stack.removeSubrange(at...) }
            } else {
                if name == "playlist" { sawPlaylist = true }
                if name == "track" { found = nil }
                if name == "location" { current = "" }
                if !tag.hasSuffix("/>") { stack.append(name) }
            }
        }
        let name = title?.trimmingCharacters(in: .whitespacesAndNewlines)
        return sawPlaylist ? (name?.isEmpty == false ? name : nil, paths) : nil
    }

    /// A `<location>` URI as a path: escapes decoded (a `%` that starts none is kept), then
    /// read as an M3U entry; a stream's URL is left as it is.
    static func path(of location: String, base: String) -> String {
        if M3U.isURL(location) { return M3U.path(of: location, base: base) }
        return M3U.path(of: location.removingPercentEncoding ?? location, base: base)
    }

    /// The tag at the start of `text`, `<` to `>`, quoted `>` inside attributes skipped.
    private static func tagText(_ text: Substring) -> Substring {
        var quote: Character?
        var i = text.index(after: text.startIndex)
        while i < text.endIndex {
            let c = text[i]
            if let q = quote { if c == q { quote = nil } } else if c == "\"" || c == "'" { quote = c } else if c == ">" {
                return text[...i]
            }
            i = text.index(after: i)
        }
        return text
    }

    /// An element's name without its namespace prefix: `xspf:location` is `location`.
    private static func localName(_ tag: Substring) -> Substring {
        var name = tag.dropFirst()
        if name.hasPrefix("/") { name = name.dropFirst() }
        name = name.prefix { !($0.isWhitespace || $0 == "/" || $0 == ">") }
        if let colon = name.lastIndex(of: ":") { name = name[name.index(after: colon)...] }
        return name
    }

    /// XML text with its five named entities and numeric references replaced.
    static func unescaped(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[amp...]
            guard let semi = rest.prefix(12).firstIndex(of: ";") else { out += "&"; rest = rest.dropFirst(); continue }
            let entity = rest[rest.index(after: rest.startIndex)..<semi]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"][String(entity)]
            var scalar: Unicode.Scalar?
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") { scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
            else if entity.hasPrefix("#") { scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init) }
            if let replacement = named ?? scalar.map({ String(Character($0)) }) {
                out += replacement
                rest = rest[rest.index(after: semi)...]
            } else {
                out += "&"
                rest = rest.dropFirst()
            }
        }
        return out + rest
    }
}

extension Substring {
    /// What follows the first `marker`, or nothing when there is none.
    fileprivate func after(_ marker: String) -> Substring {
        range(of: marker).map { self[$0.upperBound...] } ?? ""
    }
}
