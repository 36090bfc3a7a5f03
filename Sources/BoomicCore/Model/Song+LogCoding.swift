/// The log's JSON form of a song's fields: each field under its user's name (`SongField`'s raw
/// value), the name update rows, queries, `modify` and `--json` use, so the log speaks one language.
///
/// Add and delete rows written before that used the Swift property names (`fileValues`,
/// `mbTrackID`); the log is append-only and checksummed, so those rows are read as they are,
/// forever. Both loops switch over every `SongField`: a new field does not compile until it is
/// written and read here, under its `SongField` name.
extension Song.Fields {
    struct Key: CodingKey, ExpressibleByStringLiteral {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init(stringLiteral value: String) { stringValue = value }
        init?(intValue: Int) { nil }
        init(_ field: SongField) { stringValue = field.rawValue }
    }

    /// How add and delete rows spelled the fields whose Swift name is not the user's, until the
    /// log spoke one language. Frozen: a field added since never had another spelling.
    static let oldKeys: [SongField: Key] = [
        .replaygainTrackGain: "replaygainTrackGain", .replaygainTrackPeak: "replaygainTrackPeak",
        .replaygainAlbumGain: "replaygainAlbumGain", .replaygainAlbumPeak: "replaygainAlbumPeak",
        .mbTrackID: "mbTrackID", .mbAlbumID: "mbAlbumID", .mbArtistID: "mbArtistID",
        .mbAlbumArtistID: "mbAlbumArtistID", .mbReleaseGroupID: "mbReleaseGroupID",
        .fileValues: "fileValues", .userFields: "userFields",
    ]

    /// Made once, as are the keys (this runs once per song): `allCases` builds a new array on
    /// every call.
    private static let fields = SongField.allCases
    private static let keys = fields.map(Key.init)
    private static let oldSpelling = fields.map { oldKeys[$0] ?? Key($0) }

    /// Optional fields are left out when nil, `userFields` when empty and `skipcount` when 0, so
    /// rows read the same
    /// whether written before or after a field existed; the others are always written.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for (f, k) in zip(Self.fields, Self.keys) {
            switch f {
            case .path: try c.encode(path, forKey: k)
            case .size: try c.encode(size, forKey: k)
            case .mtime: try c.encode(mtime, forKey: k)
            case .fingerprint: try c.encodeIfPresent(fingerprint, forKey: k)
            case .missing: try c.encode(missing, forKey: k)
            case .added: try c.encode(added, forKey: k)
            case .title: try c.encodeIfPresent(title, forKey: k)
            case .artists: try c.encode(artists, forKey: k)
            case .artistCredit: try c.encodeIfPresent(artistCredit, forKey: k)
            case .album: try c.encodeIfPresent(album, forKey: k)
            case .albumartist: try c.encodeIfPresent(albumartist, forKey: k)
            case .artistSort: try c.encodeIfPresent(artistSort, forKey: k)
            case .albumartistSort: try c.encodeIfPresent(albumartistSort, forKey: k)
            case .albumSort: try c.encodeIfPresent(albumSort, forKey: k)
            case .performer: try c.encodeIfPresent(performer, forKey: k)
            case .conductor: try c.encodeIfPresent(conductor, forKey: k)
            case .label: try c.encodeIfPresent(label, forKey: k)
            case .originalDate: try c.encodeIfPresent(originalDate, forKey: k)
            case .composerSort: try c.encodeIfPresent(composerSort, forKey: k)
            case .work: try c.encodeIfPresent(work, forKey: k)
            case .movement: try c.encodeIfPresent(movement, forKey: k)
            case .movementNumber: try c.encodeIfPresent(movementNumber, forKey: k)
            case .movementTotal: try c.encodeIfPresent(movementTotal, forKey: k)
            case .grouping: try c.encodeIfPresent(grouping, forKey: k)
            case .ensemble: try c.encodeIfPresent(ensemble, forKey: k)
            case .location: try c.encodeIfPresent(location, forKey: k)
            case .track: try c.encodeIfPresent(track, forKey: k)
            case .tracktotal: try c.encodeIfPresent(tracktotal, forKey: k)
            case .disc: try c.encodeIfPresent(disc, forKey: k)
            case .disctotal: try c.encodeIfPresent(disctotal, forKey: k)
            case .year: try c.encodeIfPresent(year, forKey: k)
            case .date: try c.encodeIfPresent(date, forKey: k)
            case .genre: try c.encodeIfPresent(genre, forKey: k)
            case .composer: try c.encodeIfPresent(composer, forKey: k)
            case .compilation: try c.encode(compilation, forKey: k)
            case .comment: try c.encodeIfPresent(comment, forKey: k)
            case .replaygainTrackGain: try c.encodeIfPresent(replaygainTrackGain, forKey: k)
            case .replaygainTrackPeak: try c.encodeIfPresent(replaygainTrackPeak, forKey: k)
            case .replaygainAlbumGain: try c.encodeIfPresent(replaygainAlbumGain, forKey: k)
            case .replaygainAlbumPeak: try c.encodeIfPresent(replaygainAlbumPeak, forKey: k)
            case .mbTrackID: try c.encodeIfPresent(mbTrackID, forKey: k)
            case .mbAlbumID: try c.encodeIfPresent(mbAlbumID, forKey: k)
            case .mbArtistID: try c.encodeIfPresent(mbArtistID, forKey: k)
            case .mbAlbumArtistID: try c.encodeIfPresent(mbAlbumArtistID, forKey: k)
            case .mbReleaseGroupID: try c.encodeIfPresent(mbReleaseGroupID, forKey: k)
            case .mbReleaseTrackID: try c.encodeIfPresent(mbReleaseTrackID, forKey: k)
            case .mbWorkID: try c.encodeIfPresent(mbWorkID, forKey: k)
            case .duration: try c.encodeIfPresent(duration, forKey: k)
            case .samplerate: try c.encodeIfPresent(samplerate, forKey: k)
            case .bitdepth: try c.encodeIfPresent(bitdepth, forKey: k)
            case .channels: try c.encodeIfPresent(channels, forKey: k)
            case .bitrate: try c.encodeIfPresent(bitrate, forKey: k)
            case .format: try c.encodeIfPresent(format, forKey: k)
            case .start: try c.encodeIfPresent(start, forKey: k)
            case .end: try c.encodeIfPresent(end, forKey: k)
            case .sheet: try c.encodeIfPresent(sheet, forKey: k)
            case .tags: try c.encode(tags, forKey: k)
            case .rating: try c.encodeIfPresent(rating, forKey: k)
            case .playcount: try c.encode(playcount, forKey: k)
            case .favorite: try c.encode(favorite, forKey: k)
            case .art: try c.encodeIfPresent(art, forKey: k)
            case .fileValues: try c.encode(fileValues, forKey: k)
            case .userFields: try c.encodeIfPresent(userFields, forKey: k)
            case .stickers: try c.encodeIfPresent(stickers, forKey: k)
            case .guessed: try c.encodeIfPresent(guessed, forKey: k)
            // Left out while 0, as optionals are while nil: rows read the same as before plays.
            case .skipcount: if skipcount != 0 { try c.encode(skipcount, forKey: k) }
            case .lastplayed: try c.encodeIfPresent(lastplayed, forKey: k)
            case .bookmark: try c.encodeIfPresent(bookmark, forKey: k)
            case .bookmarkSpeed: try c.encodeIfPresent(bookmarkSpeed, forKey: k)
            }
        }
    }

    /// Reads either spelling; the fields always written are required, as they always were.
    /// A row is in one spelling or the other, told by `file_values`, which both always wrote.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(path: "")
        let old = !c.contains(Key(.fileValues)) && c.contains(Self.oldKeys[.fileValues]!)
        for (f, k) in zip(Self.fields, old ? Self.oldSpelling : Self.keys) {
            switch f {
            case .path: path = try c.decode(String.self, forKey: k)
            case .size: size = try c.decode(Int.self, forKey: k)
            case .mtime: mtime = try c.decode(Int.self, forKey: k)
            case .fingerprint: fingerprint = try c.decodeIfPresent(String.self, forKey: k)
            case .missing: missing = try c.decode(Bool.self, forKey: k)
            case .added: added = try c.decode(Double.self, forKey: k)
            case .title: title = try c.decodeIfPresent(String.self, forKey: k)
            case .artists: artists = try c.decode([String].self, forKey: k)
            case .artistCredit: artistCredit = try c.decodeIfPresent(String.self, forKey: k)
            case .album: album = try c.decodeIfPresent(String.self, forKey: k)
            case .albumartist: albumartist = try c.decodeIfPresent(String.self, forKey: k)
            case .artistSort: artistSort = try c.decodeIfPresent(String.self, forKey: k)
            case .albumartistSort: albumartistSort = try c.decodeIfPresent(String.self, forKey: k)
            case .albumSort: albumSort = try c.decodeIfPresent(String.self, forKey: k)
            case .performer: performer = try c.decodeIfPresent(String.self, forKey: k)
            case .conductor: conductor = try c.decodeIfPresent(String.self, forKey: k)
            case .label: label = try c.decodeIfPresent(String.self, forKey: k)
            case .originalDate: originalDate = try c.decodeIfPresent(String.self, forKey: k)
            case .composerSort: composerSort = try c.decodeIfPresent(String.self, forKey: k)
            case .work: work = try c.decodeIfPresent(String.self, forKey: k)
            case .movement: movement = try c.decodeIfPresent(String.self, forKey: k)
            case .movementNumber: movementNumber = try c.decodeIfPresent(Int.self, forKey: k)
            case .movementTotal: movementTotal = try c.decodeIfPresent(Int.self, forKey: k)
            case .grouping: grouping = try c.decodeIfPresent(String.self, forKey: k)
            case .ensemble: ensemble = try c.decodeIfPresent(String.self, forKey: k)
            case .location: location = try c.decodeIfPresent(String.self, forKey: k)
            case .track: track = try c.decodeIfPresent(Int.self, forKey: k)
            case .tracktotal: tracktotal = try c.decodeIfPresent(Int.self, forKey: k)
            case .disc: disc = try c.decodeIfPresent(Int.self, forKey: k)
            case .disctotal: disctotal = try c.decodeIfPresent(Int.self, forKey: k)
            case .year: year = try c.decodeIfPresent(Int.self, forKey: k)
            case .date: date = try c.decodeIfPresent(String.self, forKey: k)
            case .genre: genre = try c.decodeIfPresent(String.self, forKey: k)
            case .composer: composer = try c.decodeIfPresent(String.self, forKey: k)
            case .compilation: compilation = try c.decode(Bool.self, forKey: k)
            case .comment: comment = try c.decodeIfPresent(String.self, forKey: k)
            case .replaygainTrackGain: replaygainTrackGain = try c.decodeIfPresent(Double.self, forKey: k)
            case .replaygainTrackPeak: replaygainTrackPeak = try c.decodeIfPresent(Double.self, forKey: k)
            case .replaygainAlbumGain: replaygainAlbumGain = try c.decodeIfPresent(Double.self, forKey: k)
            case .replaygainAlbumPeak: replaygainAlbumPeak = try c.decodeIfPresent(Double.self, forKey: k)
            case .mbTrackID: mbTrackID = try c.decodeIfPresent(String.self, forKey: k)
            case .mbAlbumID: mbAlbumID = try c.decodeIfPresent(String.self, forKey: k)
            case .mbArtistID: mbArtistID = try c.decodeIfPresent(String.self, forKey: k)
            case .mbAlbumArtistID: mbAlbumArtistID = try c.decodeIfPresent(String.self, forKey: k)
            case .mbReleaseGroupID: mbReleaseGroupID = try c.decodeIfPresent(String.self, forKey: k)
            case .mbReleaseTrackID: mbReleaseTrackID = try c.decodeIfPresent(String.self, forKey: k)
            case .mbWorkID: mbWorkID = try c.decodeIfPresent(String.self, forKey: k)
            case .duration: duration = try c.decodeIfPresent(Double.self, forKey: k)
            case .samplerate: samplerate = try c.decodeIfPresent(Int.self, forKey: k)
            case .bitdepth: bitdepth = try c.decodeIfPresent(Int.self, forKey: k)
            case .channels: channels = try c.decodeIfPresent(Int.self, forKey: k)
            case .bitrate: bitrate = try c.decodeIfPresent(Int.self, forKey: k)
            case .format: format = try c.decodeIfPresent(String.self, forKey: k)
            case .start: start = try c.decodeIfPresent(Int.self, forKey: k)
            case .end: end = try c.decodeIfPresent(Int.self, forKey: k)
            case .sheet: sheet = try c.decodeIfPresent(String.self, forKey: k)
            case .tags: tags = try c.decode([String].self, forKey: k)
            case .rating: rating = try c.decodeIfPresent(Int.self, forKey: k)
            case .playcount: playcount = try c.decode(Int.self, forKey: k)
            case .favorite: favorite = try c.decode(Bool.self, forKey: k)
            case .art: art = try c.decodeIfPresent(String.self, forKey: k)
            case .fileValues: fileValues = try c.decode([String].self, forKey: k)
            case .userFields: userFields = try c.decodeIfPresent([String].self, forKey: k)
            case .stickers: stickers = try c.decodeIfPresent([String].self, forKey: k)
            case .guessed: guessed = try c.decodeIfPresent([String].self, forKey: k)
            case .skipcount: skipcount = try c.decodeIfPresent(Int.self, forKey: k) ?? 0
            case .lastplayed: lastplayed = try c.decodeIfPresent(Double.self, forKey: k)
            case .bookmark: bookmark = try c.decodeIfPresent(Double.self, forKey: k)
            case .bookmarkSpeed: bookmarkSpeed = try c.decodeIfPresent(Double.self, forKey: k)
            }
        }
    }
}
