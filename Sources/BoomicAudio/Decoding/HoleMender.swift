/// Keeps an Ogg decoder's output on the stream's own clock. Where a page was damaged or lost,
/// the library skips it and later says where it is (by the next page's granule position); the
/// mender puts silence of the missing length back in, at the hole, so the song keeps its length
/// and every sample after the damage stays at its true position (a bookmark, a seek, a gapless
/// join all count on it).
///
/// The library learns the position only at the end of the page after a hole, so the samples
/// decoded in between are held back until it does; without the library's word (no position
/// yet, or more than `holdLimit` frames) they go out as they are.
struct HoleMender<Sample: Numeric> {
    let channels: Int
    /// The frame the next sample taken in stands at.
    private(set) var next = 0
    /// Samples ready to hand out, from `start`.
    private var ready: [Sample] = []
    private var start = 0
    /// Samples decoded since a hole, not yet placed.
    private var held: [Sample] = []
    private var holding = false
    private let holdLimit: Int

    init(channels: Int, sampleRate: Int) {
        self.channels = channels
        holdLimit = 10 * sampleRate
    }

    /// Frames ready to hand out.
    var available: Int { (ready.count - start) / channels }

    /// The library reported a hole: what follows waits until its position is known.
    mutating func hole() { holding = true }

    /// Takes in a chunk just decoded, after which the library's position is `end` (negative
    /// when unknown); returns the frames of silence put before it (0 almost always).
    mutating func take(_ chunk: UnsafeBufferPointer<Sample>, endingAt end: Int) -> Int {
        if holding {
            held.append(contentsOf: chunk)
            let frames = held.count / channels
            let first = end - frames
            if end >= 0, first > next {
                holding = false
                return place(held: first - next)
            }
            if frames > holdLimit {
                holding = false
                return place(held: 0)
            }
            return 0
        }
        let frames = chunk.count / channels
        let first = end - frames
        let silence = end >= 0 && first > next ? first - next : 0
        ready.append(contentsOf: repeatElement(.zero, count: silence * channels))
        ready.append(contentsOf: chunk)
        next += silence + frames
        return silence
    }

    /// The stream ended: whatever is held goes out as it is.
    mutating func finish() {
        if holding {
            holding = false
            _ = place(held: 0)
        }
    }

    /// After a seek to `frame`: nothing held or ready.
    mutating func reset(at frame: Int) {
        ready.removeAll(keepingCapacity: true)
        held.removeAll(keepingCapacity: true)
        start = 0
        holding = false
        next = frame
    }

    /// Hands out up to `frames` ready frames to `body`, and forgets them.
    mutating func handOut(_ frames: Int, to body: (UnsafeBufferPointer<Sample>) -> Void) {
        let n = min(frames, available) * channels
        ready.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<(start + n)])) }
        start += n
        if start == ready.count {
            ready.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= ready.count / 2 {
            // The rest moves to the front, or `ready` would grow with the song.
            ready.removeSubrange(0..<start)
            start = 0
        }
    }

    private mutating func place(held silence: Int) -> Int {
        ready.append(contentsOf: repeatElement(.zero, count: silence * channels))
        ready.append(contentsOf: held)
        next += silence + held.count / channels
        held.removeAll(keepingCapacity: true)
        return silence
    }
}
