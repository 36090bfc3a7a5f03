import BoomicCore
import Foundation
import NIOCore

/// A response being written: `Name: value` lines, ending in `OK` (the connection adds it).
/// Values are one line each: a control character in a tag (a newline, a tab) becomes a space,
/// as MPD prints it, since a client would read what follows a newline as a line of its own.
///
/// Written straight into the bytes that go out: the connection sends them as they are (no copy
/// of a 20 MB `listallinfo`), and a buffer grows in place where a string would be copied.
public struct MPDResponse: Sendable {
    public private(set) var bytes = ByteBuffer()
    /// What is left of a long answer (`listallinfo`, `find`), made as the client reads it: the
    /// connection sends `bytes`, then asks for the rest slice by slice while the client takes
    /// them. So a connection holds a slice of its answer, not all of it (16 MB for
    /// `listallinfo` at 50,000 songs), however slowly its client reads.
    public var rest: (any AnswerRest)?

    public init() {}

    /// The bytes written so far.
    public var count: Int { bytes.readableBytes }

    /// The whole response as text, its rest made too (binary payloads included as they decode).
    public var text: String {
        var whole = self
        whole.finish()
        return String(decoding: whole.bytes.readableBytesView, as: UTF8.self)
    }

    /// Makes the rest of the answer now.
    public mutating func finish() {
        while var more = rest {
            rest = nil
            if !more.write(into: &self, atLeast: .max) { rest = more }
        }
    }

    /// Writes `rest` up to `atLeast` bytes, and keeps what is left of it as this response's
    /// rest: a short answer is made whole at once, a long one goes on as the client reads.
    public mutating func write(_ rest: some AnswerRest, upTo atLeast: Int) {
        var more = rest
        if !more.write(into: &self, atLeast: atLeast) { self.rest = more }
    }

    /// Room for `count` bytes without growing step by step.
    public mutating func reserve(_ count: Int) { bytes.reserveCapacity(bytes.writerIndex + count) }

    public mutating func add(_ name: String, _ value: some CustomStringConvertible) {
        add(name, value.description)
    }

    public mutating func add(_ name: String, _ value: String) {
        bytes.writeString(name)
        bytes.writeStaticString(": ")
        writeValue(value)
        bytes.writeStaticString("\n")
    }

    public mutating func add(_ name: String, _ value: Int) {
        bytes.writeString(name)
        bytes.writeStaticString(": ")
        writeDecimal(value)
        bytes.writeStaticString("\n")
    }

    /// Reserves `room` bytes (what the writes below can at most take) and writes through a
    /// cursor: one capacity check for all of it, then plain copies.
    private mutating func write(reserving room: Int, _ body: (inout ByteCursor) -> Void) {
        bytes.writeWithUnsafeMutableBytes(minimumWritableBytes: max(1, room)) { raw in
            // The room asked for, not the (larger) capacity given: a bound that is too small fails.
            var w = ByteCursor(raw.baseAddress!, end: raw.baseAddress! + max(1, room))
            body(&w)
            return raw.baseAddress!.distance(to: w.at)
        }
    }

    /// A value's bytes, each control character made a space (`ByteCursor.putValue`).
    mutating func writeValue(_ value: some StringProtocol) {
        write(reserving: value.utf8.count) { w in
            w.putValue(value)
        }
    }

    /// `n` in decimal, its digits written straight into the buffer (no `String` per number).
    mutating func writeDecimal(_ n: Int) {
        write(reserving: ByteCursor.maxDecimal) { w in
            w.putDecimal(n)
        }
    }

    /// The `binary: N` line and its bytes (MPD sends the bytes and then a newline).
    public mutating func addBinary(_ payload: [UInt8]) {
        add("binary", payload.count)
        bytes.writeBytes(payload)
        bytes.writeStaticString("\n")
    }

    /// A song as MPD prints it: its file, time stamp and format, the tags the client asked
    /// for (`tagtypes`), then its length; a CUE track's `Range:` too.
    public mutating func add(song: Song, uri: String, tags: MPDTagSet) {
        write(song: song, root: "", rest: uri, tags: tags, range: song.playRange)
    }

    /// A queue entry's song that plays a part of its file (`rangeid`): a `Range:` line after
    /// `file:`, and the range's length as `Time:` and `duration:`, as MPD 0.23 prints them.
    public mutating func add(song: Song, uri: String, tags: MPDTagSet, range: PlayRange) {
        var part = song
        part.duration = range.length(of: song.duration)
        write(song: part, root: "", rest: uri, tags: tags, range: range)
    }

    /// `add(song:uri:tags:)` with the client's path written from the song's path as it goes
    /// (`listallinfo` prints 50,000 of them: no string made for each); the library path
    /// itself for a song outside every music folder.
    public mutating func add(song: Song, in tree: MusicTree, tags: MPDTagSet) {
        // A CUE track prints its part of the image as `Range:`, as MPD prints a sheet's tracks.
        let path = song.uriPath, range = song.playRange
        if let (root, rest) = tree.uriParts(for: path) {
            write(song: song, root: root, rest: rest, tags: tags, range: range)
        } else {
            write(song: song, root: "", rest: path, tags: tags, range: range)
        }
    }

    /// A song's `file` line alone (`listall`).
    public mutating func add(file song: Song, in tree: MusicTree) {
        let path = song.uriPath
        let (root, rest) = tree.uriParts(for: path) ?? ("", path[...])
        write(reserving: root.utf8.count + rest.utf8.count + 8) { w in
            Self.putFile(&w, root: root, rest: rest)
        }
    }

    private static func putFile(_ w: inout ByteCursor, root: String, rest: some StringProtocol) {
        w.put("file: ")
        if !root.isEmpty {
            w.putValue(root)
            w.put(UInt8(ascii: "/"))
        }
        w.putValue(rest)
        w.put(UInt8(ascii: "\n"))
    }

    /// The whole song in one reservation and one pass of plain copies: each value is read
    /// once, and the room it needs is its UTF-8 count plus a bound for names and numbers.
    private mutating func write(song: Song, root: String, rest: some StringProtocol, tags: MPDTagSet, range: PlayRange? = nil) {
        func wanted(_ tag: MPDTag, _ value: String?) -> String? {
            guard tags.contains(tag), let value, !value.isEmpty else { return nil }
            return value
        }
        let credit = tags.contains(.artist) ? song.artistCredit.flatMap { $0.isEmpty ? nil : $0 } : nil
        let artists = tags.contains(.artist) && credit == nil ? song.artists : []
        let album = wanted(.album, song.album), albumArtist = wanted(.albumArtist, song.albumartist)
        // A song's lines print its own sort names only; lists, groups and filters fall back.
        let artistSort = wanted(.artistSort, song.artistSort), albumSort = wanted(.albumSort, song.albumSort)
        let albumArtistSort = wanted(.albumArtistSort, song.albumartistSort)
        let performer = wanted(.performer, song.performer), conductor = wanted(.conductor, song.conductor)
        let label = wanted(.label, song.label), originalDate = wanted(.originalDate, song.originalDate)
        // Classical tags and work ids: most songs have none, one check for all of them.
        let rare = song.hasRareFields
        let composerSort = rare ? wanted(.composerSort, song.composerSort) : nil, work = rare ? wanted(.work, song.work) : nil
        let movement = rare ? wanted(.movement, song.movement) : nil, grouping = rare ? wanted(.grouping, song.grouping) : nil
        let movementNumber = rare && tags.contains(.movementNumber) ? song.movementNumber : nil
        let ensemble = rare ? wanted(.ensemble, song.ensemble) : nil, location = rare ? wanted(.location, song.location) : nil
        let title = wanted(.title, song.title), genre = wanted(.genre, song.genre)
        let date = tags.contains(.date) ? song.date : nil
        let year = tags.contains(.date) && date == nil ? song.year : nil
        let composer = wanted(.composer, song.composer), comment = wanted(.comment, song.comment)
        let artistID = wanted(.musicBrainzArtistID, song.mbArtistID), albumID = wanted(.musicBrainzAlbumID, song.mbAlbumID)
        let albumArtistID = wanted(.musicBrainzAlbumArtistID, song.mbAlbumArtistID)
        let trackID = wanted(.musicBrainzTrackID, song.mbTrackID), releaseGroupID = wanted(.musicBrainzReleaseGroupID, song.mbReleaseGroupID)
        let releaseTrackID = wanted(.musicBrainzReleaseTrackID, song.mbReleaseTrackID)
        let workID = rare ? wanted(.musicBrainzWorkID, song.mbWorkID) : nil
        let track = tags.contains(.track) ? song.track : nil, disc = tags.contains(.disc) ? song.disc : nil
        let rate = song.samplerate, channels = song.channels, bits = song.bitdepth
        let duration = song.duration
        // Names, numbers and newlines: the file line and 35 others, none with more than
        // 32 + 3 * maxDecimal bytes around its value; an artist's line 16 + its value.
        var room = root.utf8.count + rest.utf8.count + 36 * (32 + 3 * ByteCursor.maxDecimal) + 16 * artists.count
        for value in artists { room += value.utf8.count }
        // One by one, not in an array literal: an array a song would be an allocation a song.
        func add(_ value: String?) { room += value?.utf8.count ?? 0 }
        add(album); add(title); add(date); add(comment); add(albumSort); add(label); add(originalDate)
        add(work); add(movement); add(grouping); add(location); add(albumID); add(trackID); add(releaseGroupID); add(releaseTrackID)
        // A value joined from several: a line each, one more name and newline (at most 28
        // bytes, `MUSICBRAINZ_ALBUMARTISTID: `) per ";".
        func joined(_ value: String?) -> Int {
            guard let value else { return 0 }
            let n = SongField.semicolons(in: value)
            room += value.utf8.count + 32 * n
            return n
        }
        let joins = (credit: joined(credit), albumArtist: joined(albumArtist), genre: joined(genre), composer: joined(composer),
                     artistSort: joined(artistSort), albumArtistSort: joined(albumArtistSort),
                     performer: joined(performer), conductor: joined(conductor),
                     composerSort: joined(composerSort), workID: joined(workID), ensemble: joined(ensemble),
                     artistID: joined(artistID), albumArtistID: joined(albumArtistID))
        if credit != nil { room += 16 }
        if range != nil { room += 8 + 2 * (ByteCursor.maxDecimal + 4) }
        // Tags the lines below do not name (a field given an MPD tag in the field table): each
        // value a line, after them. None today, so no array is made.
        var other: [(tag: MPDTag, value: String)] = []
        for tag in Self.otherTags where tags.contains(tag) {
            Self.forEachValue(of: tag, in: song) { value in
                other.append((tag, value))
                room += tag.rawValue.utf8.count + 3 + value.utf8.count
            }
        }
        write(reserving: room) { w in
            Self.putFile(&w, root: root, rest: rest)
            if let range {
                w.put("Range: ")
                w.putMilliseconds(range.start)
                w.put(UInt8(ascii: "-"))
                if let end = range.end { w.putMilliseconds(end) }
                w.put(UInt8(ascii: "\n"))
            }
            w.put("Last-Modified: ")
            w.putTimeStamp(seconds: song.mtime / 1_000_000_000)
            w.put(UInt8(ascii: "\n"))
            if let rate, let channels {
                w.put("Format: ")
                w.putDecimal(rate)
                w.put(UInt8(ascii: ":"))
                if let bits { w.putDecimal(bits) } else { w.put(UInt8(ascii: "f")) }
                w.put(UInt8(ascii: ":"))
                w.putDecimal(channels)
                w.put(UInt8(ascii: "\n"))
            }
            func line(_ name: StaticString, _ value: String?) {
                guard let value else { return }
                w.put(name)
                w.putValue(value)
                w.put(UInt8(ascii: "\n"))
            }
            func lines(_ name: StaticString, _ value: String?, _ semicolons: Int) {
                guard let value else { return }
                if semicolons > 0 { SongField.forEachJoinedValue(value) { line(name, $0) } } else { line(name, value) }
            }
            func line(_ name: StaticString, _ n: Int?) {
                guard let n else { return }
                w.put(name)
                w.putDecimal(n)
                w.put(UInt8(ascii: "\n"))
            }
            lines("Artist: ", credit, joins.credit)
            for artist in artists { line("Artist: ", artist) }
            lines("ArtistSort: ", artistSort, joins.artistSort)
            line("Album: ", album)
            line("AlbumSort: ", albumSort)
            lines("AlbumArtist: ", albumArtist, joins.albumArtist)
            lines("AlbumArtistSort: ", albumArtistSort, joins.albumArtistSort)
            line("Title: ", title)
            line("Track: ", track)
            lines("Genre: ", genre, joins.genre)
            line("Date: ", date.flatMap { $0.isEmpty ? nil : $0 })
            line("Date: ", year)
            line("OriginalDate: ", originalDate)
            lines("Composer: ", composer, joins.composer)
            lines("ComposerSort: ", composerSort, joins.composerSort)
            lines("Performer: ", performer, joins.performer)
            lines("Conductor: ", conductor, joins.conductor)
            line("Work: ", work)
            line("Movement: ", movement)
            line("MovementNumber: ", movementNumber)
            lines("Ensemble: ", ensemble, joins.ensemble)
            line("Location: ", location)
            line("Grouping: ", grouping)
            line("Comment: ", comment)
            line("Disc: ", disc)
            line("Label: ", label)
            lines("MUSICBRAINZ_ARTISTID: ", artistID, joins.artistID)
            line("MUSICBRAINZ_ALBUMID: ", albumID)
            lines("MUSICBRAINZ_ALBUMARTISTID: ", albumArtistID, joins.albumArtistID)
            line("MUSICBRAINZ_TRACKID: ", trackID)
            line("MUSICBRAINZ_RELEASEGROUPID: ", releaseGroupID)
            line("MUSICBRAINZ_RELEASETRACKID: ", releaseTrackID)
            lines("MUSICBRAINZ_WORKID: ", workID, joins.workID)
            for (tag, value) in other {
                w.putValue(tag.rawValue)
                w.put(": ")
                w.putValue(value)
                w.put(UInt8(ascii: "\n"))
            }
            if let duration {
                line("Time: ", Int(max(0, min(duration, 1e15)).rounded()))
                w.put("duration: ")
                w.putMilliseconds(duration)
                w.put(UInt8(ascii: "\n"))
            }
        }
    }

    /// The tags `write(song:…)` prints by name, each with what MPD does with it (the credit,
    /// Date's year, the rare fields' one check): every tag the field table gives a name that
    /// is not among them is printed after them, from its field.
    static let linesByHand: [MPDTag] = [
        .artist, .artistSort, .album, .albumSort, .albumArtist, .albumArtistSort, .title, .track, .genre, .date,
        .originalDate, .composer, .composerSort, .performer, .conductor, .work, .movement, .movementNumber,
        .ensemble, .location, .grouping, .comment, .disc, .label, .musicBrainzArtistID, .musicBrainzAlbumID,
        .musicBrainzAlbumArtistID, .musicBrainzTrackID, .musicBrainzReleaseGroupID, .musicBrainzReleaseTrackID,
        .musicBrainzWorkID,
    ]
    static let otherTags = MPDTag.allCases.filter { !linesByHand.contains($0) }

    /// `values(of:in:)` one at a time, without making an array: what a pass over every song
    /// (`list … group`, `count group`) calls 50,000 times. `body` gets "" once when there is
    /// none and `orEmpty` is set (a song without the tag counts under "" in groups).
    ///
    /// AlbumArtist falls back to Artist, as MPD's lists, groups, counts, sorts and filters do
    /// (a song without an album artist is listed under its artist): a library where only
    /// compilations carry the tag would otherwise show clients almost no album artists.
    public static func forEachValue(of tag: MPDTag, in song: Song, orEmpty: Bool = false, _ body: (String) -> Void) {
        func one(_ s: String?) {
            if let s, !s.isEmpty { body(s) } else if orEmpty { body("") }
        }
        // Several values the import joined with "; " are several values again, one line each
        // as MPD lists a file's GENRE=Jazz and GENRE=Fusion.
        func joined(_ s: String?) {
            if let s, !s.isEmpty { SongField.forEachJoinedValue(s, body) } else if orEmpty { body("") }
        }
        switch tag {
        case .artist:
            // The file's ARTIST, as MPD reads it: the credit (`A feat. B`) where Picard or beets
            // wrote the artists one by one in ARTISTS next to it, else the artists.
            if let credit = song.artistCredit, !credit.isEmpty { joined(credit); return }
            let artists = song.artists
            if artists.isEmpty { if orEmpty { body("") } } else { for a in artists { body(a) } }
        case .album: one(song.album)
        case .albumArtist:
            if let a = song.albumartist, !a.isEmpty { joined(a) } else { forEachValue(of: .artist, in: song, orEmpty: orEmpty, body) }
        case .artistSort:
            if let a = song.artistSort, !a.isEmpty { joined(a) } else { forEachValue(of: .artist, in: song, orEmpty: orEmpty, body) }
        case .albumSort:
            if let a = song.albumSort, !a.isEmpty { body(a) } else { one(song.album) }
        case .albumArtistSort:
            if let a = song.albumartistSort, !a.isEmpty { joined(a) } else if let a = song.albumartist, !a.isEmpty { joined(a) } else {
                forEachValue(of: .artistSort, in: song, orEmpty: orEmpty, body)
            }
        case .date: one(song.date ?? song.year.map(String.init))
        default:
            // The tag's field as it is, numbers in decimal; split where the import joined
            // several values (`SongField.joinsValues`). ComposerSort falls back to nothing:
            // MPD 0.23 has no fallback for it (0.24 adds one).
            let field = tag.field
            switch field.value(in: song) {
            case .string(let s): if field.joinsValues { joined(s) } else { one(s) }
            case .int(let n): one(String(n))
            case .strings(let xs) where !xs.isEmpty: for x in xs { body(x) }
            default: one(nil)
            }
        }
    }

    /// A tag's values as MPD lists them: one line each (several artists, several lines).
    public static func values(of tag: MPDTag, in song: Song) -> [String] {
        var values: [String] = []
        forEachValue(of: tag, in: song) { values.append($0) }
        return values
    }

    /// ISO 8601 in UTC to the second, as MPD writes `Last-Modified`.
    public static func timeStamp(nanoseconds: Int) -> String {
        timeStamp(seconds: nanoseconds / 1_000_000_000)
    }

    public static func timeStamp(seconds: Int) -> String {
        var r = MPDResponse()
        r.writeTimeStamp(seconds: seconds)
        return r.text
    }

    /// Seconds with three decimals (`545.432`), as MPD prints `duration` and `elapsed`.
    public static func milliseconds(_ seconds: Double) -> String {
        var r = MPDResponse()
        r.writeMilliseconds(seconds)
        return r.text
    }

    mutating func writeTimeStamp(seconds: Int) {
        write(reserving: ByteCursor.timeStampLength) { w in
            w.putTimeStamp(seconds: seconds)
        }
    }

    mutating func writeMilliseconds(_ seconds: Double) {
        write(reserving: ByteCursor.maxDecimal + 4) { w in
            w.putMilliseconds(seconds)
        }
    }
}

/// The rest of a long answer: where a walk or a song list is, and how to go on from there.
public protocol AnswerRest: Sendable {
    /// Writes the next lines into `response`: at least `atLeast` bytes, unless the answer ends
    /// first (then true). Each call writes whole lines, so a slice ends between two.
    mutating func write(into response: inout MPDResponse, atLeast: Int) -> Bool
}
