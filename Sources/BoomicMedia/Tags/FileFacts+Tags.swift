import BoomicCore

extension FileFacts {
    /// Fills the tag fields from a TagLib property map (`TagFile.properties()`).
    ///
    /// Formats disagree on how they spell numbers (MP3 and MP4 say `TRACKNUMBER=3/12`, FLAC says
    /// `3` plus `TRACKTOTAL=12`), so this is where they become one shape. Values are kept as the
    /// file gives them, except that empty ones are dropped; unparsable numbers become nil.
    /// Fields with several values: every ARTISTS value (else every ARTIST value) becomes an entry
    /// of `artists`, and next to ARTISTS the ARTIST values, joined, are `artistCredit` when they
    /// differ from the list joined; ALBUMARTIST, GENRE and COMPOSER are joined with "; " (as
    /// `Song.artist` joins artists); the rest take the first value.
    public mutating func apply(tags raw: [String: [String]]) {
        // TagLib's map is usually clean already (upper-case keys, no blank values): then use it
        // as it is instead of building a copy.
        let isClean = raw.allSatisfy { key, values in
            !key.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) && !values.isEmpty
                && values.allSatisfy { !$0.isBlank }
        }
        let tags = isClean ? raw : Self.cleaned(raw)
        func first(_ keys: String...) -> String? {
            for key in keys { if let v = tags[key]?.first { return v } }
            return nil
        }
        func joined(_ key: String) -> String? {
            tags[key].map { $0.joined(separator: "; ") }
        }

        title = first("TITLE")
        // Picard and beets write one credit in ARTIST ("A feat. B") and the artists one by one
        // in ARTISTS: the list is what `artists:` queries and grouping need, the credit what
        // people read. Both are kept, the credit only when it says more than the list.
        if let list = tags["ARTISTS"] {
            artists = list
            let credit = joined("ARTIST")
            artistCredit = credit == list.joined(separator: "; ") ? nil : credit
        } else {
            artists = tags["ARTIST"] ?? []
            artistCredit = nil
        }
        album = first("ALBUM")
        albumartist = joined("ALBUMARTIST")
        // TagLib's names for ID3's TSOP, TSO2, TSOA, MP4's soar, soaa, soal and the Vorbis keys.
        artistSort = joined("ARTISTSORT")
        albumartistSort = joined("ALBUMARTISTSORT")
        albumSort = first("ALBUMSORT")
        performer = joined("PERFORMER")
        conductor = joined("CONDUCTOR")
        label = first("LABEL")
        originalDate = first("ORIGINALDATE")
        // Classical tags as Picard writes them. The movement's number is MOVEMENT in a Vorbis
        // comment and MOVEMENTNUMBER (`1/4`, or with MOVEMENTCOUNT) in TagLib's names for ID3's
        // MVIN and MP4's ©mvi, ©mvc. ID3's TIT1 is the grouping unless GRP1 holds it (the shim).
        composerSort = joined("COMPOSERSORT")
        work = first("WORK")
        movement = first("MOVEMENTNAME")
        let movementPair = first("MOVEMENTNUMBER", "MOVEMENT").map(TagValue.numberPair)
        movementNumber = movementPair?.number
        movementTotal = movementPair?.total ?? first("MOVEMENTTOTAL", "MOVEMENTCOUNT").flatMap(TagValue.index)
        grouping = first("GROUPING")
        ensemble = joined("ENSEMBLE")
        location = first("LOCATION")

        let trackPair = first("TRACKNUMBER").map(TagValue.numberPair)
        track = trackPair?.number
        tracktotal = trackPair?.total ?? first("TRACKTOTAL", "TOTALTRACKS").flatMap(TagValue.index)
        let discPair = first("DISCNUMBER").map(TagValue.numberPair)
        disc = discPair?.number
        disctotal = discPair?.total ?? first("DISCTOTAL", "TOTALDISCS").flatMap(TagValue.index)

        let dated = first("DATE", "YEAR").map(TagValue.yearAndDate)
        year = dated?.year
        date = dated?.date

        genre = tags["GENRE"].map { $0.map(TagValue.genre).joined(separator: "; ") }
        composer = joined("COMPOSER")
        compilation = first("COMPILATION").map(TagValue.flag) ?? false
        comment = first("COMMENT", "DESCRIPTION")
        // An image's embedded sheet: FLAC's Vorbis comment, WavPack's and APE's APEv2 item
        // (`Cuesheet`, as foobar2000 writes it), as MPD reads them.
        cueSheetTag = first("CUESHEET")

        // ReplayGain's own tags, else an Opus file's R128 gains (opusenc, loudgain, foobar2000
        // write only those there), which a write leaves as they are.
        replaygainTrackGain = first("REPLAYGAIN_TRACK_GAIN").flatMap(TagValue.decibels)
            ?? first("R128_TRACK_GAIN").flatMap(TagValue.r128Gain)
        replaygainTrackPeak = first("REPLAYGAIN_TRACK_PEAK").flatMap(TagValue.decibels)
        replaygainAlbumGain = first("REPLAYGAIN_ALBUM_GAIN").flatMap(TagValue.decibels)
            ?? first("R128_ALBUM_GAIN").flatMap(TagValue.r128Gain)
        replaygainAlbumPeak = first("REPLAYGAIN_ALBUM_PEAK").flatMap(TagValue.decibels)

        mbTrackID = first("MUSICBRAINZ_TRACKID")
        mbAlbumID = first("MUSICBRAINZ_ALBUMID")
        // Picard writes an id per artist of a collaboration, as it writes ARTISTS.
        mbArtistID = joined("MUSICBRAINZ_ARTISTID")
        mbAlbumArtistID = joined("MUSICBRAINZ_ALBUMARTISTID")
        mbReleaseGroupID = first("MUSICBRAINZ_RELEASEGROUPID")
        mbReleaseTrackID = first("MUSICBRAINZ_RELEASETRACKID")
        mbWorkID = joined("MUSICBRAINZ_WORKID")
    }

    /// Fills the audio fields; TagLib's zeros ("unknown") become nil.
    public mutating func apply(audio: AudioProperties, format: AudioFormat?) {
        duration = audio.lengthMilliseconds > 0 ? Double(audio.lengthMilliseconds) / 1000 : nil
        samplerate = audio.sampleRate > 0 ? audio.sampleRate : nil
        channels = audio.channels > 0 ? audio.channels : nil
        bitrate = audio.bitrateKbps > 0 ? audio.bitrateKbps : nil
        bitdepth = audio.bitsPerSample > 0 ? audio.bitsPerSample : nil
        self.format = format?.rawValue
    }

    /// `raw` with upper-case keys and without blank values or keys left with no value.
    private static func cleaned(_ raw: [String: [String]]) -> [String: [String]] {
        var tags: [String: [String]] = [:]
        tags.reserveCapacity(raw.count)
        for (key, values) in raw {
            let kept = values.filter { !$0.isBlank }
            guard !kept.isEmpty else { continue }
            tags[key.uppercased(), default: []].append(contentsOf: kept)
        }
        return tags
    }
}
