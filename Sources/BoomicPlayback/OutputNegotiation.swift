import BoomicAudio

/// What the decode thread and the output agreed on: the format last asked of the output (a
/// marker in the ring, which the output thread answers after preparing the sink), whether its
/// answer is awaited, and the format the output takes. A track is rendered only in a format
/// the output has said it takes.
struct OutputNegotiation {
    /// The format of the last marker sent, and whether its answer is awaited.
    private(set) var wanted: PCMFormat?
    private(set) var awaiting = false
    /// What the output takes, as it last answered.
    private(set) var format: PCMFormat?

    /// The format to offer the output for a track in `source`: float when the samples are
    /// processed (a wav: file is then 32-bit float), else the song's own, so that the samples
    /// reach it unchanged.
    static func wanted(for source: PCMFormat, processing: Bool) -> PCMFormat {
        processing ? .float(sampleRate: source.sampleRate, channels: source.channels) : source
    }

    /// Whether the output already takes what `wanted` asks (no marker needed).
    func isAgreed(_ wanted: PCMFormat) -> Bool { self.wanted == wanted && format != nil }

    /// A marker for `wanted` is sent: its answer is awaited.
    mutating func ask(_ wanted: PCMFormat) {
        self.wanted = wanted
        awaiting = true
    }

    /// The output's answer; an answer to a marker since dropped is not the one awaited.
    mutating func answered(_ wanted: PCMFormat, took taken: PCMFormat) {
        guard wanted == self.wanted else { return }
        format = taken
        awaiting = false
    }

    /// The marker awaited was dropped with the segment it began (a skip, a look-ahead dropped):
    /// the next track asks again.
    mutating func forgetAwaited() {
        guard awaiting else { return }
        awaiting = false
        wanted = nil
    }
}
