/// The shape of decoded audio: what a sink must be opened with to play it bit for bit.
///
/// Samples travel as `Int32`, interleaved, holding the source's integer value unscaled (a 16-bit
/// sample stays within ±32,768): no format change happens unless a conversion is asked for, so
/// playback with no DSP is bit-exact.
public struct PCMFormat: Hashable, Sendable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int
    /// 8, 16, 24 or 32: the source's sample width.
    public var bitsPerSample: Int

    public init(sampleRate: Int, channels: Int, bitsPerSample: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
    }

    /// `44100:16:2`, as MPD writes a format.
    public var description: String { "\(sampleRate):\(bitsPerSample):\(channels)" }
}

/// Why audio could not be decoded or written, in one line naming the file.
public struct AudioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

extension AudioError: LocalizedError {
    public var errorDescription: String? { description }
}

import Foundation
