import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// What the decoder suites share besides `ToneTracks`: decoding tracks back to back into a
/// `wav:` sink as the player hands over.
enum AudioFixtures {
    /// Decodes the files one after the other into a `wav:` sink, as the player hands over.
    static func render(_ paths: [String], to out: String) throws {
        let first = try Decoders.open(paths[0])
        let sink = try WAVFileSink(path: out, format: first.format)
        var block: [Int32] = []
        for path in paths {
            let d = path == paths[0] ? first : try Decoders.open(path)
            #expect(d.format == sink.format!)
            while true {
                block.removeAll(keepingCapacity: true)
                guard try d.read(into: &block, maxFrames: 4096) > 0 else { break }
                try sink.write(block)
            }
        }
        try sink.finish()
    }

    /// Every sample of a decode from where the decoder stands.
    static func decodeAll(_ d: any AudioDecoder) throws -> [Int32] {
        var all: [Int32] = []
        while try d.read(into: &all, maxFrames: 4096) > 0 {}
        return all
    }

    /// How far `a` is from `b` (the reference), in dB: infinity when equal.
    static func snr(_ a: [Int32], _ b: [Int32]) -> Double {
        var signal = 0.0, noise = 0.0
        for (x, y) in zip(a, b) {
            signal += Double(y) * Double(y)
            noise += (Double(x) - Double(y)) * (Double(x) - Double(y))
        }
        return noise == 0 ? .infinity : 10 * log10(signal / noise)
    }
}
