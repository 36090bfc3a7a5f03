import Foundation
import BoomicCore

/// `-f FORMAT` templates as beets writes them: `$field` or `${field}`, with the field names of
/// DESIGN §4 (`$artist` the display string, `$tags` with `#`) and the library's user fields
/// (`$mood`, empty for a song without it, as beets renders a flexible attribute). An unknown
/// field is an error.
struct SongFormat {
    private enum Piece { case text(String), field(String), userField(String) }
    private let pieces: [Piece]

    /// - Parameter userFields: the library's user fields (`DataBasis.userFieldNames`), gathered
    ///   (a pass over the songs) only when the template names something no built-in field is.
    init(_ template: String, userFields: @autoclosure () -> Set<String> = []) throws(FieldError) {
        var names: Set<String>?
        var pieces: [Piece] = []
        var text = ""
        var i = template.startIndex
        while i < template.endIndex {
            let c = template[i]
            guard c == "$" else { text.append(c); i = template.index(after: i); continue }
            var j = template.index(after: i)
            var name = ""
            if j < template.endIndex, template[j] == "{" {
                j = template.index(after: j)
                while j < template.endIndex, template[j] != "}" { name.append(template[j]); j = template.index(after: j) }
                if j < template.endIndex { j = template.index(after: j) }
            } else {
                while j < template.endIndex, template[j].isLetter || template[j].isNumber || template[j] == "_" {
                    name.append(template[j]); j = template.index(after: j)
                }
            }
            if name.isEmpty { text.append("$"); i = template.index(after: i); continue }
            if !text.isEmpty { pieces.append(.text(text)); text = "" }
            if Self.known(name) {
                pieces.append(.field(name))
            } else {
                let user = names ?? userFields()
                names = user
                guard user.contains(name.lowercased()) else {
                    throw .unknownField(name, suggestion: FieldName.suggestion(for: name, userFields: user))
                }
                pieces.append(.userField(name.lowercased()))
            }
            i = j
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        self.pieces = pieces
    }

    private static func known(_ name: String) -> Bool {
        ["id", "artist", "albumartist", "tags", "length"].contains(name) || FieldName.resolve(name) != nil
    }

    /// The fields `render` reads of a song besides its id and path, so that a listing reads
    /// only these of each song (`DataBasis.songs(matching:reading:)`).
    var fieldsRead: [SongField] {
        pieces.flatMap { p -> [SongField] in
            switch p {
            case .text: return []
            case .field(let f): return Self.fieldsRead(by: f)
            case .userField: return [.userFields]
            }
        }
    }

    /// What `value(_:of:)` reads for a name: its field, and those a derived value reads.
    private static func fieldsRead(by name: String) -> [SongField] {
        switch name {
        case "id": return []
        case "artist": return [.artistCredit, .artists]
        case "albumartist": return [.albumartist, .compilation, .artists]
        case "length": return [.duration]
        default: return FieldName.resolve(name).map { [$0] } ?? []
        }
    }

    /// The fields `line` reads of a song besides its path.
    static let lineFields: [SongField] = [.artistCredit, .artists, .album, .title]

    func render(_ s: Song) -> String {
        pieces.map { p in
            switch p {
            case .text(let t): return t
            case .field(let f): return Terminal.printable(Self.value(f, of: s))
            case .userField(let name): return Terminal.printable(s.userField(name) ?? "")
            }
        }.joined()
    }

    /// The default line for a song: artist - album - title, leaving out what the song lacks
    /// (an untagged file is shown by its file name, extension and all: `no tags.mp3` and
    /// `no tags.flac` are two songs, and a listing must tell them apart).
    static func line(_ s: Song) -> String {
        Terminal.printable([s.artist ?? "", s.album ?? "", s.title ?? fileName(s.path)].filter { !$0.isEmpty }.joined(separator: " - "))
    }

    /// The last component of a path.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// An untagged song's title in a playlist file, as players show it: the name without its extension.
    static func fileStem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    static func value(_ name: String, of s: Song) -> String {
        switch name {
        case "id": return s.id.description
        case "title": return s.title ?? Self.fileName(s.path)
        case "artist": return s.artist ?? ""
        case "albumartist": return s.effectiveAlbumArtist ?? ""
        case "tags": return s.tags.map { "#" + $0 }.joined(separator: " ")
        case "length", "duration": return Formatting.duration(s.duration)
        case "bookmark": return Formatting.duration(s.bookmark)
        case "lastplayed", "last_played": return s.lastplayed.map(Formatting.localTime) ?? ""
        // Text shows kbit/s, as beets' `$bitrate` does; queries and --json use bit/s.
        case "bitrate": return s.bitrate.map { "\($0)kbps" } ?? ""
        case "track", "disc":
            let v = name == "track" ? s.track : s.disc
            return v.map { String(format: "%02d", $0) } ?? ""
        default:
            guard let f = FieldName.resolve(name) else { return "" }
            let v = f.value(in: s)
            return v.isNull ? "" : v.description
        }
    }
}
