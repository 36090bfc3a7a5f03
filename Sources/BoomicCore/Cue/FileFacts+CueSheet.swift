extension FileFacts {
    /// The songs a CUE sheet makes of this image (its FILE `file`): one per track, each the
    /// image's facts with the track's part (`CueSheet.File.parts`), length and fields.
    ///
    /// The sheet's fields win over the image's tags, which fill what the sheet leaves out (an
    /// image tagged with its album and year by the ripper): TITLE is the track's title;
    /// the track's PERFORMER (else the disc's) its artist; the disc's TITLE the album and its
    /// PERFORMER the album artist; SONGWRITER (the track's, else the disc's) the composer;
    /// REM DATE (the track's, else the disc's; its first four digits the year), GENRE,
    /// COMMENT and DISCNUMBER (TOTALDISCS the disc total); TRACK's number the track, the
    /// sheet's count of tracks the track total; ISRC and CATALOG the user fields `isrc` and
    /// `catalognum`. The image's own per-track values (title, MusicBrainz track ids, track
    /// ReplayGain) describe the whole image, not a track, and are dropped.
    public func tracks(of sheet: CueSheet, file: Int, sheetPath: String) throws(CueSheetError) -> [FileFacts] {
        let rate = samplerate ?? 44_100
        let total = duration.map { Int(($0 * Double(rate)).rounded()) }
        let parts = try sheet.files[file].parts(sampleRate: rate, totalSamples: total)
        let count = sheet.tracks.count
        return parts.map { part in
            var f = self
            f.start = part.start
            f.end = part.end
            f.sheet = sheetPath
            if let last = part.end ?? total { f.duration = Double(last - part.start) / Double(rate) }
            f.mbTrackID = nil; f.mbReleaseTrackID = nil
            f.replaygainTrackGain = nil; f.replaygainTrackPeak = nil
            f.title = part.track.title
            f.fill(from: sheet, track: part.track, count: count, over: true)
            return f
        }
    }

    /// This separate track file with what a sheet that describes track files says of its
    /// track: the file's own tags win, the sheet fills the fields they leave empty.
    public func described(by sheet: CueSheet, track: CueSheet.Track) -> FileFacts {
        var f = self
        if f.title == nil { f.title = track.title }
        f.fill(from: sheet, track: track, count: sheet.tracks.count, over: false)
        return f
    }

    /// The sheet's fields; `over`: they replace the file's where both have one.
    private mutating func fill(from sheet: CueSheet, track t: CueSheet.Track, count: Int, over: Bool) {
        func take<V>(_ key: WritableKeyPath<FileFacts, V?>, _ value: V?) {
            if let value, over || self[keyPath: key] == nil { self[keyPath: key] = value }
        }
        if let artist = t.performer ?? sheet.performer, over || artists.isEmpty {
            artists = [artist]
            artistCredit = nil
        }
        take(\.album, sheet.title)
        take(\.albumartist, sheet.performer)
        take(\.composer, t.songwriter ?? sheet.songwriter)
        let date = t.date ?? sheet.date
        if let date, over || self.date == nil && year == nil {
            let digits = date.prefix(4)
            year = digits.count == 4 && digits.allSatisfy(\.isNumber) ? Int(digits) : nil
            self.date = date.count > 4 ? date : nil
        }
        take(\.genre, t.genre ?? sheet.genre)
        take(\.comment, t.comment ?? sheet.comment)
        take(\.disc, sheet.discNumber)
        take(\.disctotal, sheet.discTotal)
        take(\.track, t.number)
        take(\.tracktotal, count)
        sheetFields = [t.isrc.map { "isrc=" + $0 }, sheet.catalog.map { "catalognum=" + $0 }].compactMap { $0 }
    }
}
