import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// CUE sheets as rippers write them, one example each, and the laws on many generated sheets:
/// every sheet written reads back as it was, in every encoding, and its tracks joined cover
/// the file exactly once.
@Suite("CUE sheets")
struct CueSheetTests {
    /// An EAC sheet (its "gaps appended" layout): CP1252 text, a pregap before track 2, a
    /// hidden first-track pregap, a title with quotes in it.
    static let eac = """
        REM GENRE "Folk Rock"
        REM DATE 1998
        REM DISCID 2A0B5C03
        REM COMMENT "ExactAudioCopy v1.6"
        CATALOG 0724384960650
        PERFORMER "Les Rivi\u{E8}res"
        TITLE "Chansons d'\u{E9}t\u{E9}"
        REM DISCNUMBER 2
        FILE "Les Rivi\u{E8}res - Chansons.flac" WAVE
          TRACK 01 AUDIO
            TITLE "Caf\u{E9} \u{2014} "Intro""
            PERFORMER "Les Rivi\u{E8}res"
            ISRC FRZ039800212
            INDEX 00 00:00:00
            INDEX 01 00:00:33
          TRACK 02 AUDIO
            TITLE "Na\u{EF}ve"
            PERFORMER "Z\u{F6}e & Co"
            SONGWRITER "A. Dupr\u{E9}"
            FLAGS DCP
            INDEX 00 00:01:50
            INDEX 01 00:02:00
          TRACK 03 AUDIO
            TITLE "\u{C9}t\u{E9} \u{20AC}"
            INDEX 01 00:03:74
        """

    static func cp1252(_ s: String) -> [UInt8] {
        s.unicodeScalars.map { u in
            if u.value < 0x100 { return UInt8(u.value) }
            switch u.value { case 0x20AC: return 0x80; case 0x2014: return 0x97; default: fatalError("not in CP1252") }
        }
    }

    @Test func anEACSheetInCP1252ReadsEveryField() throws {
        let sheet = try CueSheet(bytes: Self.cp1252(Self.eac.replacingOccurrences(of: "\n", with: "\r\n")))
        #expect(sheet.title == "Chansons d'été")
        #expect(sheet.performer == "Les Rivières")
        #expect(sheet.genre == "Folk Rock" && sheet.date == "1998" && sheet.comment == "ExactAudioCopy v1.6")
        #expect(sheet.catalog == "0724384960650" && sheet.discNumber == 2)
        #expect(sheet.files.map(\.name) == ["Les Rivières - Chansons.flac"] && sheet.files[0].type == "WAVE")
        let t = sheet.tracks
        #expect(t.map(\.number) == [1, 2, 3])
        #expect(t.map(\.title) == ["Café — \"Intro\"", "Naïve", "Été €"])
        #expect(t[0].isrc == "FRZ039800212" && t[1].performer == "Zöe & Co" && t[1].songwriter == "A. Dupré")
        #expect(t.map(\.start.frames) == [33, 150, 299] && t[1].pregap == CueTime(minutes: 0, seconds: 1, frames: 50))
        #expect(!sheet.describesTrackFiles)
    }

    /// foobar2000's rule: a pregap is the end of the track before; the first track starts at
    /// the file's start, with what comes before its INDEX 01.
    @Test func tracksSpanFromIndexOneToTheNextAndTheFirstFromTheFilesStart() throws {
        let sheet = try CueSheet(parsing: Self.eac)
        let parts = try sheet.files[0].parts(sampleRate: 44_100, totalSamples: 1_000_000)
        #expect(parts.map(\.start) == [0, 150 * 588, 299 * 588])
        #expect(parts.map(\.end) == [150 * 588, 299 * 588, nil])
        #expect(throws: CueSheetError.self) { try sheet.files[0].parts(sampleRate: 44_100, totalSamples: 299 * 588) }
        #expect(try sheet.files[0].parts(sampleRate: 48_000, totalSamples: nil).map(\.start) == [0, 150 * 640, 299 * 640])
    }

    @Test(arguments: [
        ("TITLE \"x\"\n", "it names no FILE"),
        ("FILE \"a.wav\" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:10:00\n  TRACK 02 AUDIO\n    INDEX 01 00:05:00\n", "line 4: track 2 starts at 00:05:00, not after track 1 (00:10:00)"),
        ("FILE \"a.wav\" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:61:00\n", "line 3: INDEX time '00:61:00' is not mm:ss:ff"),
        ("FILE \"a.wav\" WAVE\n  TRACK 01 AUDIO\n    TITLE \"x\"\n", "line 2: track 1 has no INDEX 01"),
        ("TRACK 01 AUDIO\n", "line 1: TRACK comes before any FILE"),
        ("FILE \"a.wav\" WAVE\n  TRACK 01 AUDIO\n    INDEX 00 00:02:00\n    INDEX 01 00:01:00\n", "line 2: track 1's INDEX 00 is after its INDEX 01"),
    ])
    func aBadSheetSaysWhyInOneLine(text: String, reason: String) {
        #expect(throws: CueSheetError(reason)) { try CueSheet(parsing: text) }
    }

    @Test func bytesThatAreNoTextAreNoSheet() {
        #expect(throws: CueSheetError.undecodable) { try CueSheet(bytes: [0x46, 0x00, 0x49, 0x4C, 0x45]) }
        #expect(throws: CueSheetError.undecodable) { try CueSheet(bytes: [0xFF, 0xFE, 0x46]) }
        #expect(throws: CueSheetError.undecodable) { try CueSheet(bytes: [0xEF, 0xBB, 0xBF, 0xC3]) }
    }

    @Test func aSheetOfOneTrackPerFileDescribesTrackFiles() throws {
        let sheet = try CueSheet(parsing: "FILE \"01.flac\" WAVE\n TRACK 01 AUDIO\n  INDEX 01 00:00:00\nFILE 02 b.flac WAVE\n TRACK 02 AUDIO\n  INDEX 01 00:00:00\n")
        #expect(sheet.describesTrackFiles && sheet.files.map(\.name) == ["01.flac", "02 b.flac"])
    }

    // MARK: Laws on generated sheets

    static let words = ["Café", "Naïve", "Ærø", "Zöe", "€uro", "Straße", "l'été", "Ñandú", "Intro", "Part \"2\"", "A & B", "Ça va"]

    /// A random sheet and its text, in the layout rippers vary: indentation, case, line ends,
    /// quoting, fields present or not.
    static func generated(_ rng: inout SplitMix64) -> (CueSheet, String) {
        var sheet = CueSheet()
        var lines: [String] = []
        func text() -> String { (0..<Int.random(in: 1...3, using: &rng)).map { _ in rng.pick(words) }.joined(separator: " ") }
        func maybe(_ p: Double = 0.6) -> Bool { rng.chance(p) }
        func cmd(_ c: String) -> String { maybe(0.8) ? c : c.lowercased() }
        if maybe() { sheet.genre = rng.pick(words); lines.append("REM GENRE \"\(sheet.genre!)\"") }
        if maybe() { sheet.date = String(Int.random(in: 1950...2030, using: &rng)); lines.append("REM DATE \(sheet.date!)") }
        if maybe() { sheet.comment = text(); lines.append("REM COMMENT \"\(sheet.comment!)\"") }
        if maybe(0.3) { lines.append("REM DISCID 00AB12CD") }
        if maybe() { sheet.catalog = "0724384960650"; lines.append(cmd("CATALOG") + " 0724384960650") }
        if maybe() { sheet.performer = text(); lines.append(cmd("PERFORMER") + " \"\(sheet.performer!)\"") }
        if maybe() { sheet.title = text(); lines.append(cmd("TITLE") + " \"\(sheet.title!)\"") }
        if maybe(0.3) { sheet.discNumber = Int.random(in: 1...4, using: &rng); lines.append("REM DISCNUMBER \(sheet.discNumber!)") }
        var number = 0
        for f in 0..<Int.random(in: 1...3, using: &rng) {
            var file = CueSheet.File(name: "Disc \(f) \(rng.pick(words)).flac", type: "WAVE")
            lines.append(cmd("FILE") + " \"\(file.name)\" WAVE")
            var at = Int.random(in: 0...200, using: &rng)
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                number += 1
                let indent = rng.pick(["  ", "\t", "    ", ""])
                lines.append(indent + cmd("TRACK") + " \(number < 10 ? "0" : "")\(number) AUDIO")
                var t = CueSheet.Track(number: number, start: CueTime(frames: 0))
                if maybe() { t.title = text(); lines.append(indent + "  TITLE \"\(t.title!)\"") }
                if maybe(0.4) { t.performer = text(); lines.append(indent + "  PERFORMER \"\(t.performer!)\"") }
                if maybe(0.3) { t.songwriter = text(); lines.append(indent + "  SONGWRITER \"\(t.songwriter!)\"") }
                if maybe(0.3) { t.isrc = "USRC17607839"; lines.append(indent + "  ISRC USRC17607839") }
                if maybe(0.2) { lines.append(indent + "  FLAGS DCP") }
                if maybe(0.4) {
                    t.pregap = CueTime(frames: at)
                    lines.append(indent + "  INDEX 00 \(t.pregap!.text)")
                    at += Int.random(in: 1...300, using: &rng)
                }
                t.start = CueTime(frames: at)
                lines.append(indent + "  " + cmd("INDEX") + " 01 \(t.start.text)")
                if maybe(0.1) { lines.append(indent + "  INDEX 02 \(CueTime(frames: at + 1).text)") }
                file.tracks.append(t)
                at += Int.random(in: 2...(75 * 600), using: &rng)
            }
            sheet.files.append(file)
        }
        let end = rng.pick(["\n", "\r\n", "\r"])
        return (sheet, lines.joined(separator: end) + (maybe() ? end : ""))
    }

    /// The text in one of the encodings rippers write.
    static func encoded(_ text: String, _ rng: inout SplitMix64) -> [UInt8] {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return Array(text.utf8)
        case 1: return [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        case 2: return [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case 3: return [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        default: return cp1252(text)
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func everyGeneratedSheetReadsBackInEveryEncoding(seed: UInt64) throws {
        var rng = SplitMix64(seed: Seeds.replayed ?? seed)
        for _ in 0..<250 {
            let (sheet, text) = Self.generated(&rng)
            let read = try CueSheet(bytes: Self.encoded(text, &rng))
            #expect(read == sheet, "\(rng.replay)\n\(text)")
        }
    }

    /// The parts of every file cover it once, in order, exactly at CD frames' samples; and a
    /// part's bounds as seconds (`Double(frames) / 75`) come back to the same sample, so
    /// ranges in seconds lose nothing at 44.1 kHz.
    @Test(arguments: [5, 6, 7])
    func partsCoverTheFileOnceAtExactSamples(seed: UInt64) throws {
        var rng = SplitMix64(seed: Seeds.replayed ?? seed)
        for _ in 0..<250 {
            let (sheet, _) = Self.generated(&rng)
            for file in sheet.files {
                let rate = rng.pick([44_100, 48_000, 96_000, 88_200])
                let total = file.tracks.last!.start.samples(atRate: rate) + Int.random(in: 1...1_000_000, using: &rng)
                let parts = try file.parts(sampleRate: rate, totalSamples: total)
                #expect(parts.first?.start == 0 && parts.last?.end == nil, "\(rng.replay)")
                for (a, b) in zip(parts, parts.dropFirst()) {
                    #expect(a.end == b.start && a.start < b.start, "\(rng.replay)")
                    #expect(b.start == b.track.start.frames * rate / 75, "\(rng.replay)")
                    let seconds = Double(b.track.start.frames) / 75
                    #expect(Int((seconds * Double(rate)).rounded()) == b.start, "\(rng.replay)")
                }
                if rate == 44_100 { #expect(parts.dropFirst().allSatisfy { $0.start % 588 == 0 }) }
            }
        }
    }
}
