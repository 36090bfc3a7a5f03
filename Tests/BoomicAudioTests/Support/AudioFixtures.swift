import BoomicAudio
import BoomicTestSupport
import Foundation
import Testing

/// What the decoder suites share: tracks cut from one tone, decoding them back to back into a
/// `wav:` sink as the player hands over, and reading WAV files back.
enum AudioFixtures {
    static let cuts = [0, 37_003, 91_117]

    /// The continuous tone and its three tracks as WAV, in `dir`; returns the tone's frame count.
    static func makeTracks(in dir: String) throws -> Int {
        let tone = dir + "/tone.wav"
        try toolOutput(["sox", "-n", "-r", "44100", "-b", "16", "-c", "2", tone,
                        "synth", "3", "sine", "300-3000", "sine", "441", "gain", "-3"])
        let total = try frames(of: tone)
        let bounds = cuts + [total]
        for i in 0..<cuts.count {
            try toolOutput(["sox", tone, dir + "/t\(i).wav", "trim", "\(bounds[i])s", "\(bounds[i + 1] - bounds[i])s"])
        }
        return total
    }

    static func frames(of wav: String) throws -> Int {
        Int(String(decoding: try toolOutput(["soxi", "-s", wav]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

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

    /// A WAV file's data chunk.
    static func wavData(_ wav: [UInt8]) throws -> [UInt8] {
        var i = 12
        while i + 8 <= wav.count {
            let id = String(decoding: wav[i..<(i + 4)], as: UTF8.self)
            let size = Int(wav[i + 4]) | Int(wav[i + 5]) << 8 | Int(wav[i + 6]) << 16 | Int(wav[i + 7]) << 24
            if id == "data" { return Array(wav[(i + 8)..<min(wav.count, i + 8 + size)]) }
            i += 8 + size + (size & 1)
        }
        throw AudioError(path: "WAV", reason: "no data chunk")
    }

    /// The data chunk of the WAV file at `path`.
    static func wavData(ofFile path: String) throws -> [UInt8] {
        try wavData([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    }
}
