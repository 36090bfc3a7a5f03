import Dispatch

/// Commands handed to the engine once (`PlaybackEngine.call`). They are carried out when the
/// call returns (queue changes at once, the decoder's part when the decode thread is free).
public final class EngineCall: Sendable {
    init() {}

    /// True at once: the call was carried out when it was made.
    public func wait(upTo patience: DispatchTimeInterval) -> Bool { true }

    /// The commands were carried out.
    public var isCarriedOut: Bool { true }
}
