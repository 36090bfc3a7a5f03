import Foundation
import Testing

/// The log names song fields the user's way in every row, and reads the rows older builds wrote
/// with the Swift names in add and delete rows (storage.md, "The log").
@Suite struct LogSpellingTests {
    /// The user's name and the Swift name of each field whose two spellings differ.
    static let spellings = [("replaygain_track_gain", "replaygainTrackGain"), ("replaygain_track_peak", "replaygainTrackPeak"),
                            ("replaygain_album_gain", "replaygainAlbumGain"), ("replaygain_album_peak", "replaygainAlbumPeak"),
                            ("mb_trackid", "mbTrackID"), ("mb_albumid", "mbAlbumID"), ("mb_artistid", "mbArtistID"),
                            ("mb_albumartistid", "mbAlbumArtistID"), ("mb_releasegroupid", "mbReleaseGroupID"),
                            ("file_values", "fileValues"), ("user_fields", "userFields")]

    /// An export line as the builds before one spelling wrote it: Swift names in songs (a key
    /// whose value is not an object; in an update's `fields` every value is `{"new", "old"}`).
    static func oldSpelling(_ line: String) -> String {
        var line = line
        for (user, swift) in spellings { line = line.replacingOccurrences(of: "\"\(user)\":(?!\\{)", with: "\"\(swift)\":", options: .regularExpression) }
        return line
    }

    @Test func anExportInTheOldSpellingImportsAsTheSameLibrary() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "album:Blue Sketches", "genre=Cool", "mood=blue", "-y")
        try box.succeed("remove", "album:Blue Sketches", "-y")
        try box.succeed("undo", "-y")
        let lines = try box.exportLines()
        let text = lines.joined(separator: "\n")
        for (_, swift) in Self.spellings { #expect(!text.contains("\"\(swift)\":"), "no Swift-cased key \(swift) in the log") }
        for key in ["\"file_values\":[\"genre=", "\"user_fields\":[\"mood=blue\"]", "\"mb_trackid\":\""] {
            #expect(text.contains(key), "add and delete rows spell \(key) the user's way")
        }

        let old = lines.map(Self.oldSpelling)
        #expect(old != lines)
        let copy = try Sandbox(samples: false)
        try copy.succeed("import-json", try box.exportFile("old.jsonl", old))
        #expect(try copy.listing() == box.listing())
        #expect(try copy.history() == box.history())
        for k in 0...lines.count { #expect(try copy.listing(asOf: String(k)) == box.listing(asOf: String(k)), "state \(k)") }
        #expect(try copy.exportLines() == lines, "the copy's log is written in the user's spelling")
    }
}
