import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// Cover art for `getCoverArt?size=` (`ImageScaler`, `boomic-ffmpeg scale`): a JPEG whose longer
/// side is the size asked for, never enlarged, and one line for an image that cannot be read.
@Suite struct ImageScalerTests {
    let dir = TempDir("boomic-scale")

    func image(_ name: String, _ width: Int, _ height: Int) throws -> [UInt8] {
        let path = dir.file(name)
        try toolOutput(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=\(width)x\(height)", "-frames:v", "1", path])
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The codec, width and height ffprobe reads in `bytes`.
    func probe(_ bytes: [UInt8]) throws -> String {
        let path = dir.file("probe-\(UUID().uuidString)")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let out = try toolOutput(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height",
                                  "-of", "csv=p=0", path])
        return String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aLargeJPEGIsScaledToItsLongerSide() async throws {
        let scaled = try await ImageScaler.scale(try image("big.jpg", 1000, 800), longerSide: 300)
        #expect(try probe(scaled) == "mjpeg,300,240")
        let tall = try await ImageScaler.scale(try image("tall.png", 400, 1000), longerSide: 250)
        #expect(try probe(tall) == "mjpeg,100,250")
    }

    /// No upscaling: a JPEG that fits comes back byte for byte; a PNG that fits becomes a JPEG
    /// of its own size.
    @Test func aSmallImageIsNotEnlarged() async throws {
        let small = try image("small.jpg", 200, 100)
        #expect(try await ImageScaler.scale(small, longerSide: 300) == small)
        let png = try await ImageScaler.scale(try image("small.png", 200, 100), longerSide: 300)
        #expect(try probe(png) == "mjpeg,200,100")
    }

    @Test func aBrokenImageIsOneLine() async throws {
        let cut = Array(try image("cut.jpg", 1000, 800).prefix(3000))
        let error = await #expect(throws: AudioError.self) { _ = try await ImageScaler.scale(cut, longerSide: 300, name: "cover.jpg") }
        #expect(error?.description == "cover.jpg: boomic-ffmpeg scale: a damaged image (Invalid data found when processing input)")
        let text = await #expect(throws: AudioError.self) { _ = try await ImageScaler.scale(Array("hello".utf8), longerSide: 300) }
        #expect(text?.reason.hasPrefix("boomic-ffmpeg scale: not an image") == true)
        #expect(text?.reason.contains("\n") == false)
    }
}
