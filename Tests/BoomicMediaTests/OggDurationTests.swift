import BoomicCore
@testable import BoomicMedia
import BoomicTestSupport
import Foundation
import Testing

/// The length of an Ogg file TagLib 1.13 gives none: its last page's granule position, over
/// the rate (Vorbis) or over 48 kHz after the pre-skip (Opus).
@Suite struct OggDurationTests {
    /// A page header: `OggS`, version 0, flags, the granule position (little-endian), then
    /// serial, sequence, CRC and an empty segment table, which the length does not read.
    static func page(granule: Int64) -> [UInt8] {
        Array("OggS".utf8) + [0, 4] + withUnsafeBytes(of: granule.littleEndian, Array.init) + [UInt8](repeating: 0, count: 13)
    }

    static func seconds(_ bytes: [UInt8], opus: Bool = false, rate: Int? = 44_100) -> Double? {
        OggDuration.seconds(isOpus: opus, sampleRate: rate, length: Int64(bytes.count)) { at, count in
            Array(bytes[Int(at)..<min(bytes.count, Int(at) + count)])
        }
    }

    @Test func theLastPageWithAGranuleGivesTheLength() {
        let audio = [UInt8](repeating: 0x55, count: 3000)
        #expect(Self.seconds(Self.page(granule: 0) + audio + Self.page(granule: 44_100) + audio) == 1)
        // A last page without a granule (-1: no packet ends in it) is passed over.
        #expect(Self.seconds(Self.page(granule: 88_200) + audio + Self.page(granule: -1) + audio) == 2)
        #expect(Self.seconds(audio) == nil)
        #expect(Self.seconds(Self.page(granule: 44_100), rate: nil) == nil)
        // Opus: at 48 kHz, without the pre-skip OpusHead names (312 samples here).
        let head = Self.page(granule: 0) + Array("OpusHead".utf8) + [1, 2, 0x38, 0x01] + [UInt8](repeating: 0, count: 8)
        #expect(Self.seconds(head + audio + Self.page(granule: 96_312), opus: true, rate: nil) == 2)
    }

    /// A Vorbis file whose second of audio is all in one page (made by oggenc): TagLib says 0 ms;
    /// the scan says 1 s, as ogginfo and MPD do.
    @Test func aFileWhoseAudioIsOnePageHasItsLength() throws {
        let path = Repo.root + "/Tests/Fixtures/Ogg/audio-in-one-page.ogg"
        #expect(try TagFile(path: path).audioProperties.lengthMilliseconds == 0)
        // Held to the end: a `TempDir` let go at once is removed before the store makes its
        // folder in it, which then stays behind.
        let dir = TempDir("boomic-ogg-length")
        let art = try ArtStore(directory: dir.file("art"))
        let listed = try #require(try MediaScanner.list(roots: [path]).first)
        let facts = try MediaScanner.read(listed, art: art).get()
        #expect(facts.duration == 1)
        withExtendedLifetime(dir) {}
    }
}
