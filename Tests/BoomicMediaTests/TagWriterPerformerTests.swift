import BoomicCore
@testable import BoomicMedia
import BoomicTestSupport
import Foundation
import Testing

/// Picard keeps an ID3v2.4 file's performers in TMCL (role and name pairs) and an ID3v2.3
/// file's in IPLS next to its producers and engineers; TagLib 1.13 reads the first as
/// PERFORMER:ROLE keys and drops the second. Boomic reads both as "Name (role)", Picard's
/// spelling in a Vorbis comment, and writes a changed list back where the tag keeps it,
/// checked by mutagen's raw frames.
extension TagWriterTests {
    /// A copy of the tagless sample MP3 with `frames` (mutagen constructors) in an ID3v2 tag.
    func creditedMP3(_ frames: [String], version: Int) throws -> String {
        let path = try copy("Loose Files/no tags at all.mp3")
        let script = """
            import sys
            from mutagen.id3 import ID3, TIT2, TMCL, TIPL, TXXX
            t = ID3()
            for f in [\(frames.joined(separator: ", "))]: t.add(f)
            t.save(sys.argv[1], v2_version=\(version))
            """
        _ = try Tool.run(["/usr/bin/python3", "-c", script, path])
        return path
    }

    /// The credit frames as mutagen reads them: TMCL, TIPL (v2.4), IPLS (v2.3) as role and
    /// name pairs, and TXXX:PERFORMER's text; empty without a tag.
    func credits(_ path: String) throws -> [String: [[String]]] {
        let script = """
            import sys, json
            from mutagen.id3 import ID3, ID3NoHeaderError
            try: t = ID3(sys.argv[1], translate=False)
            except ID3NoHeaderError: t = {}  # the last frame went, and the tag with it
            out = {}
            for k, v in t.items():
                if k in ('TMCL', 'TIPL', 'IPLS'): out[k] = [list(p) for p in v.people]
                elif k == 'TXXX:PERFORMER': out[k] = [[str(x)] for x in v.text]
            print(json.dumps(out))
            """
        return try JSONDecoder().decode(
            [String: [[String]]].self, from: Data(try Tool.run(["/usr/bin/python3", "-c", script, path]).utf8))
    }

    @Test func picardsTMCLReadsAsNameAndRoleAndIsWrittenBackThere() throws {
        let path = try creditedMP3(
            [#"TMCL(encoding=3, people=[["piano", "Gould, Glenn"], ["violin", "Anne (Jr.)"]])"#], version: 4)
        var song = try scan(path)
        // TagLib alone would read PERFORMER:PIANO = ["Gould", "Glenn"].
        #expect(song.performer == "Gould, Glenn (piano); Anne (Jr.) (violin)")
        song.performer = "Gould, Glenn (piano); Yo-Yo Ma (cello); Solo Name"
        _ = try writer.write(song)
        #expect(try credits(path) == ["TMCL": [["piano", "Gould, Glenn"], ["cello", "Yo-Yo Ma"], ["", "Solo Name"]]])
        song = try scan(path)
        #expect(song.performer == "Gould, Glenn (piano); Yo-Yo Ma (cello); Solo Name")
        song.performer = nil
        _ = try writer.write(song)
        #expect(try credits(path).isEmpty)
    }

    /// Picard's plain "performer" has an empty role, which TagLib drops from a UTF-8 frame,
    /// shifting every pair after it: read as a name, and kept through a write of another field.
    @Test func anEmptyRoleSurvivesReadingAndAnotherFieldsWrite() throws {
        let path = try creditedMP3(
            [#"TIT2(encoding=3, text="Old")"#, #"TMCL(encoding=3, people=[["", "The Band"], ["piano", "P"], ["", "Last"]])"#],
            version: 4)
        var song = try scan(path)
        #expect(song.performer == "The Band; P (piano); Last")
        song.title = "New"
        _ = try writer.write(song)
        #expect(try credits(path) == ["TMCL": [["", "The Band"], ["piano", "P"], ["", "Last"]]])
        #expect(try scan(path).title == "New")
    }

    @Test func anID3v23FilesInstrumentsLiveInIPLSBesideItsProducer() throws {
        let path = try creditedMP3(
            [#"TIPL(encoding=1, people=[["producer", "Prod P"], ["guitar", "Gee Tar"]])"#], version: 3)
        var song = try scan(path)
        #expect(song.performer == "Gee Tar (guitar)")
        song.performer = "Gee Tar (guitar); Bass Man (bass)"
        _ = try writer.write(song)
        #expect(try credits(path) == ["IPLS": [["guitar", "Gee Tar"], ["bass", "Bass Man"], ["producer", "Prod P"]]])
        #expect(try scan(path).performer == "Gee Tar (guitar); Bass Man (bass)")
    }

    @Test func withoutCreditsAPerformerStaysInTXXX() throws {
        let path = try creditedMP3(
            [#"TIPL(encoding=3, people=[["producer", "Prod P"]])"#, #"TXXX(encoding=3, desc="PERFORMER", text=["Old (oboe)"])"#],
            version: 4)
        var song = try scan(path)
        #expect(song.performer == "Old (oboe)")
        song.performer = "New (oboe)"
        _ = try writer.write(song)
        #expect(try credits(path) == ["TIPL": [["producer", "Prod P"]], "TXXX:PERFORMER": [["New (oboe)"]]])
    }
}
