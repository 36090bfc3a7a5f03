/// How a beets item's values become a Boomic song's: the rules of `boomic migrate beets`,
/// pure, so they are tested as laws without beets or files (Documentation/import.md states them).
///
/// - A value is beets' when it is set: an item's own value beats its album's, and an unset one
///   (NULL, empty, 0 in a number column) leaves the song's as it was.
/// - Tag fields are set as a library edit sets them (`Song.edit`): the file's value is
///   remembered, so `write` has them to write and a rescan keeps them (`beet modify -W` leaves
///   values in beets' database only).
/// - mpdstats' `play_count`, `skip_count`, `last_played` and `rating` (0–1) fill Boomic's own
///   fields; other flexible attributes, and beets fields Boomic lacks (`carriedAsUserFields`),
///   become user fields, named as in beets (with `beets_` before a name Boomic's own fields use).
public enum BeetsMapping {
    /// beets columns that are Boomic tag fields of the same meaning, single-valued.
    static let tagColumns: [(column: String, field: SongField)] = [
        ("title", .title), ("album", .album), ("albumartist", .albumartist),
        ("artist_sort", .artistSort), ("albumartist_sort", .albumartistSort), ("composer_sort", .composerSort),
        ("work", .work), ("grouping", .grouping), ("label", .label), ("comments", .comment),
        ("track", .track), ("tracktotal", .tracktotal), ("disc", .disc), ("disctotal", .disctotal), ("year", .year),
        ("rg_track_gain", .replaygainTrackGain), ("rg_track_peak", .replaygainTrackPeak),
        ("rg_album_gain", .replaygainAlbumGain), ("rg_album_peak", .replaygainAlbumPeak),
        ("mb_trackid", .mbTrackID), ("mb_albumid", .mbAlbumID), ("mb_artistid", .mbArtistID),
        ("mb_albumartistid", .mbAlbumArtistID), ("mb_releasegroupid", .mbReleaseGroupID),
        ("mb_releasetrackid", .mbReleaseTrackID), ("mb_workid", .mbWorkID),
    ]

    /// Columns read by a rule of their own (several columns make one field, or one list).
    static let combinedColumns: Set<String> = [
        "artist", "artists", "albumartists", "genre", "genres", "composer", "composers", "comp",
        "month", "day", "original_year", "original_month", "original_day",
    ]

    /// Columns not carried: beets' own bookkeeping (ids, `path`, `added`, `artpath`, which have
    /// rules of their own) and what Boomic reads from the file itself (audio properties,
    /// `mtime`) or computes (`acoustid_fingerprint`).
    public static let notCarried: Set<String> = [
        "id", "album_id", "path", "added", "artpath", "mtime",
        "length", "bitrate", "bitrate_mode", "format", "samplerate", "bitdepth", "channels",
        "encoder_info", "encoder_settings", "acoustid_fingerprint",
    ]

    /// The flexible attributes mpdstats keeps, which are Boomic's own play fields.
    public static let playAttributes: Set<String> = ["play_count", "skip_count", "last_played", "rating"]

    /// beets fields (1.6 and 2.x) that Boomic has no field for, carried as user fields under
    /// these names: the documented list. Any other column a later beets adds is carried too.
    public static let carriedAsUserFields: [String] = [
        "acoustid_id", "albumdisambig", "albumstatus", "albumtype", "albumtypes", "arranger", "arrangers",
        "arrangers_ids", "artists_ids", "asin", "barcode", "bpm", "catalognum", "composers_ids", "country",
        "data_source", "disctitle", "discogs_albumid", "discogs_artistid", "discogs_labelid", "encoder",
        "initial_key", "isrc", "language", "lyricist", "lyricists", "lyricists_ids", "lyrics", "media",
        "mb_albumartistids", "mb_artistids", "r128_album_gain", "r128_track_gain", "release_group_title",
        "releasegroupdisambig", "remixer", "remixers", "remixers_ids", "script", "style", "subtitle",
        "trackdisambig", "work_disambig", "albumartist_credit", "artists_credit", "albumartists_credit",
        "artists_sort", "albumartists_sort",
        // As `beets_artist_credit`: Boomic's `artist_credit` is the file's ARTIST beside its ARTISTS.
        "artist_credit",
    ]

    /// The user field a beets name becomes: lower-cased, with `beets_` before a name that
    /// already names a Boomic field; nil when it cannot name a field (`FieldName`).
    public static func userFieldName(_ beetsName: String) -> String? {
        let name = beetsName.lowercased()
        let named = FieldName.resolve(name) != nil || name == "id" ? "beets_" + name : name
        return FieldName.isValidUserFieldName(named) ? named : nil
    }

    /// What one item brings: the values to set, and what could not be carried.
    public static func values(of r: BeetsRecord) -> BeetsValues {
        var v = BeetsValues()
        // The item's own value when set, else its album's.
        func pick(_ column: String) -> BeetsValue? {
            if let x = r.item[column], !x.isUnset { return x }
            if let x = r.album[column], !x.isUnset { return x }
            return nil
        }
        for (column, field) in tagColumns {
            guard let x = pick(column) else { continue }
            let value: FieldValue? = switch field.kind {
            case .int: x.int.flatMap { $0 > 0 ? .int($0) : nil }
            case .double: x.double.map(FieldValue.double)
            default: x.text.map(FieldValue.string)
            }
            if let value { v.tags[field] = value } else { v.unknown.append("\(column)=\(x.text ?? "?")") }
        }
        if let a = pick("albumartists"), v.tags[.albumartist] == nil { v.tags[.albumartist] = .string(a.list.joined(separator: "; ")) }
        if let g = pick("genres") ?? pick("genre") { v.tags[.genre] = .string(g.list.joined(separator: "; ")) }
        if let c = pick("composers") ?? pick("composer") { v.tags[.composer] = .string(c.list.joined(separator: "; ")) }
        if pick("comp")?.int == 1 { v.tags[.compilation] = .bool(true) }
        if let date = date(pick("year"), pick("month"), pick("day")), date.count > 4 { v.tags[.date] = .string(date) }
        if let date = date(pick("original_year"), pick("original_month"), pick("original_day")) {
            v.tags[.originalDate] = .string(date)
        }
        v.artist = pick("artist")?.text
        v.artists = pick("artists")?.list ?? []
        if let added = r.item["added"]?.double, added > 0 { v.added = added }

        // Fields Boomic lacks, then flexible attributes (the album's, then the item's own).
        let mapped = Set(tagColumns.map(\.column)).union(combinedColumns).union(notCarried)
        for column in Set(r.item.keys).union(r.album.keys).subtracting(mapped).sorted() {
            guard let text = pick(column)?.text else { continue }
            carry(column, text, into: &v)
        }
        for (name, text) in r.albumFlex.sorted(by: { $0.key < $1.key }) where !playAttributes.contains(name) && !text.isEmpty {
            carry(name, text, into: &v)
        }
        for (name, text) in r.flex.sorted(by: { $0.key < $1.key }) where !text.isEmpty {
            if playAttributes.contains(name) { play(name, text, into: &v) } else { carry(name, text, into: &v) }
        }
        return v
    }

    private static func carry(_ name: String, _ text: String, into v: inout BeetsValues) {
        guard let field = userFieldName(name) else {
            v.unknown.append("\(name)=\(text) (a name Boomic's fields cannot take)")
            return
        }
        v.userFields[field] = text
    }

    private static func play(_ name: String, _ text: String, into v: inout BeetsValues) {
        let number = Double(text.trimmingCharacters(in: .whitespaces))
        switch name {
        case "play_count", "skip_count":
            guard let n = number.flatMap({ Int(exactly: $0) }), n >= 0 else {
                v.unknown.append("\(name)=\(text) (not a count)")
                return
            }
            if name == "play_count" { v.playcount = n } else { v.skipcount = n }
        case "last_played":
            guard let t = number, t > 0 else { v.unknown.append("\(name)=\(text) (not a time)"); return }
            v.lastplayed = t
        default:
            // mpdstats rates from 0 to 1; Boomic keeps 0–5 stars.
            guard let r = number, (0...1).contains(r) else {
                v.unknown.append("rating=\(text) (mpdstats rates from 0 to 1)")
                return
            }
            v.rating = Int((r * 5).rounded())
        }
    }

    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` from beets' three numbers; nil without a year.
    static func date(_ year: BeetsValue?, _ month: BeetsValue?, _ day: BeetsValue?) -> String? {
        guard let y = year?.int, (1...9999).contains(y) else { return nil }
        var s = padded(y, 4)
        guard let m = month?.int, (1...12).contains(m) else { return s }
        s += "-" + padded(m, 2)
        guard let d = day?.int, (1...31).contains(d) else { return s }
        return s + "-" + padded(d, 2)
    }

    private static func padded(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Sets what beets brings on `song`: tags as library edits, user fields, plays (the larger
    /// count and the later time win, so a second run changes nothing), the rating when the
    /// song has none, and the earlier `added`.
    public static func apply(_ v: BeetsValues, to song: inout Song) {
        for (field, value) in v.tags.sorted(by: { $0.key < $1.key }) { song.edit(field, to: value) }
        if !v.artists.isEmpty {
            if song.artists != v.artists { song.edit(.artists, to: .strings(v.artists)) }
            let credit = v.artist.flatMap { $0 == v.artists.joined(separator: "; ") ? nil : $0 }
            if song.artistCredit != credit { song.edit(.artistCredit, to: credit.map(FieldValue.string) ?? .null) }
        } else if let a = v.artist, song.artist != a {
            song.edit(.artists, to: .strings([a]))
            song.edit(.artistCredit, to: .null)
        }
        for (name, value) in v.userFields.sorted(by: { $0.key < $1.key }) where song.userField(name) != value {
            song.setUserField(name, to: value)
        }
        if let n = v.playcount, n > song.playcount { song.playcount = n }
        if let n = v.skipcount, n > song.skipcount { song.skipcount = n }
        if let t = v.lastplayed, t > (song.lastplayed ?? 0) { song.lastplayed = t }
        if let r = v.rating, song.rating == nil { song.rating = r }
        if let a = v.added, song.added == 0 || a < song.added { song.added = a }
    }
}
