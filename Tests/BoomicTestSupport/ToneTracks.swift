import Foundation

/// Tracks cut from one continuous tone at odd sample offsets (on no codec's frame boundary):
/// what every gapless test joins back together, from the decoders' to the `boomic play` ones.
public enum ToneTracks {
    /// Where the tracks start, in frames.
    public static let cuts = [0, 37_003, 91_117]

    /// Writes `dir/tone.wav` (44.1 kHz, 16-bit stereo: a sweep over a sine, `seconds` long) and
    /// its tracks `dir/t0.wav`, `t1.wav`, `t2.wav`; returns where each track starts, in frames,
    /// followed by the tone's length.
    @discardableResult
    public static func make(in dir: String, seconds: Double = 3) throws -> [Int] {
        let tone = dir + "/tone.wav"
        // `-R`: sox dithers the tone to 16 bits with a random seed unless told to repeat
        // itself, and every test on these tracks should see the same samples each run (a
        // damaged-file test saw its damage go unnoticed in one run of many).
        try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", tone,
                        "synth", String(seconds), "sine", "300-3000", "sine", "441", "gain", "-3"])
        let bounds = cuts + [try frames(ofWAV: tone)]
        for i in cuts.indices {
            try toolOutput(["sox", tone, dir + "/t\(i).wav", "trim", "\(bounds[i])s", "\(bounds[i + 1] - bounds[i])s"])
        }
        return bounds
    }

    /// Frames in a WAV file, as `soxi` reads its header.
    public static func frames(ofWAV path: String) throws -> Int {
        Int(String(decoding: try toolOutput(["soxi", "-s", path]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    public struct NoDataChunk: Error, CustomStringConvertible {
        public let description = "the WAV file has no data chunk"
    }

    /// A WAV file's data chunk.
    public static func wavData(_ wav: [UInt8]) throws -> [UInt8] {
        var i = 12
        while i + 8 <= wav.count {
            let id = String(decoding: wav[i..<(i + 4)], as: UTF8.self)
            let size = Int(wav[i + 4]) | Int(wav[i + 5]) << 8 | Int(wav[i + 6]) << 16 | Int(wav[i + 7]) << 24
            if id == "data" { return Array(wav[(i + 8)..<min(wav.count, i + 8 + size)]) }
            i += 8 + size + (size & 1)
        }
        throw NoDataChunk()
    }

    /// The data chunk of the WAV file at `path`.
    public static func wavData(ofFile path: String) throws -> [UInt8] {
        try wavData([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    }
}
