/// The generation functions of `boomic playlist`: user intent → the assertions, on the latest basis.
///
/// Positions are 1-based, as people count and as `playlist show` prints them. A playlist keeps
/// duplicates and order exactly as asked. A change that changes nothing gives no assertions.
public enum PlaylistGeneration {
    static let kind = "playlist"

    public static func create(_ name: String, songs: [SongID], id: ListID, on basis: DataBasis) throws(ListError) -> [Assertion] {
        let name = try ListNames.validated(name, kind: kind)
        if let (_, existing) = basis.playlist(named: name) { throw .exists(kind: kind, name: existing.name) }
        return [.playlist(id, EntityChange(old: nil, new: Playlist(name: name, songs: songs)))]
    }

    /// Appends songs at the end (or before 1-based `position`), in the order given.
    public static func add(_ name: String, songs: [SongID], at position: Int? = nil, on basis: DataBasis) throws(ListError) -> [Assertion] {
        try change(name, on: basis) { (p: inout Playlist) throws(ListError) in
            let index = try position.map { (pos: Int) throws(ListError) -> Int in
                guard (1...(p.songs.count + 1)).contains(pos) else {
                    throw ListError.badPosition(playlist: p.name, position: pos, count: p.songs.count + 1)
                }
                return pos - 1
            } ?? p.songs.count
            p.songs.insert(contentsOf: songs, at: index)
        }
    }

    /// Removes the entries at these 1-based positions (each once, whatever the order given).
    public static func remove(_ name: String, positions: [Int], on basis: DataBasis) throws(ListError) -> [Assertion] {
        try change(name, on: basis) { (p: inout Playlist) throws(ListError) in
            for pos in positions where !(1...max(1, p.songs.count)).contains(pos) || p.songs.isEmpty {
                throw .badPosition(playlist: p.name, position: pos, count: p.songs.count)
            }
            for index in Set(positions).sorted(by: >) { p.songs.remove(at: index - 1) }
        }
    }

    /// Moves the entry at `from` so that it ends up at position `to` (both 1-based).
    public static func move(_ name: String, from: Int, to: Int, on basis: DataBasis) throws(ListError) -> [Assertion] {
        try change(name, on: basis) { (p: inout Playlist) throws(ListError) in
            for pos in [from, to] where !(1...max(1, p.songs.count)).contains(pos) || p.songs.isEmpty {
                throw .badPosition(playlist: p.name, position: pos, count: p.songs.count)
            }
            let song = p.songs.remove(at: from - 1)
            p.songs.insert(song, at: to - 1)
        }
    }

    public static func rename(_ name: String, to newName: String, on basis: DataBasis) throws(ListError) -> [Assertion] {
        let (id, _) = try find(name, in: basis)
        let valid = try ListNames.validated(newName, kind: kind)
        if let (other, existing) = basis.playlist(named: valid), other != id { throw .exists(kind: kind, name: existing.name) }
        return try change(name, on: basis) { (p: inout Playlist) throws(ListError) in p.name = valid }
    }

    /// Replaces the playlist's entries (M3U8 import into an existing playlist).
    public static func replace(_ name: String, songs: [SongID], on basis: DataBasis) throws(ListError) -> [Assertion] {
        try change(name, on: basis) { (p: inout Playlist) throws(ListError) in p.songs = songs }
    }

    public static func delete(_ name: String, on basis: DataBasis) throws(ListError) -> [Assertion] {
        let (id, old) = try find(name, in: basis)
        return [.playlist(id, EntityChange(old: old, new: nil))]
    }

    public static func find(_ name: String, in basis: DataBasis) throws(ListError) -> (ListID, Playlist) {
        if let found = basis.playlist(named: name) { return found }
        throw .notFound(kind: kind, name: name,
                        suggestion: ListNames.suggestion(for: name, among: basis.playlistsByName.map(\.playlist.name)))
    }

    private static func change(_ name: String, on basis: DataBasis,
                               _ body: (inout Playlist) throws(ListError) -> Void) throws(ListError) -> [Assertion] {
        let (id, old) = try find(name, in: basis)
        var new = old
        try body(&new)
        return new == old ? [] : [.playlist(id, EntityChange(old: old, new: new))]
    }
}
