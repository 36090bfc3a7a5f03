/// The part of a file a queue entry plays: MPD's `rangeid ID START:END`, and the way a CUE
/// sheet's track is one part of its image. Seconds of the file; `end` nil plays to the file's end.
///
/// The player opens the file at `start` and ends the song at `end`, handing over to the next
/// entry there without a gap; `elapsed` and `duration` count from `start`, as MPD's do.
public struct PlayRange: Equatable, Hashable, Sendable, Codable {
    public var start: Double
    public var end: Double?

    /// A range with `end` after `start` (or none), neither negative: what MPD's `rangeid` accepts.
    public init(start: Double, end: Double? = nil) {
        precondition(start >= 0 && (end.map { $0 > start } ?? true), "a range ends after it starts")
        self.start = start
        self.end = end
    }

    /// How long the range lasts in a file of `duration` seconds (nil when neither is known).
    public func length(of duration: Double?) -> Double? {
        guard let last = end ?? duration else { return nil }
        return max(0, last - start)
    }
}
