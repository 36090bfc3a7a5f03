extension FileFacts {
    /// The songs an MP3's chapters make of it: one per chapter, each the file's facts with the
    /// chapter's part (`start`, `end` in samples), title and number; nil when no chapter is
    /// usable, and the file stays one song.
    ///
    /// A chapter spans what its frame says, in the table's order (`MediaChapter`), its times
    /// rounded to the nearest sample, so a chapter ending where the next begins hands over
    /// without a gap. What a frame says wrong is mended or left out, never guessed at: a chapter
    /// that ends at or before its start, or starts at or past the file's end, is left out, as is
    /// one starting where an earlier kept one starts (a song is its file and its start sample);
    /// an end past the file's end plays to the end. Overlapping chapters keep their spans.
    /// The file's tags are every chapter's (album, artist, year, cover, …), its title tag the
    /// album when it has no album tag (an audiobook's TIT2 names the book); the chapter's title
    /// is the song's title (none when its frame has no TIT2), its place in the table the track,
    /// their count the track total. Per-file values that describe the whole file (MusicBrainz
    /// track ids, track ReplayGain) are dropped. The file is the chapters' `sheet` (their list is
    /// inside it), so that each has a URI of its own (`Song.uriPath`: `book.mp3/track0002`).
    public func chapterTracks() -> [FileFacts]? {
        guard !chapters.isEmpty else { return nil }
        let rate = samplerate ?? 44_100
        let total = duration.map { Int(($0 * Double(rate)).rounded()) }
        func sample(_ ms: Int) -> Int { Int((Double(ms) * Double(rate) / 1000).rounded()) }
        var kept: [(chapter: MediaChapter, start: Int, end: Int?)] = []
        var starts = Set<Int>()
        for c in chapters {
            let start = sample(c.startMilliseconds)
            let end = sample(c.endMilliseconds)
            guard end > start, total.map({ start < $0 }) ?? true, starts.insert(start).inserted else { continue }
            kept.append((c, start, total.map { end >= $0 } ?? false ? nil : end))
        }
        guard !kept.isEmpty else { return nil }
        return kept.enumerated().map { i, part in
            var f = self
            f.chapters = []
            f.start = part.start
            f.end = part.end
            if let last = part.end ?? total { f.duration = Double(last - part.start) / Double(rate) }
            f.mbTrackID = nil; f.mbReleaseTrackID = nil
            f.replaygainTrackGain = nil; f.replaygainTrackPeak = nil
            if f.album == nil { f.album = title }
            f.title = part.chapter.title
            f.sheet = path
            f.track = i + 1
            f.tracktotal = kept.count
            return f
        }
    }
}

extension FileFacts {
    /// The songs a FLAC's `CUESHEET` block makes of it when the image carries no sheet text:
    /// one per track (the lead-out left out), spanning from its `INDEX 01` to the next track's
    /// (the first from the file's first sample, as a sheet's tracks are read), the last to the
    /// file's end, its number the track and ISRC the user field `isrc`, the block's catalog
    /// `catalognum`, the image its `sheet` (the sheet is inside it); no titles, the block has
    /// none. Nil when the block has no track, or its
    /// tracks do not start in order inside the file: the image stays one song.
    public func blockTracks(_ block: CueSheetBlock) -> [FileFacts]? {
        let tracks = block.audioTracks
        guard !tracks.isEmpty else { return nil }
        let rate = samplerate ?? 44_100
        let total = duration.map { Int(($0 * Double(rate)).rounded()) }
        let starts = tracks.map { Int(clamping: $0.start) }
        for (i, s) in starts.enumerated() {
            guard s >= 0, i == 0 || s > starts[i - 1], total.map({ s < $0 }) ?? true else { return nil }
        }
        return tracks.enumerated().map { i, t in
            var f = self
            let first = i == 0 ? 0 : starts[i]
            f.start = first
            f.end = i + 1 < starts.count ? starts[i + 1] : nil
            if let last = f.end ?? total { f.duration = Double(last - first) / Double(rate) }
            f.mbTrackID = nil; f.mbReleaseTrackID = nil
            f.replaygainTrackGain = nil; f.replaygainTrackPeak = nil
            f.title = nil
            f.sheet = path
            f.track = t.number
            f.tracktotal = tracks.count
            f.sheetFields = [t.isrc.map { "isrc=" + $0 }, block.catalog.map { "catalognum=" + $0 }].compactMap { $0 }
            return f
        }
    }
}

extension FileFacts {
    /// The songs a file makes of itself with what it carries inside (a file a sheet beside it
    /// already cut, `start` set, makes none): the tracks of its embedded sheet's text (the
    /// `CUESHEET` tag, read as a `.cue` beside it is, the image its `sheet`), else of its FLAC `CUESHEET` block
    /// (`blockTracks`), else its chapters (`chapterTracks`). Nil: it stays one song. An
    /// embedded sheet that cannot be used is one warning line, and the block or the chapters
    /// are tried next.
    public func embeddedTracks(warn: (String) -> Void) -> [FileFacts]? {
        guard start == nil, cueSheetTag != nil || cueSheetBlock != nil || !chapters.isEmpty else { return nil }
        var found: [FileFacts]?
        if let text = cueSheetTag {
            do throws(CueSheetError) {
                let sheet = try CueSheet(parsing: text)
                guard sheet.files.count == 1 else {
                    throw CueSheetError("it names \(sheet.files.count) files, and it is inside one")
                }
                found = try tracks(of: sheet, file: 0, sheetPath: path)
            } catch {
                let then = cueSheetBlock != nil ? "its CUESHEET block gives the tracks" : "it comes in as one song"
                warn("embedded CUE sheet of \(path): \(error.reason); \(then)")
            }
        }
        if found == nil, let block = cueSheetBlock { found = blockTracks(block) }
        if found == nil { found = chapterTracks() }
        return found.map { tracks in
            tracks.map { var t = $0; t.chapters = []; t.cueSheetTag = nil; t.cueSheetBlock = nil; return t }
        }
    }
}
