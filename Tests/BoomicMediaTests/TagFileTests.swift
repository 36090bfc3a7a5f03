import BoomicMedia
import BoomicTestSupport
import Foundation
import Testing

@Suite struct TagFileTests {
    let dir = TempDir("boomic-tagfile")

    func sample(_ path: String) -> String { Repo.samples + "/" + path }

    func copy(_ sample: String) throws -> String {
        let target = dir.file((sample as NSString).lastPathComponent)
        try FileManager.default.copyItem(atPath: self.sample(sample), toPath: target)
        return target
    }

    @Test func missingFileIsUnreadableWithTheSystemReason() {
        let path = dir.file("nope.flac")
        #expect(throws: MediaError.unreadable(path: path, reason: "cannot open the file (No such file or directory)")) {
            try TagFile(path: path)
        }
    }

    @Test func folderNamedLikeAudioIsUnreadable() throws {
        let path = dir.file("folder.flac")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: MediaError.self) { try TagFile(path: path) }
    }

    @Test func errorDescriptionIsOneLine() {
        let e = MediaError.unreadable(path: "/m/a.flac", reason: "bad\nthing")
        #expect(e.errorDescription == "/m/a.flac: bad thing")
        #expect(e.path == "/m/a.flac" && e.reason == "bad\nthing")
    }

    @Test func audioPropertiesAndFormats() throws {
        let flac = try TagFile(path: sample("Дмитрий Соколов/Зимняя дорога/01 Метель.flac"))
        #expect(flac.format == .flac)
        #expect(flac.audioProperties.sampleRate == 48000)
        #expect(flac.audioProperties.bitsPerSample == 24)
        #expect(flac.audioProperties.channels == 1)
        #expect(flac.audioProperties.lengthMilliseconds == 1500)
        #expect(flac.flacMD5?.count == 16)
        #expect(flac.mpegAudioRange == nil)

        let mp3 = try TagFile(path: sample("Motörhead-ish/Ace of Spätz/03 Bömber.mp3"))
        #expect(mp3.format == .mp3)
        #expect(mp3.audioProperties.bitsPerSample == 0)
        #expect(mp3.flacMD5 == nil)
        let range = try #require(mp3.mpegAudioRange)
        #expect(range.lowerBound > 0 && range.upperBound <= mp3.length)
        #expect(mp3.read(at: range.lowerBound, count: 2).first == 0xFF)
        #expect(mp3.properties()["ARTIST"] == ["Motörhead-ish", "Lemmý Kilmíster"])

        #expect(try TagFile(path: sample("Free Software Choir/Open Voices/01 Vorbis Dawn.ogg")).format == .ogg)
        #expect(try TagFile(path: sample("Loose Files/no tags at all.wav")).format == .wav)
    }

    @Test func readsAreTheFilesBytesAnywhere() throws {
        let path = sample("Field Recordist/Backyard Sessions/02 Evening Rain.wav")
        let data = try bytes(of: path)
        #expect(data.count > 100_000)
        let file = try TagFile(path: path)
        #expect(file.length == Int64(data.count))
        // Small reads inside, across and after the shim's cached block, large reads, the tail.
        var seed: UInt64 = 7
        for _ in 0..<400 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let offset = Int((seed >> 20) % UInt64(data.count + 100))
            let count = Int((seed >> 8) % 4096) + (seed & 1 == 0 ? 0 : 20_000)
            let expected = offset < data.count ? Array(data[offset..<min(data.count, offset + count)]) : []
            #expect(file.read(at: Int64(offset), count: count) == expected, "offset \(offset) count \(count)")
        }
    }

    @Test func readPastTheEndIsShort() throws {
        let file = try TagFile(path: sample("Loose Files/no tags at all.wav"))
        #expect(file.read(at: file.length - 3, count: 10).count == 3)
        #expect(file.read(at: file.length + 5, count: 10).isEmpty)
        #expect(file.read(at: -1, count: 10).isEmpty)
    }

    @Test(arguments: [
        ("Miles Quartet/Blue Sketches/01 So Modal.flac", "image/png", 3),
        ("Motörhead-ish/Ace of Spätz/01 Øverkill.mp3", "image/jpeg", 3),
        ("Free Software Choir/Open Voices/01 Vorbis Dawn.ogg", "image/png", 3),
    ])
    func embeddedPictures(_ path: String, _ mime: String, _ type: Int) throws {
        let file = try TagFile(path: sample(path))
        let pictures = file.pictures()
        let picture = try #require(pictures.first)
        #expect(pictures.count == 1)
        #expect(picture.mime == mime && picture.type == type && picture.size > 0)
        let bytes = try #require(file.withPictureBytes(at: 0) { Array($0) })
        #expect(bytes.count == picture.size)
        #expect(bytes.starts(with: mime == "image/png" ? [0x89, 0x50, 0x4E, 0x47] : [0xFF, 0xD8, 0xFF]))
        #expect(file.withPictureBytes(at: 1) { $0.count } == nil)
    }

    @Test func readOnlyFileCannotBeSaved() throws {
        let file = try TagFile(path: sample("Loose Files/no tags at all.flac"))
        #expect(throws: MediaError.self) { try file.save() }
    }

    @Test(arguments: [
        "Miles Quartet/Blue Sketches/03 Flamenco Dusk.flac",
        "Motörhead-ish/Ace of Spätz/12 Ace of Spätz.mp3",
        "Free Software Choir/Open Voices/02 Libre Dusk.ogg",
        "Field Recordist/Backyard Sessions/01 Morning Birds.wav",
        "Loose Files/no tags at all.mp3",
    ])
    func writeTagsAndReadThemBack(_ samplePath: String) throws {
        let path = try copy(samplePath)
        let fingerprint = Fingerprint.of(try TagFile(path: path))
        let hadID3v1 = try bytes(of: path).suffix(128).starts(with: Array("TAG".utf8))

        let file = try TagFile(path: path, writable: true)
        #expect(file.setProperty("ARTIST", ["Ann", "Bo"]))
        #expect(file.setProperty("ALBUMARTIST", ["Various Artists"]))
        #expect(file.setProperty("REPLAYGAIN_TRACK_GAIN", ["-3.21 dB"]))
        #expect(file.setProperty("MUSICBRAINZ_TRACKID", ["0b3c5a2e-0000-4000-8000-000000000001"]))
        #expect(file.setProperty("GENRE", []))
        try file.save()

        let again = try TagFile(path: path).properties()
        #expect(again["ARTIST"] == ["Ann", "Bo"])
        #expect(again["ALBUMARTIST"] == ["Various Artists"])
        #expect(again["REPLAYGAIN_TRACK_GAIN"] == ["-3.21 dB"])
        #expect(again["MUSICBRAINZ_TRACKID"] == ["0b3c5a2e-0000-4000-8000-000000000001"])
        #expect(again["GENRE"] == nil)
        #expect(Fingerprint.of(try TagFile(path: path)) == fingerprint, "audio untouched")
        if samplePath.hasSuffix(".mp3") {
            let hasID3v1 = try bytes(of: path).suffix(128).starts(with: Array("TAG".utf8))
            #expect(hasID3v1 == hadID3v1, "saving must not add an ID3v1 trailer")
        }
    }

    @Test(arguments: [
        "Miles Quartet/Blue Sketches/01 So Modal.flac",
        "Motörhead-ish/Ace of Spätz/01 Øverkill.mp3",
        "Free Software Choir/Open Voices/01 Vorbis Dawn.ogg",
        "Loose Files/no tags at all.wav",
    ])
    func replaceAndRemoveTheFrontCover(_ samplePath: String) throws {
        let path = try copy(samplePath)
        let cover: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("a new cover".utf8)
        do {
            let file = try TagFile(path: path, writable: true)
            #expect(file.setFrontCover(cover, mime: "image/jpeg", description: "front"))
            try file.save()
        }
        do {
            let file = try TagFile(path: path)
            let fronts = file.pictures().filter { $0.type == 3 }
            #expect(fronts.count == 1)
            #expect(fronts.first?.mime == "image/jpeg")
            #expect(file.withPictureBytes(at: try #require(fronts.first).index) { Array($0) } == cover)
        }
        do {
            let file = try TagFile(path: path, writable: true)
            #expect(file.setFrontCover([], mime: ""))
            try file.save()
        }
        #expect(try TagFile(path: path).pictures().filter { $0.type == 3 }.isEmpty)
    }
}
