import Foundation

/// An output as the user names it (`--output`, the config file's `output`): `null`, `wav:FILE`,
/// `alsa` (ALSA's `default`, which also reaches PipeWire and PulseAudio) or `alsa:DEVICE` (any
/// ALSA PCM name: `hw:0,0`, `plughw:1`, `pipewire`).
///
/// Parsing checks only the syntax, so a misspelt output is a usage error before anything plays;
/// whether an ALSA device exists is known only when the sink is prepared (an `AudioError`).
public enum SinkSpec: Hashable, Sendable, CustomStringConvertible {
    case null
    case wav(path: String)
    case alsa(device: String)

    /// The forms, for messages and help.
    public static let forms = "null, wav:FILE, alsa or alsa:DEVICE"

    public init(parsing text: String) throws(SinkSpecError) {
        if text.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true }) {
            throw SinkSpecError(spec: text, reason: "it contains a control character")
        }
        let (kind, rest) = text.firstIndex(of: ":").map { (text[..<$0].lowercased(), String(text[text.index(after: $0)...])) }
            ?? (text.lowercased(), nil)
        switch (kind, rest) {
        case ("null", nil): self = .null
        case ("alsa", nil): self = .alsa(device: "default")
        case ("wav", nil), ("wav", ""): throw SinkSpecError(spec: text, reason: "give the file to write: wav:FILE")
        case ("alsa", ""): throw SinkSpecError(spec: text, reason: "give the device after the colon (alsa:hw:0,0), or write alsa for the default")
        case ("wav", let path?): self = .wav(path: path)
        case ("alsa", let device?): self = .alsa(device: device)
        default: throw SinkSpecError(spec: text, reason: "the outputs are \(Self.forms)")
        }
    }

    /// The spec as it would be written again (`alsa` for ALSA's default).
    public var description: String {
        switch self {
        case .null: "null"
        case .wav(let path): "wav:" + path
        case .alsa("default"): "alsa"
        case .alsa(let device): "alsa:" + device
        }
    }
}

/// An output named wrongly: a usage error (the CLI exits 64), unlike a device that cannot be
/// opened (an `AudioError`, exit 1).
public struct SinkSpecError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    public var spec: String
    public var reason: String

    public var description: String { "'\(spec)' is not an output: \(reason)" }
    public var errorDescription: String? { description }
}
