/// Where rendered samples go: a sound card, a WAV file, or nowhere.
///
/// The engine's output thread owns a sink and is the only caller (sinks are not `Sendable`). The
/// engine asks for the format it would like and converts to whatever the sink takes, so a sink
/// that can take the source's own format keeps playback bit-exact.
public protocol AudioSink: AnyObject {
    /// How the user named it: `null`, `wav:/tmp/out.wav`, `alsa:hw:0`.
    var name: String { get }
    /// What `write` takes now; nil before the first `prepare`.
    var format: PCMFormat? { get }
    /// Whether `write` blocks at the pace of the audio (a sound card). `null`, `wav:` and ALSA's
    /// own `null` and `file` plugins return at once, and the engine paces them itself when asked
    /// to play in real time.
    var isPaced: Bool { get }
    /// Opens the sink for `wanted`, or reopens it when the format changed, and returns the format
    /// it will take. A file keeps the format it was opened with; a sound card takes a new rate.
    func prepare(for wanted: PCMFormat) throws(AudioError) -> PCMFormat
    /// Plays interleaved integer samples (when `format` is integer), in whole frames.
    func write(_ samples: UnsafeBufferPointer<Int32>) throws(AudioError)
    /// Plays interleaved float samples (when `format.isFloat`), in whole frames.
    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioError)
    /// Drops what the device has buffered but not played yet, so that pause, seek and skip are
    /// heard at once. A file has nothing to drop.
    func discard()
    /// Plays out what is buffered and waits until it has been heard (the end of the queue).
    func drain() throws(AudioError)
    /// Closes the device or finishes the file; the sink may be prepared again afterwards.
    func close() throws(AudioError)
}

/// `null`: takes everything and plays nothing, as fast as the engine renders (plays still count,
/// so a library's play counts can be tested or a queue run through without a sound card).
public final class NullSink: AudioSink {
    public let name = "null"
    public private(set) var format: PCMFormat?
    public let isPaced = false
    /// Frames written since it was made: what a test or `--realtime` pacing can check.
    public private(set) var framesWritten = 0

    public init() {}

    public func prepare(for wanted: PCMFormat) -> PCMFormat {
        format = wanted
        return wanted
    }

    public func write(_ samples: UnsafeBufferPointer<Int32>) { framesWritten += samples.count / max(1, format?.channels ?? 1) }
    public func write(_ samples: UnsafeBufferPointer<Float>) { framesWritten += samples.count / max(1, format?.channels ?? 1) }
    public func discard() {}
    public func drain() {}
    public func close() {}
}
