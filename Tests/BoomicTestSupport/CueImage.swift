import Foundation

/// A FLAC image of three short tracks with its EAC-style CUE sheet beside it, as the CUE tests
/// of import, play and serve use it: CP1252 text with CRLF line ends, a hidden pregap before
/// track 1's INDEX 01, a pregap (INDEX 00) before track 2, and a FILE line naming the `.wav`
/// EAC ripped to (the image was encoded to FLAC since).
public enum CueImage {
    public static let album = "Chansons d'été"
    public static let performer = "Les Rivières"
    public static let titles = ["Café", "Naïve", "Été"]
    /// The image's name, and the name its sheet's FILE line gives.
    public static let image = "Les Rivières - Chansons d'été.flac"
    public static let sheet = "Les Rivières - Chansons d'été.cue"
    /// INDEX 01 of tracks 2 and 3, in CD frames (00:02:10 and 00:04:05).
    public static let indexFrames = [0, 160, 305]
    /// Where each track starts in the image, in samples (track 1 at the image's start).
    public static let starts = indexFrames.map { $0 * 588 }
    /// The image's length in samples (6 s at 44.1 kHz).
    public static let totalSamples = 6 * 44_100

    /// The sheet's text.
    public static let text = """
        REM GENRE "Chanson"
        REM DATE 1998
        REM DISCID 2A0B5C03
        REM COMMENT "ExactAudioCopy v1.6"
        CATALOG 0724384960650
        PERFORMER "Les Rivières"
        TITLE "Chansons d'été"
        FILE "Les Rivières - Chansons d'été.wav" WAVE
          TRACK 01 AUDIO
            TITLE "Café"
            PERFORMER "Les Rivières"
            ISRC FRZ039800212
            INDEX 00 00:00:00
            INDEX 01 00:00:32
          TRACK 02 AUDIO
            TITLE "Naïve"
            PERFORMER "Zoë"
            INDEX 00 00:01:60
            INDEX 01 00:02:10
          TRACK 03 AUDIO
            TITLE "Été"
            INDEX 01 00:04:05

        """

    /// The sheet's bytes: Latin-1 (every character of `text` is in it), CRLF line ends.
    public static var sheetBytes: [UInt8] {
        text.replacingOccurrences(of: "\n", with: "\r\n").unicodeScalars.map { UInt8($0.value) }
    }

    /// Writes the image (and, with `sheet`, its sheet) into `dir`; returns the image's path.
    @discardableResult
    public static func make(in dir: String, sheet: Bool = true) throws -> String {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let wav = dir + "/.image.wav"
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", wav,
                        "synth", "6", "sine", "200-2000", "sine", "330", "gain", "-3"])
        let path = dir + "/" + image
        try toolOutput(["flac", "-s", "-f", "-T", "ALBUM=Unknown image", "-o", path, wav])
        try FileManager.default.removeItem(atPath: wav)
        if sheet { try writeSheet(in: dir) }
        return path
    }

    public static func writeSheet(in dir: String) throws {
        try Data(sheetBytes).write(to: URL(fileURLWithPath: dir + "/" + Self.sheet))
    }
}
