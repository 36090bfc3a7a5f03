/// How a transcode ended (`Transcoder.start`'s `onEnd`).
public struct TranscodeEnding: Sendable, Equatable {
    /// How the encoder ended: "exit 0" when it finished or its reader went away (both are
    /// clean), "exit 1" when it failed, "signal 9" after `Transcode.cancel()`.
    public var encoder: String
    /// Seconds of the song decoded and handed to the encoder.
    public var decodedSeconds: Double
    /// What cut decoding short, if anything.
    public var error: AudioError?
}
