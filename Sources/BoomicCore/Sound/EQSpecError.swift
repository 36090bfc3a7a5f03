import Foundation

/// Why an `--eq` SPEC or an EQ file cannot be used: one line saying what and what to do. The CLI
/// exits 64 on any of them (bad syntax), so nothing about a song or the library is touched.
public enum EQSpecError: Error, Hashable, Sendable, LocalizedError {
    case empty
    /// Neither a preset, a saved profile, a file nor bands.
    case unknown(String)
    case badBand(String)
    case sliderOutOfRange(frequency: Double, gain: Double)
    case frequencyOutOfRange(Double)
    case duplicateFrequency(Double)
    case tooManyBands(Int)
    /// An Equalizer APO / AutoEq file with a line this reader does not understand (1-based).
    case badFile(path: String, line: Int, reason: String)
    case notAnEQFile(path: String)
    case unreadableFile(path: String)

    public var errorDescription: String? { message }

    public var message: String {
        func shown(_ text: String) -> String { OneLine.excerpt(text, around: 0) }
        func hz(_ f: Double) -> String { f >= 1000 ? "\(Self.number(f / 1000)) kHz" : "\(Self.number(f)) Hz" }
        switch self {
        case .empty:
            return "empty EQ spec: give a preset (\(EQPreset.names.prefix(4).joined(separator: ", ")), …), a profile, a file or bands like 60=+3,1k=-2"
        case .unknown(let text):
            return "no EQ preset, profile or file named '\(shown(text))', and it is not bands like 60=+3,1k=-2; presets: \(EQPreset.names.joined(separator: ", "))"
        case .badBand(let text):
            return "bad EQ band '\(shown(text))': write FREQ=GAIN in Hz (or k for kHz) and dB, e.g. 60=+3,1k=-2,2.4k=+1"
        case .sliderOutOfRange(let f, let gain):
            return "EQ gain \(Self.number(gain)) dB at \(hz(f)) is outside -12 to +12 dB"
        case .frequencyOutOfRange(let f):
            return "EQ band at \(hz(f)) is outside 20 Hz to 20 kHz"
        case .duplicateFrequency(let f):
            return "EQ band at \(hz(f)) is given twice; give each frequency once"
        case .tooManyBands(let n):
            return "\(n) parametric EQ bands: at most \(EQSpec.maxParametricBands) besides the six graphic ones"
        case .badFile(let path, let line, let reason):
            return "\(shown(path)):\(line): \(reason)"
        case .unreadableFile(let path):
            return "\(shown(path)): cannot be read; check its permissions"
        case .notAnEQFile(let path):
            return "\(shown(path)): no 'GraphicEQ:' or 'Filter N: ON PK …' lines; expected an Equalizer APO or AutoEq file"
        }
    }

    /// 3, -2.5, 2.4: no trailing zeros, so a message shows the number as it was typed.
    static func number(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e9 ? String(Int(x)) : String(format: "%g", x)
    }
}
