/// What an MPD sticker on a song is in Boomic: the one mapping that `boomic serve`'s `sticker`
/// command and `boomic migrate mpd` share.
///
/// Three names are Boomic's own fields: `rating` (0–10 as MPD clients use it; Boomic keeps 0–5
/// stars, so a client's 7 is 4 stars, read back as 8; 0 is no rating), `playcount` and
/// `favorite` (0 or 1). Any other name a client sticks on a song (myMPD's `playCount`,
/// `lastPlayed`, `like`, …) is kept as it spells it in the song's `stickers`.
public enum MPDSticker {
    /// The stickers that are fields of Boomic's own.
    public static let fieldNames = ["rating", "playcount", "favorite"]

    /// What one sticker sets on a song.
    public enum Meaning: Equatable, Sendable {
        /// One of Boomic's own fields (`rating`, `playcount`, `favorite`).
        case field(FieldAssignment)
        /// A client's own sticker, kept as `name=value` in the song's `stickers`.
        case own(name: String, value: String)
    }

    /// Why a sticker has no meaning in Boomic; `description` is the one line a client or a
    /// migration report shows (MPD's own words where it has them).
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The field a sticker name stands for, nil for a client's own name.
    public static func field(_ name: String) -> SongField? {
        switch name {
        case "rating": .rating
        case "playcount": .playcount
        case "favorite": .favorite
        default: nil
        }
    }

    /// What `sticker set song URI NAME VALUE` sets.
    public static func meaning(name: String, value: String) throws(Refusal) -> Meaning {
        switch name {
        case "rating":
            guard let n = Int(value), (0...10).contains(n) else { throw Refusal(description: "rating takes 0 to 10") }
            return .field(FieldAssignment(field: .rating, value: n == 0 ? .null : .int((n + 1) / 2)))
        case "playcount":
            guard let n = Int(value), n >= 0 else { throw Refusal(description: "playcount takes a whole number") }
            return .field(FieldAssignment(field: .playcount, value: .int(n)))
        case "favorite":
            guard value == "0" || value == "1" else { throw Refusal(description: "favorite takes 0 or 1") }
            return .field(FieldAssignment(field: .favorite, value: .bool(value == "1")))
        default:
            // Kept as `name=value`: a name with "=" in it would read back as another.
            guard !name.isEmpty, !name.contains("=") else { throw Refusal(description: "bad sticker name") }
            return .own(name: name, value: value)
        }
    }

    /// What deleting the sticker `name` sets: its field cleared (`favorite` to false).
    public static func cleared(_ field: SongField) -> FieldAssignment {
        FieldAssignment(field: field, value: field == .favorite ? .bool(false) : .null)
    }

    /// A sticker's value as clients read it; nil when the song has none (MPD answers "no such
    /// sticker" for an empty value too, though `list` shows it).
    public static func value(_ name: String, of song: Song) -> String? {
        switch name {
        case "rating": song.rating.map { String($0 * 2) }
        case "playcount": song.playcount > 0 ? String(song.playcount) : nil
        case "favorite": song.favorite ? "1" : nil
        default: song.sticker(name).flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// Every sticker of the song, by name's bytes, as MPD lists them.
    public static func stickers(of song: Song) -> [(name: String, value: String)] {
        let own: [(name: String, value: String)] = fieldNames.compactMap { n in value(n, of: song).map { (n, $0) } }
        return (own + song.stickerPairs).sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }
}
