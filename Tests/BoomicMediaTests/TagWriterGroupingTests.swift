import BoomicCore
@testable import BoomicMedia
import BoomicTestSupport
import Foundation
import Testing

/// ID3's TIT1 is the grouping for Picard (by default), foobar2000 and MPD, and the work for
/// iTunes 12.5, which moved the grouping to GRP1; TagLib 1.13 reads it as the work whatever
/// the tag. Boomic reads each tag by its own convention and writes back into the frames that
/// hold the value, checked by mutagen's raw frames.
extension TagWriterTests {
    /// A copy of the tagless sample MP3 with `frames` (mutagen constructors) in an ID3v2.4 tag.
    func taggedMP3(_ frames: [String]) throws -> String {
        let path = try copy("Loose Files/no tags at all.mp3")
        let script = """
            import sys
            from mutagen.id3 import ID3, TIT2, TIT1, GRP1, TXXX
            t = ID3()
            for f in [\(frames.joined(separator: ", "))]: t.add(f)
            t.save(sys.argv[1], v2_version=4)
            """
        _ = try Tool.run(["/usr/bin/python3", "-c", script, path])
        return path
    }

    /// Each frame's text as mutagen reads it: `TIT1`, `GRP1`, `TXXX:WORK`.
    func frames(_ path: String) throws -> [String: [String]] {
        let script = """
            import sys, json
            from mutagen.id3 import ID3
            t = ID3(sys.argv[1])
            print(json.dumps({k: [str(x) for x in v.text] for k, v in t.items() if k[:4] in ('TIT1', 'GRP1', 'TXXX')}))
            """
        return try JSONDecoder().decode([String: [String]].self, from: Data(try Tool.run(["/usr/bin/python3", "-c", script, path]).utf8))
    }

    @Test func picardsTIT1IsTheGroupingAndTXXXTheWork() throws {
        let path = try taggedMP3([#"TIT1(encoding=3, text="Fifth")"#, #"TXXX(encoding=3, desc="WORK", text="Symphony")"#])
        var song = try scan(path)
        #expect(song.grouping == "Fifth" && song.work == "Symphony")
        song.grouping = "Sixth"
        _ = try writer.write(song)
        #expect(try frames(path) == ["TIT1": ["Sixth"], "TXXX:WORK": ["Symphony"]])
        song = try scan(path)
        song.work = "Pastoral"
        _ = try writer.write(song)
        #expect(try frames(path) == ["TIT1": ["Sixth"], "TXXX:WORK": ["Pastoral"]])
        #expect(try scan(path).grouping == "Sixth" && scan(path).work == "Pastoral")
    }

    @Test func iTunesStyleTIT1IsTheWorkAndKeepsItWhenTheGroupingGoes() throws {
        let path = try taggedMP3([#"TIT1(encoding=3, text="Symphony")"#, #"GRP1(encoding=3, text="Fifth")"#])
        var song = try scan(path)
        #expect(song.grouping == "Fifth" && song.work == "Symphony")
        song.grouping = "Sixth"
        _ = try writer.write(song)
        #expect(try frames(path) == ["TIT1": ["Symphony"], "GRP1": ["Sixth"]])
        // Without GRP1, TIT1 would read as the grouping: the work moves to TXXX:WORK first.
        song = try scan(path)
        song.grouping = nil
        _ = try writer.write(song)
        #expect(try frames(path) == ["TXXX:WORK": ["Symphony"]])
        let back = try scan(path)
        #expect(back.grouping == nil && back.work == "Symphony")
    }

    @Test func aNewGroupingGoesInTIT1AndANewWorkInTXXX() throws {
        let path = try taggedMP3([#"TIT2(encoding=3, text="Untitled")"#])
        var song = try scan(path)
        song.grouping = "Fifth"; song.work = "Symphony"
        let outcome = try writer.write(song)
        #expect(outcome.unheld.isEmpty)
        #expect(try frames(path) == ["TIT1": ["Fifth"], "TXXX:WORK": ["Symphony"]])
    }
}
