import BoomicSystem
import Foundation

/// The shape of decoded audio: what a sink must be opened with to play it bit for bit.
///
/// Samples travel as `Int32`, interleaved, holding the source's integer value unscaled (a 16-bit
/// sample stays within ±32,768): no format change happens unless a conversion is asked for, so
/// playback with no DSP is bit-exact.
public struct PCMFormat: Hashable, Sendable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int
    /// 8, 16, 24 or 32: the source's sample width (32 for float).
    public var bitsPerSample: Int
    /// Samples are 32-bit floats scaled to ±1.0 (what the player renders once any DSP is on)
    /// rather than integers.
    public var isFloat: Bool

    public init(sampleRate: Int, channels: Int, bitsPerSample: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.isFloat = false
    }

    /// 32-bit float samples at this rate and channel count.
    public static func float(sampleRate: Int, channels: Int) -> PCMFormat {
        var f = PCMFormat(sampleRate: sampleRate, channels: channels, bitsPerSample: 32)
        f.isFloat = true
        return f
    }

    /// `44100:16:2`, or `48000:f:2` for float, as MPD writes a format.
    public var description: String { "\(sampleRate):\(isFloat ? "f" : String(bitsPerSample)):\(channels)" }
}

/// Why audio could not be decoded or written, in one line naming the file.
public struct AudioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    /// Set when the file itself could not be opened (missing, no permission, not a regular
    /// file): then no other decoder can open it either, so none is tried after.
    public var cause: SystemError?

    public init(path: String, reason: String, cause: SystemError? = nil) {
        self.path = path
        self.reason = reason
        self.cause = cause
    }

    public var description: String { "\(path): \(reason)" }
}

extension AudioError: LocalizedError {
    public var errorDescription: String? { description }
}

