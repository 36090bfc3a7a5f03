/// A CUE sheet, as EAC, XLD and foobar2000 write it: the disc's fields, then each FILE with its
/// TRACKs. A pure value read from text (`CueSheet(parsing:)`); which samples each track spans
/// is `CueSheet.File.parts(sampleRate:totalSamples:)`.
public struct CueSheet: Equatable, Sendable {
    /// The disc's fields: TITLE (the album), PERFORMER (the album artist), SONGWRITER, CATALOG
    /// (the disc's barcode), and REM DATE, GENRE, COMMENT, DISCNUMBER and TOTALDISCS.
    public var title, performer, songwriter, catalog, date, genre, comment: String?
    public var discNumber, discTotal: Int?
    public var files: [File] = []

    public init() {}

    /// One FILE line and the tracks under it.
    public struct File: Equatable, Sendable {
        /// The file's name as the sheet gives it (relative to the sheet's folder).
        public var name: String
        /// WAVE, MP3, AIFF, BINARY, … (what the file holds is read from the file itself).
        public var type: String?
        public var tracks: [Track] = []

        public init(name: String, type: String? = nil, tracks: [Track] = []) {
            self.name = name
            self.type = type
            self.tracks = tracks
        }
    }

    /// One TRACK: its number, its fields and its indexes.
    public struct Track: Equatable, Sendable {
        public var number: Int
        public var title, performer, songwriter, isrc, date, genre, comment: String?
        /// INDEX 00: where the pregap before the track begins, if the sheet marks one.
        public var pregap: CueTime?
        /// INDEX 01: where the track begins.
        public var start: CueTime

        public init(number: Int, start: CueTime, pregap: CueTime? = nil) {
            self.number = number
            self.start = start
            self.pregap = pregap
        }
    }

    /// Every track of the sheet, in order.
    public var tracks: [Track] { files.flatMap(\.tracks) }

    /// The sheet's FILE lines each name a file of one track: the sheet describes separate track
    /// files (a rip split per track) rather than an image, and is only their metadata.
    public var describesTrackFiles: Bool { files.allSatisfy { $0.tracks.count == 1 } }
}

/// One track as a part of its file, in samples of the file: what a song that is a CUE track
/// plays.
public struct CuePart: Equatable, Sendable {
    public var track: CueSheet.Track
    /// The first sample of the track.
    public var start: Int
    /// The sample after its last; nil for a file's last track, which plays to the file's end.
    public var end: Int?
}

extension CueSheet.File {
    /// The tracks as parts of the file, by the rule foobar2000 plays sheets by:
    /// - a track spans from its INDEX 01 to the next track's INDEX 01, so a pregap (INDEX 00)
    ///   is the end of the track before, and tracks joined play the file without a gap;
    /// - the file's first track starts at its first sample: audio before its INDEX 01 (a
    ///   pregap, a hidden track) is the first track's;
    /// - the last track ends at the file's end.
    /// Times become samples exactly (`CueTime.samples(atRate:)`). A track that starts at or
    /// past the file's end (when `totalSamples` is known) makes the sheet wrong for this file.
    public func parts(sampleRate: Int, totalSamples: Int?) throws(CueSheetError) -> [CuePart] {
        var out: [CuePart] = []
        for (i, t) in tracks.enumerated() {
            let start = i == 0 ? 0 : t.start.samples(atRate: sampleRate)
            if let total = totalSamples, t.start.samples(atRate: sampleRate) >= total {
                throw CueSheetError("track \(t.number) starts at \(t.start.text), at or past the end of \(name)")
            }
            let end = i + 1 < tracks.count ? tracks[i + 1].start.samples(atRate: sampleRate) : nil
            out.append(CuePart(track: t, start: start, end: end))
        }
        return out
    }
}
