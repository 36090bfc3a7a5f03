@testable import BoomicMedia
import Testing

/// Container parsing on hand-built byte arrays: no files needed.
@Suite struct AudioRangeTests {
    func reader(_ bytes: [UInt8]) -> AudioRange.Reader {
        { offset, count in
            guard offset >= 0, offset < Int64(bytes.count) else { return [] }
            let start = Int(offset)
            return Array(bytes[start..<min(bytes.count, start + count)])
        }
    }

    func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
    func be32(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
    func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

    func locate(_ bytes: [UInt8], _ format: AudioFormat?, mpeg: Range<Int64>? = nil) -> Range<Int64> {
        AudioRange.locate(format: format, length: Int64(bytes.count), mpegRange: mpeg, read: reader(bytes))
    }

    @Test func wavDataChunk() {
        let fmt = ascii("fmt ") + le32(16) + [UInt8](repeating: 1, count: 16)
        let odd = ascii("junk") + le32(3) + [9, 9, 9, 0] // odd size is padded
        let data = ascii("data") + le32(8) + [UInt8](1...8)
        let id3 = ascii("id3 ") + le32(4) + [5, 5, 5, 5]
        let body = ascii("WAVE") + fmt + odd + data + id3
        let file = ascii("RIFF") + le32(body.count) + body
        let start = Int64(12 + fmt.count + odd.count + 8)
        #expect(locate(file, .wav) == start..<(start + 8))
    }

    @Test func aiffSoundChunk() {
        let comm = ascii("COMM") + be32(18) + [UInt8](repeating: 0, count: 18)
        let ssnd = ascii("SSND") + be32(12) + [UInt8](repeating: 3, count: 12)
        let body = ascii("AIFF") + comm + ssnd
        let file = ascii("FORM") + be32(body.count) + body
        let start = Int64(12 + comm.count + 8)
        #expect(locate(file, .aiff) == start..<(start + 12))
    }

    @Test func mp4MediaData() {
        let ftyp = be32(16) + ascii("ftyp") + ascii("M4A ") + be32(0)
        let moov = be32(12) + ascii("moov") + [1, 2, 3, 4]
        let mdat = be32(14) + ascii("mdat") + [UInt8](repeating: 6, count: 6)
        let file = ftyp + moov + mdat
        #expect(locate(file, .m4a) == Int64(ftyp.count + moov.count + 8)..<Int64(file.count))
    }

    @Test func flacAfterTheLastMetadataBlock() {
        let streaminfo: [UInt8] = [0x00, 0, 0, 34] + [UInt8](repeating: 0, count: 34)
        let padding: [UInt8] = [0x81, 0, 0, 10] + [UInt8](repeating: 0, count: 10)
        let frames: [UInt8] = [0xFF, 0xF8, 1, 2, 3]
        let id3: [UInt8] = ascii("ID3") + [4, 0, 0, 0, 0, 0, 5] + [UInt8](repeating: 0, count: 5)
        let file = id3 + ascii("fLaC") + streaminfo + padding + frames
        #expect(locate(file, .flac) == Int64(file.count - frames.count)..<Int64(file.count))
    }

    @Test func oggSkipsHeaderPages() {
        func page(granule: UInt64, body: [UInt8]) -> [UInt8] {
            ascii("OggS") + [0, 0] + (0..<8).map { UInt8(truncatingIfNeeded: granule >> ($0 * 8)) }
                + le32(1) + le32(0) + le32(0) + [1, UInt8(body.count)] + body
        }
        let ident = page(granule: 0, body: [1, 1, 1])
        let comment = page(granule: .max, body: [2, 2])
        let setup = page(granule: 0, body: [3])
        let audio = page(granule: 4096, body: [4, 4, 4, 4])
        let file = ident + comment + setup + audio
        #expect(locate(file, .ogg) == Int64(file.count - audio.count)..<Int64(file.count))
    }

    @Test func mpegUsesTagLibsFrameRange() {
        let file = [UInt8](repeating: 0, count: 100)
        #expect(locate(file, .mp3, mpeg: 10..<90) == 10..<90)
    }

    @Test func genericStripsID3v2ID3v1AndAPE() {
        let id3v2 = ascii("ID3") + [3, 0, 0x10, 0, 0, 0, 2] + [0, 0] + [UInt8](repeating: 0, count: 10)
        let audio = [UInt8](repeating: 0xAA, count: 50)
        let apeItems = [UInt8](repeating: 0, count: 20)
        let apeFooter = ascii("APETAGEX") + le32(2000) + le32(20 + 32) + le32(1) + le32(Int(0x8000_0000)) + [UInt8](repeating: 0, count: 8)
        let apeHeader = [UInt8](repeating: 0, count: 32)
        let id3v1 = ascii("TAG") + [UInt8](repeating: 0, count: 125)
        let file = id3v2 + audio + apeHeader + apeItems + apeFooter + id3v1
        let start = Int64(id3v2.count)
        #expect(locate(file, .wavpack) == start..<(start + Int64(audio.count)))
        #expect(locate(file, nil) == start..<(start + Int64(audio.count)))
    }

    @Test func damagedHeadersFallBackWithoutTrapping() {
        // Sizes that point past the end or overflow, and cut-off headers.
        let hugeAtom: [UInt8] = be32(1) + ascii("free") + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + [1, 2]
        #expect(locate(hugeAtom, .m4a) == 0..<Int64(hugeAtom.count))
        let cutRIFF = ascii("RIFF") + le32(100) + ascii("WAVE") + ascii("fmt ") + le32(0x7FFF_FFFF)
        #expect(locate(cutRIFF, .wav) == 0..<Int64(cutRIFF.count))
        #expect(locate(ascii("fLaC") + [0x00, 0xFF], .flac) == 0..<6)
        #expect(locate(ascii("OggS"), .opus) == 0..<4)
        #expect(locate([], .flac) == 0..<0)
        for n in 0..<64 {
            let noise = (0..<n).map { UInt8(truncatingIfNeeded: $0 * 97 + 13) }
            for format in AudioFormat.allCases + [nil] {
                let r = locate(noise, format)
                #expect(r.lowerBound >= 0 && r.upperBound <= Int64(n))
            }
        }
    }

    @Test func sampleCoversLengthAndThreeWindows() {
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0) }
        let small = Fingerprint.sample(of: 100..<200, window: 50, isOgg: false, read: reader(data))
        #expect(small == withUnsafeBytes(of: Int64(100).littleEndian, Array.init) + Array(data[100..<200]))
        let big = Fingerprint.sample(of: 0..<1000, window: 10, isOgg: false, read: reader(data))
        #expect(big == withUnsafeBytes(of: Int64(1000).littleEndian, Array.init)
            + Array(data[0..<10]) + Array(data[495..<505]) + Array(data[990..<1000]))
        #expect(Fingerprint.sample(of: 0..<0, window: 10, isOgg: false, read: reader(data)) == nil)
        #expect(Fingerprint.sample(of: 990..<2000, window: 10, isOgg: false, read: reader(data)) == nil)
    }

    @Test func oggSampleIgnoresPageNumbersAndChecksums() {
        func page(sequence: Int, crc: Int) -> [UInt8] {
            ascii("OggS") + [0, 0] + [UInt8](repeating: 1, count: 8) + le32(7) + le32(sequence) + le32(crc)
                + [1, 40] + [UInt8](repeating: 0x5A, count: 40)
        }
        let a = (0..<50).flatMap { page(sequence: $0, crc: $0 * 31) }
        let b = (0..<50).flatMap { page(sequence: $0 + 1, crc: $0 * 77 + 5) }
        for window in [13, 64, 100, 300] {
            let sa = Fingerprint.sample(of: 0..<Int64(a.count), window: window, isOgg: true, read: reader(a))
            let sb = Fingerprint.sample(of: 0..<Int64(b.count), window: window, isOgg: true, read: reader(b))
            #expect(sa != nil && sa == sb)
        }
    }
}

