import BoomicCore
import Foundation

/// The pure half of writing tags back: a song as the tag keys a format wants, the key changes
/// that make a file read as the song, and the fields where a file and the song disagree.
///
/// "Reads as" means what a scan would make of the file (`FileFacts.apply(tags:)`), so a file is
/// only changed where the library and a rescan would disagree: `TRACKNUMBER=03` stays as it is for
/// track 3, a second MusicBrainz artist id stays next to the first, and keys Boomic does not know
/// (MOOD, LYRICS, custom ones) are never touched.
///
/// ```swift
/// TagMap.values(for: song, format: .mp3)["TRACKNUMBER"]   // ["3/12"]
/// TagMap.values(for: song, format: .flac)["TRACKNUMBER"]  // ["3"], and TRACKTOTAL ["12"]
/// ```
public enum TagMap {
    /// Every field written into files: the song's tag fields (`SongField.isTag`), cover included.
    public static let fields: [SongField] = [
        .title, .artists, .artistCredit, .album, .albumartist, .artistSort, .albumartistSort, .albumSort,
        .performer, .conductor, .label, .originalDate, .composerSort, .work, .movement, .movementNumber, .movementTotal,
        .grouping, .ensemble, .location, .track, .tracktotal, .disc, .disctotal, .year, .date,
        .genre, .composer, .compilation, .comment,
        .replaygainTrackGain, .replaygainTrackPeak, .replaygainAlbumGain, .replaygainAlbumPeak,
        .mbTrackID, .mbAlbumID, .mbArtistID, .mbAlbumArtistID, .mbReleaseGroupID, .mbReleaseTrackID, .mbWorkID, .art,
    ]

    /// How a format spells a track or disc number with its total.
    public enum NumberStyle: Sendable {
        /// `TRACKNUMBER=3` and `TRACKTOTAL=12` (Vorbis comments: FLAC and Ogg).
        case separateTotals
        /// `TRACKNUMBER=3/12` (ID3v2 `TRCK`, MP4 `trkn`, APE, RIFF INFO, ASF).
        case slashed
    }

    public static func numberStyle(of format: AudioFormat) -> NumberStyle {
        switch format {
        case .flac, .ogg, .opus, .oggFLAC, .speex: return .separateTotals
        case .mp3, .m4a, .wav, .aiff, .wavpack, .ape, .mpc, .trueAudio, .wma: return .slashed
        }
    }

    // MARK: - Song → keys

    /// The song's tags as TagLib property keys for `format`: every key Boomic owns, with an empty
    /// array for a key the song has no value for (which means "remove it"). The cover is not a
    /// key; `TagWriter` writes it as a picture.
    public static func values(for song: Song, format: AudioFormat) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for group in Group.allCases {
            out.merge(group.values(for: song, format: format)) { _, new in new }
        }
        return out
    }

    /// The key changes that make a file whose properties are `current` read as `song`: for each
    /// field that reads differently, its keys (empty array: remove the key), plus the removal of
    /// synonyms a reader would otherwise still find (`TOTALTRACKS`, `YEAR`, `TXXX:TRACKTOTAL` in
    /// an MP3, …). Fields that already read as the song are left exactly as they are.
    public static func changes(from current: [String: [String]], to song: Song,
                               format: AudioFormat) -> [String: [String]] {
        let tags = cleaned(current)
        let file = reading(tags, as: song)
        var out: [String: [String]] = [:]
        for group in Group.allCases where group.fields.contains(where: { !same($0, file, song) }) {
            for (key, values) in group.values(for: song, format: format, keeping: tags) where (tags[key] ?? []) != values {
                out[key] = values
            }
            for alias in group.synonyms(for: song, format: format) where tags[alias] != nil {
                out[alias] = []
            }
        }
        return out
    }

    // MARK: - Comparing

    /// The fields (of `fields`) where a file whose properties are `tags` and whose cover hashes
    /// to `art` (embedded, else the folder's cover file: what a scan records) reads differently
    /// from `song`, in `fields` order. After a write, what is left is what the format could not
    /// hold.
    public static func differences(between song: Song, fileTags tags: [String: [String]],
                                   fileArt art: String?) -> [TagDifference] {
        var file = reading(cleaned(tags), as: song)
        file.art = art
        return fields.compactMap { f in
            let a = f.normalize(f.value(in: file)), b = f.normalize(f.value(in: song))
            return a == b ? nil : TagDifference(field: f, file: a, library: b)
        }
    }

    /// `song` with its tag fields replaced by what a scan reads from `tags`.
    static func reading(_ tags: [String: [String]], as song: Song) -> Song {
        var facts = FileFacts(path: song.path, size: song.size, mtime: song.mtime)
        facts.apply(tags: tags)
        facts.fingerprint = song.fingerprint
        facts.art = song.art
        facts.duration = song.duration; facts.samplerate = song.samplerate
        facts.bitdepth = song.bitdepth; facts.channels = song.channels
        facts.bitrate = song.bitrate; facts.format = song.format
        var out = song
        facts.apply(to: &out)
        return out
    }

    private static func same(_ f: SongField, _ a: Song, _ b: Song) -> Bool {
        f.normalize(f.value(in: a)) == f.normalize(f.value(in: b))
    }

    /// Upper-case keys without blank values, as the reader sees them.
    private static func cleaned(_ raw: [String: [String]]) -> [String: [String]] {
        var tags: [String: [String]] = [:]
        for (key, values) in raw {
            let kept = values.filter { !$0.allSatisfy(\.isWhitespace) }
            if !kept.isEmpty { tags[key.uppercased(), default: []].append(contentsOf: kept) }
        }
        return tags
    }

    // MARK: - Spelling values

    /// A ReplayGain gain as taggers write it, `-6.50 dB`; more digits only when two would change
    /// the value (the library keeps whatever precision it was given).
    public static func decibels(_ gain: Double) -> String {
        exact(gain, digits: 2) + " dB"
    }

    /// A ReplayGain gain as Opus keeps it (`R128_TRACK_GAIN`): 1/256 dB to -23 LUFS, 5 dB below
    /// ReplayGain's reference; `TagValue.r128Gain` reads it back to the same 0.01 dB.
    public static func r128(_ gain: Double) -> String {
        String(Int(max(-32768, min(32767, ((gain - 5) * 256).rounded()))))
    }

    /// A ReplayGain peak as taggers write it, `0.987654` (more digits only when needed).
    public static func peak(_ value: Double) -> String {
        exact(value, digits: 6)
    }

    private static func exact(_ v: Double, digits: Int) -> String {
        let fixed = String(format: "%.\(digits)f", v)
        return Double(fixed) == v ? fixed : "\(v)"
    }

    /// A track or disc number with its total in one value: `3/12`, `3`, or `0/12` when only the
    /// total is known (a reader takes 0 as "no number").
    static func slashed(_ number: Int?, _ total: Int?) -> String? {
        switch (number, total) {
        case (nil, nil): return nil
        case (let n?, nil): return String(n)
        case (let n, let t?): return "\(n ?? 0)/\(t)"
        }
    }

    /// A number spelled as the file spelled the one it replaces: a tagger's zero padding is
    /// kept (`03` → `05`, `03/12` → `05/12`), so an edit changes only the number, and the edit and
    /// its undo give the file back its `03`.
    static func spelled(_ new: String, like old: String) -> String {
        func digits(_ s: Substring) -> Bool { !s.isEmpty && s.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        let olds = old.split(separator: "/", omittingEmptySubsequences: false)
        var parts = new.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for i in parts.indices where i < olds.count {
            let o = olds[i], n = parts[i]
            guard o.count > n.count, o.first == "0", digits(o), n != "0", digits(Substring(n)) else { continue }
            parts[i] = String(repeating: "0", count: o.count - n.count) + n
        }
        return parts.joined(separator: "/")
    }

    /// The DATE value: the full date when it agrees with the year (or there is no year), else
    /// the year alone, zero-padded to the four digits a reader looks for.
    static func date(year: Int?, date: String?) -> String? {
        if let date, year == nil || TagValue.yearAndDate(date).year == year { return date }
        return year.map { String(format: "%04d", $0) }
    }

    /// Fields written together: a number and its total share a key in some formats, and DATE
    /// carries both the year and the date.
    enum Group: CaseIterable {
        case title, artists, album, albumartist, artistSort, albumartistSort, albumSort
        case performer, conductor, label, originalDate
        case composerSort, work, movement, movementNumber, grouping, ensemble, location
        case track, disc, date, genre, composer, compilation, comment
        case trackGain, trackPeak, albumGain, albumPeak
        case mbTrack, mbAlbum, mbArtist, mbAlbumArtist, mbReleaseGroup, mbReleaseTrack, mbWork

        var fields: [SongField] {
            switch self {
            case .title: [.title]
            case .artists: [.artists, .artistCredit]
            case .album: [.album]
            case .albumartist: [.albumartist]
            case .artistSort: [.artistSort]
            case .albumartistSort: [.albumartistSort]
            case .albumSort: [.albumSort]
            case .performer: [.performer]
            case .conductor: [.conductor]
            case .label: [.label]
            case .originalDate: [.originalDate]
            case .composerSort: [.composerSort]
            case .work: [.work]
            case .movement: [.movement]
            case .movementNumber: [.movementNumber, .movementTotal]
            case .grouping: [.grouping]
            case .ensemble: [.ensemble]
            case .location: [.location]
            case .track: [.track, .tracktotal]
            case .disc: [.disc, .disctotal]
            case .date: [.year, .date]
            case .genre: [.genre]
            case .composer: [.composer]
            case .compilation: [.compilation]
            case .comment: [.comment]
            case .trackGain: [.replaygainTrackGain]
            case .trackPeak: [.replaygainTrackPeak]
            case .albumGain: [.replaygainAlbumGain]
            case .albumPeak: [.replaygainAlbumPeak]
            case .mbTrack: [.mbTrackID]
            case .mbAlbum: [.mbAlbumID]
            case .mbArtist: [.mbArtistID]
            case .mbAlbumArtist: [.mbAlbumArtistID]
            case .mbReleaseGroup: [.mbReleaseGroupID]
            case .mbReleaseTrack: [.mbReleaseTrackID]
            case .mbWork: [.mbWorkID]
            }
        }

        /// The group's keys and their values for `song`, in the shape of a file whose keys are
        /// `tags`: a file that keeps its artists one by one in ARTISTS (Picard, beets) gets the
        /// list there and one credit in ARTIST, as those programs write them.
        ///
        /// Where the library keeps one value of a key the file holds several of (a second
        /// COMMENT, a comment in another language), the new value replaces the first and the
        /// others stay: the library never read them, so writing must not lose them.
        func values(for song: Song, format: AudioFormat, keeping tags: [String: [String]]) -> [String: [String]] {
            if self == .artists, tags["ARTISTS"] != nil, let credit = song.artist, !song.artists.isEmpty {
                return ["ARTIST": [credit], "ARTISTS": song.artists]
            }
            var out = values(for: song, format: format)
            if self == .track || self == .disc || self == .movementNumber {
                for (key, new) in out where new.count == 1 {
                    if let old = tags[key]?.first { out[key] = [TagMap.spelled(new[0], like: old)] }
                }
            }
            guard self != .artists, !fields.contains(where: \.joinsValues) else { return out }
            for (key, new) in out where new.count == 1 {
                if let old = tags[key], old.count > 1 { out[key] = new + old.dropFirst() }
            }
            return out
        }

        /// The group's keys and their values for `song` (empty: no value).
        func values(for song: Song, format: AudioFormat) -> [String: [String]] {
            func one(_ s: String?) -> [String] { s.map { [$0] } ?? [] }
            // A field the import joined with "; " (GENRE=Jazz, GENRE=Fusion) goes back as the
            // values it joins, as the file had them: one value "Jazz; Fusion" would be one genre
            // to MPD, Picard and every other reader.
            func many(_ s: String?) -> [String] {
                var out: [String] = []
                if let s { SongField.forEachJoinedValue(s) { out.append($0) } }
                return out
            }
            let style = TagMap.numberStyle(of: format)
            switch self {
            case .title: return ["TITLE": one(song.title)]
            case .artists:
                // A credit needs the list beside it (ARTISTS, as Picard and beets write it):
                // ARTIST alone would read back as one artist named "A feat. B".
                if let credit = song.artistCredit, !song.artists.isEmpty {
                    return ["ARTIST": [credit], "ARTISTS": song.artists]
                }
                return ["ARTIST": song.artists.isEmpty ? one(song.artistCredit) : song.artists]
            case .album: return ["ALBUM": one(song.album)]
            case .albumartist: return ["ALBUMARTIST": many(song.albumartist)]
            case .artistSort: return ["ARTISTSORT": many(song.artistSort)]
            case .albumartistSort: return ["ALBUMARTISTSORT": many(song.albumartistSort)]
            case .albumSort: return ["ALBUMSORT": one(song.albumSort)]
            case .performer: return ["PERFORMER": many(song.performer)]
            case .conductor: return ["CONDUCTOR": many(song.conductor)]
            case .label: return ["LABEL": one(song.label)]
            case .originalDate: return ["ORIGINALDATE": one(song.originalDate)]
            case .composerSort: return ["COMPOSERSORT": many(song.composerSort)]
            case .work: return ["WORK": one(song.work)]
            case .movement: return ["MOVEMENTNAME": one(song.movement)]
            case .movementNumber:
                // Picard's Vorbis keys are MOVEMENT and MOVEMENTTOTAL; TagLib's MP4 names for
                // ©mvi and ©mvc (whole numbers) MOVEMENTNUMBER and MOVEMENTCOUNT; ID3's MVIN
                // holds `1/4`, as TRCK does.
                let number = song.movementNumber.map { [String($0)] } ?? [], total = song.movementTotal.map { [String($0)] } ?? []
                switch (style, format) {
                case (.separateTotals, _): return ["MOVEMENT": number, "MOVEMENTTOTAL": total]
                case (_, .m4a): return ["MOVEMENTNUMBER": number, "MOVEMENTCOUNT": total]
                default: return ["MOVEMENTNUMBER": one(TagMap.slashed(song.movementNumber, song.movementTotal))]
                }
            case .grouping: return ["GROUPING": one(song.grouping)]
            case .ensemble: return ["ENSEMBLE": many(song.ensemble)]
            case .location: return ["LOCATION": one(song.location)]
            case .track: return Self.numbered("TRACK", song.track, song.tracktotal, style)
            case .disc: return Self.numbered("DISC", song.disc, song.disctotal, style)
            case .date: return ["DATE": one(TagMap.date(year: song.year, date: song.date))]
            case .genre: return ["GENRE": many(song.genre)]
            case .composer: return ["COMPOSER": many(song.composer)]
            case .compilation: return ["COMPILATION": song.compilation ? ["1"] : []]
            case .comment: return ["COMMENT": one(song.comment)]
            // Opus keeps its gains as R128 (RFC 7845), which MPD and other players read there.
            case .trackGain where format == .opus: return ["R128_TRACK_GAIN": one(song.replaygainTrackGain.map(TagMap.r128))]
            case .albumGain where format == .opus: return ["R128_ALBUM_GAIN": one(song.replaygainAlbumGain.map(TagMap.r128))]
            case .trackGain: return ["REPLAYGAIN_TRACK_GAIN": one(song.replaygainTrackGain.map(TagMap.decibels))]
            case .trackPeak: return ["REPLAYGAIN_TRACK_PEAK": one(song.replaygainTrackPeak.map(TagMap.peak))]
            case .albumGain: return ["REPLAYGAIN_ALBUM_GAIN": one(song.replaygainAlbumGain.map(TagMap.decibels))]
            case .albumPeak: return ["REPLAYGAIN_ALBUM_PEAK": one(song.replaygainAlbumPeak.map(TagMap.peak))]
            case .mbTrack: return ["MUSICBRAINZ_TRACKID": one(song.mbTrackID)]
            case .mbAlbum: return ["MUSICBRAINZ_ALBUMID": one(song.mbAlbumID)]
            case .mbArtist: return ["MUSICBRAINZ_ARTISTID": many(song.mbArtistID)]
            case .mbAlbumArtist: return ["MUSICBRAINZ_ALBUMARTISTID": many(song.mbAlbumArtistID)]
            case .mbReleaseGroup: return ["MUSICBRAINZ_RELEASEGROUPID": one(song.mbReleaseGroupID)]
            case .mbReleaseTrack: return ["MUSICBRAINZ_RELEASETRACKID": one(song.mbReleaseTrackID)]
            case .mbWork: return ["MUSICBRAINZ_WORKID": many(song.mbWorkID)]
            }
        }

        /// Other keys a reader falls back to for this group, removed when the group is rewritten
        /// so that they cannot contradict it. `ARTISTS` (Picard's list next to a joined ARTIST,
        /// rewritten with it) and `DESCRIPTION` (a Vorbis comment of its own) mean more than a
        /// synonym: they go only when the song has no value, because a reader would take them
        /// in its place.
        func synonyms(for song: Song, format: AudioFormat) -> [String] {
            let style = TagMap.numberStyle(of: format)
            switch self {
            case .artists: return song.artists.isEmpty ? ["ARTISTS"] : []
            case .comment: return song.comment == nil ? ["DESCRIPTION"] : []
            case .track: return style == .slashed ? ["TRACKTOTAL", "TOTALTRACKS"] : ["TOTALTRACKS"]
            case .disc: return style == .slashed ? ["DISCTOTAL", "TOTALDISCS"] : ["TOTALDISCS"]
            case .date: return ["YEAR"]
            case .trackGain: return format == .opus ? ["REPLAYGAIN_TRACK_GAIN"] : ["R128_TRACK_GAIN"]
            case .albumGain: return format == .opus ? ["REPLAYGAIN_ALBUM_GAIN"] : ["R128_ALBUM_GAIN"]
            case .movementNumber:
                switch (style, format) {
                case (.separateTotals, _): return ["MOVEMENTNUMBER", "MOVEMENTCOUNT"]
                case (_, .m4a): return []
                default: return ["MOVEMENTTOTAL", "MOVEMENTCOUNT"]
                }
            default: return []
            }
        }

        private static func numbered(_ what: String, _ number: Int?, _ total: Int?,
                                     _ style: NumberStyle) -> [String: [String]] {
            switch style {
            case .separateTotals:
                return ["\(what)NUMBER": number.map { [String($0)] } ?? [],
                        "\(what)TOTAL": total.map { [String($0)] } ?? []]
            case .slashed:
                return ["\(what)NUMBER": TagMap.slashed(number, total).map { [$0] } ?? []]
            }
        }
    }
}

/// One field where a file and the library disagree: what a scan of the file reads, and what the
/// library holds (both normalised for the field).
public struct TagDifference: Hashable, Sendable {
    public var field: SongField
    public var file: FieldValue
    public var library: FieldValue

    public init(field: SongField, file: FieldValue, library: FieldValue) {
        self.field = field
        self.file = file
        self.library = library
    }
}
