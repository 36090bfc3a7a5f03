import BoomicCore
import BoomicMedia
import BoomicTestSupport
import Foundation
import Testing

/// Damaged input of every kind must come back as a value (facts or a one-line failure), never
/// a crash, and must never be modified.
@Suite struct DamagedFileTests {
    let dir = TempDir("boomic-damaged")

    static let originals = [
        "Miles Quartet/Blue Sketches/01 So Modal.flac",
        "Motörhead-ish/Ace of Spätz/03 Bömber.mp3",
        "Free Software Choir/Open Voices/01 Vorbis Dawn.ogg",
        "Field Recordist/Backyard Sessions/01 Morning Birds.wav",
        "Old Timer/Retro Hits/01 Eight Bit Song.mp3",
    ]

    func check(_ bytes: [UInt8], named name: String, art: ArtStore) throws {
        let path = dir.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let listed = ListedFile(path: path, size: bytes.count, mtime: 0)
        switch MediaScanner.read(listed, art: art) {
        case .success(let facts):
            #expect(facts.path == path)
        case .failure(let error):
            #expect(error.path == path)
            let text = try #require(error.errorDescription)
            #expect(!text.contains("\n") && !error.reason.isEmpty)
        }
        #expect(try DamagedFileTests.bytes(path) == bytes, "reading must not modify \(name)")
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test(arguments: originals)
    func truncatedAtManyLengths(_ original: String) throws {
        let data = try Self.bytes(Repo.samples + "/" + original)
        let ext = (original as NSString).pathExtension
        let art = try ArtStore(directory: dir.file("art"))
        var lengths = [0, 1, 3, 4, 10, 42, 100, 128, 500, 1000, 4096, data.count / 2, data.count - 129, data.count - 1]
        lengths += stride(from: 0, to: data.count, by: max(1, data.count / 40)).map { $0 }
        for n in Set(lengths) where n >= 0 && n < data.count {
            try check(Array(data.prefix(n)), named: "cut-\(n).\(ext)", art: art)
        }
    }

    @Test(arguments: originals)
    func corruptedBytes(_ original: String) throws {
        var data = try Self.bytes(Repo.samples + "/" + original)
        let ext = (original as NSString).pathExtension
        let art = try ArtStore(directory: dir.file("art"))
        var seed: UInt64 = 0x5EED
        for round in 0..<30 {
            // Flip a few bytes, biased towards the headers where parsers look.
            for _ in 0..<8 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                let limit = round % 2 == 0 ? min(data.count, 8192) : data.count
                let at = Int((seed >> 33) % UInt64(limit))
                data[at] ^= UInt8(truncatingIfNeeded: seed >> 13) | 1
            }
            try check(data, named: "flip-\(round).\(ext)", art: art)
        }
    }

    @Test(arguments: ["flac", "mp3", "ogg", "opus", "oga", "m4a", "mp4", "wav", "aiff", "wv", "ape", "mpc", "aac"])
    func noiseAndTextUnderEveryExtension(_ ext: String) throws {
        let art = try ArtStore(directory: dir.file("art"))
        var seed: UInt64 = 99
        let noise: [UInt8] = (0..<20_000).map { _ in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: seed >> 33)
        }
        try check(noise, named: "noise.\(ext)", art: art)
        try check(Array("just some text\nwith lines\n".utf8), named: "text.\(ext)", art: art)
        try check([0xFF, 0xFB, 0x90, 0x00] + [UInt8](repeating: 0, count: 100), named: "sync.\(ext)", art: art)
        for magic in ["fLaC", "OggS", "RIFF", "FORM", "ID3\u{4}", "MAC ", "wvpk", "MPCK"] {
            try check(Array(magic.utf8) + [UInt8](repeating: 0xFF, count: 64), named: "magic-\(magic.prefix(3)).\(ext)", art: art)
        }
    }
}
