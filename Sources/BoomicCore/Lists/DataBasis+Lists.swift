import Foundation

/// Finding taglists and playlists by the names people type.
///
/// Names match case- and accent-insensitively (`boomic taglist show Mix` finds `mix`), the way
/// the rest of the library matches names; the generation functions keep names unique under that
/// folding, so a name finds at most one list.
extension DataBasis {
    /// The taglist of that name; should two ever share it (a log merged from elsewhere), the one
    /// with the smallest id, so the answer never depends on hash order.
    public func taglist(named name: String) -> (id: ListID, taglist: Taglist)? {
        let key = ListNames.key(name)
        return taglists.filter { ListNames.key($0.value.name) == key }.min { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    public func playlist(named name: String) -> (id: ListID, playlist: Playlist)? {
        let key = ListNames.key(name)
        return playlists.filter { ListNames.key($0.value.name) == key }.min { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Taglists sorted by name, for listing.
    public var taglistsByName: [(id: ListID, taglist: Taglist)] {
        taglists.map { ($0.key, $0.value) }.sorted { ListNames.order($0.taglist.name, $0.id, $1.taglist.name, $1.id) }
    }

    public var playlistsByName: [(id: ListID, playlist: Playlist)] {
        playlists.map { ($0.key, $0.value) }.sorted { ListNames.order($0.playlist.name, $0.id, $1.playlist.name, $1.id) }
    }
}

/// The rules for list names, shared by taglists and playlists.
public enum ListNames {
    /// The folded form under which names are unique: case, accents and runs of spaces ignored.
    public static func key(_ name: String) -> String {
        Fold.key(name.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }

    static func order(_ a: String, _ ia: ListID, _ b: String, _ ib: ListID) -> Bool {
        let (ka, kb) = (key(a), key(b))
        return ka != kb ? ka < kb : ia < ib
    }

    /// What MPD clients see before a taglist's name, in the list of playlists.
    public static let taglistPrefix = "taglist: "

    /// A usable name: trimmed, inner runs of spaces made one, one line of printable characters
    /// (no control or invisible format characters), at most 200 characters.
    public static func validated(_ name: String, kind: String) throws(ListError) -> String {
        if name.unicodeScalars.contains(where: { [.control, .format].contains($0.properties.generalCategory)
                                                 || $0.properties.isWhitespace && $0 != " " }) {
            throw .badName(kind: kind, name: name.debugDescription, reason: "a name is one line of printable characters")
        }
        let trimmed = name.split(separator: " ").joined(separator: " ")
        if trimmed.isEmpty { throw .badName(kind: kind, name: name, reason: "a \(kind) needs a name") }
        if trimmed.count > 200 { throw .badName(kind: kind, name: String(trimmed.prefix(40)) + "…", reason: "a name has at most 200 characters") }
        // MPD clients see taglists as read-only playlists named `taglist: NAME`.
        if kind == "playlist", key(trimmed).hasPrefix(taglistPrefix.lowercased().trimmingCharacters(in: .whitespaces)) {
            throw .badName(kind: kind, name: trimmed, reason: "'\(taglistPrefix)' names taglists as MPD clients see them")
        }
        return trimmed
    }

    /// The closest existing name, for "did you mean".
    static func suggestion(for name: String, among names: some Sequence<String>) -> String? {
        let key = key(name)
        guard !key.isEmpty else { return nil }
        return names.first { let k = ListNames.key($0); return k.hasPrefix(key) || key.hasPrefix(k) || k.contains(key) }
    }
}

/// A taglist or a playlist: both have a name, unique among their kind.
public protocol NamedList { var name: String { get } }
extension Taglist: NamedList {}
extension Playlist: NamedList {}
