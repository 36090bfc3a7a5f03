import BoomicAudio
import Dispatch
import Synchronization

/// What one slot of the ring holds besides its samples.
struct SlotInfo {
    /// The decoding run the samples belong to: a song from where it started (or was sought to).
    /// Counted up by the engine, never reused, so a dropped run is told from its successor.
    var segment: Int
    /// Frames in the slot (0 for a marker), and the samples they take (frames × channels).
    var frames: Int
    var samples: Int
    /// The last slot of its segment: once written, the song has been heard to its end.
    var endOfTrack: Bool
    /// A marker asking the output thread to prepare the sink for this format before the
    /// segment's samples, which only follow once the engine knows what the sink took.
    var prepare: PCMFormat?
    /// Samples are Float bit patterns rather than Int32.
    var isFloat: Bool
    /// Samples are 16-bit, packed at the start of the slot, as a 16-bit decoder gave them: the
    /// output thread widens them in place before anything reads them.
    var isPacked16 = false
    /// The volume's gain the samples were rendered with (1 at volume 100): the output thread
    /// scales them to the volume wanted now, so a volume change is heard at once rather than
    /// after the second of look-ahead the ring holds.
    var volume: Float = 1
}

extension SlotInfo {
    /// A segment's last slot, holding no samples.
    static func end(ofSegment segment: Int) -> SlotInfo {
        SlotInfo(segment: segment, frames: 0, samples: 0, endOfTrack: true, prepare: nil, isFloat: false)
    }

    /// A marker asking the output to prepare the sink for `format`.
    static func prepare(_ format: PCMFormat, segment: Int) -> SlotInfo {
        SlotInfo(segment: segment, frames: 0, samples: 0, endOfTrack: false, prepare: format, isFloat: false)
    }
}

/// The single-producer, single-consumer ring between the engine's decode thread and the output
/// thread: fixed slots of samples allocated once, so the output thread never allocates, never
/// waits on decoding, the library or the disk, and holds no lock while it writes to the device.
///
/// Besides the samples it carries the few facts the two threads exchange, each in one atomic:
/// what has been heard (`heard`), what the engine no longer wants played (`dropBelow`,
/// `skipped`), and requests (pause, discard, drain, quit).
///
/// `@unchecked Sendable`, safe because: a slot's memory is written only by the producer while
/// `tail` has not yet passed it, and read only by the consumer after it loaded `tail` with
/// acquiring order (the producer stores `tail` releasing after writing the slot); the consumer
/// gives a slot back by storing `head` releasing after its last read, and the producer loads
/// `head` acquiring before reusing it; between its `nextSlot()` and `release()` the consumer may
/// also write the slot (the volume's correction), which the producer cannot touch until the
/// released `head` passes it. Every other member is an atomic, a semaphore or immutable.
final class SampleRing: @unchecked Sendable {
    let slotCount: Int
    /// Samples per slot (frames × channels for the widest format the engine renders).
    let slotCapacity: Int
    private let samples: UnsafeMutablePointer<Int32>
    private let infos: UnsafeMutablePointer<SlotInfo>

    private let head = Atomic<Int>(0)
    private let tail = Atomic<Int>(0)

    /// Slots of segments below this are thrown away unheard (a skip, seek or stop).
    let dropBelow = Atomic<Int>(0)
    /// A range of segments thrown away unheard (a look-ahead the queue no longer wants), packed
    /// as `low << 32 | high`; empty when low > high.
    let skipped = Atomic<UInt64>(1 << 32)
    /// What the output has written: `segment << 40 | frames of that segment`.
    let heard = Atomic<UInt64>(0)
    /// The last segment whose final slot was written.
    let ended = Atomic<Int>(-1)
    let paused = Atomic<Bool>(false)
    /// The volume's gain wanted now (Float bits), set by the engine as soon as it is told.
    let volume = Atomic<UInt32>(Float(1).bitPattern)
    let quit = Atomic<Bool>(false)
    /// Bumped by the engine to ask the output thread to drop what the device buffers.
    let discardRequests = Atomic<Int>(0)
    /// Bumped by the engine to ask for the device to play out and report back in `drains`.
    let drainRequests = Atomic<Int>(0)
    let drains = Atomic<Int>(0)
    /// The output thread's answer to the last format marker: the format asked for, and what the
    /// sink took or why it refused.
    let negotiated = Mutex<(wanted: PCMFormat, result: Result<PCMFormat, AudioError>)?>(nil)

    /// Wakes the output thread (a slot was published, a request made).
    let outputWake = DispatchSemaphore(value: 0)
    /// Wakes the engine (a slot was freed, a format taken, a drain done, a command sent).
    let engineWake = DispatchSemaphore(value: 0)
    /// Set by each thread just before it waits: the other one signals only then, so that a busy
    /// pair of threads does not pay a futex wake per slot (measured: a tenth of the CPU time of
    /// decoding an MP3 to `null`).
    let outputWaiting = Atomic<Bool>(false)
    let engineWaiting = Atomic<Bool>(false)
    /// How many slots must wait in the ring before a publish wakes the waiting output thread.
    /// 1 for a sink that takes samples at the audio's pace (a sound card, or `--realtime`),
    /// where an output thread that waits is a device about to run dry. More for one that takes
    /// them at once (`null`, `wav:`): its output thread waits after every slot, and a wake per
    /// slot is a fifth of the CPU time of decoding an MP3 there (24,000 context switches for
    /// ten minutes of music); woken per batch, the threads hand over in bursts (1,400 context
    /// switches with 20 of 24 slots, 2,200 with 12; the slots left free keep the engine from
    /// waiting while the output wakes). The engine wakes it before it waits itself
    /// (`wakeOutput()`), so a slot never sits unwritten.
    let wakeBatch: Int

    init(slotCount: Int, slotCapacity: Int, wakeBatch: Int = 1) {
        self.slotCount = slotCount
        self.slotCapacity = slotCapacity
        self.wakeBatch = max(1, min(wakeBatch, slotCount))
        samples = .allocate(capacity: slotCount * slotCapacity)
        samples.initialize(repeating: 0, count: slotCount * slotCapacity)
        infos = .allocate(capacity: slotCount)
        infos.initialize(repeating: SlotInfo(segment: -1, frames: 0, samples: 0, endOfTrack: false, prepare: nil, isFloat: false), count: slotCount)
    }

    deinit {
        samples.deallocate()
        infos.deallocate()
    }

    // MARK: producer (the engine thread)

    /// The samples of the next free slot, or nil when the ring is full.
    func freeSlot() -> UnsafeMutableBufferPointer<Int32>? {
        let t = tail.load(ordering: .relaxed)
        guard t - head.load(ordering: .acquiring) < slotCount else { return nil }
        return UnsafeMutableBufferPointer(start: samples + (t % slotCount) * slotCapacity, count: slotCapacity)
    }

    /// Hands the slot `freeSlot()` gave to the output thread.
    func publish(_ info: SlotInfo) {
        let t = tail.load(ordering: .relaxed)
        infos[t % slotCount] = info
        tail.store(t + 1, ordering: .releasing)
        if wakeBatch > 1, t + 1 - head.load(ordering: .acquiring) < wakeBatch { return }
        if outputWaiting.exchange(false, ordering: .acquiringAndReleasing) { outputWake.signal() }
    }

    /// Wakes the output thread if it waits while slots are published: the engine calls it
    /// before waiting itself, so that slots held back for a batch are written.
    func wakeOutput() {
        guard !isEmpty, outputWaiting.exchange(false, ordering: .acquiringAndReleasing) else { return }
        outputWake.signal()
    }

    var isEmpty: Bool { tail.load(ordering: .acquiring) == head.load(ordering: .acquiring) }
    /// Whether every slot waits for the output (read from any thread: a test's sync point).
    var isFull: Bool { tail.load(ordering: .acquiring) - head.load(ordering: .acquiring) >= slotCount }

    /// Tells the output thread to throw away these segments' slots unheard.
    func skip(segments: ClosedRange<Int>) {
        skipped.store(UInt64(segments.lowerBound) << 32 | UInt64(segments.upperBound), ordering: .releasing)
    }

    // MARK: consumer (the output thread)

    /// The oldest published slot, or nil when the ring is empty.
    /// Its samples are the consumer's until `release()`, to scale in place.
    func nextSlot() -> (SlotInfo, UnsafeMutableBufferPointer<Int32>)? {
        let h = head.load(ordering: .relaxed)
        guard h < tail.load(ordering: .acquiring) else { return nil }
        let info = infos[h % slotCount]
        return (info, UnsafeMutableBufferPointer(start: samples + (h % slotCount) * slotCapacity, count: info.samples))
    }

    /// Gives the slot `nextSlot()` returned back to the producer.
    func release() {
        head.store(head.load(ordering: .relaxed) + 1, ordering: .releasing)
        if engineWaiting.exchange(false, ordering: .acquiringAndReleasing) { engineWake.signal() }
    }

    /// Whether the engine no longer wants `segment` played.
    func isDropped(_ segment: Int) -> Bool {
        if segment < dropBelow.load(ordering: .acquiring) { return true }
        let s = skipped.load(ordering: .acquiring)
        return Int(s >> 32) <= segment && segment <= Int(s & 0xFFFF_FFFF)
    }

    // MARK: shared

    /// Waits on `wake` for at most `timeout`, unless `ready` turns true meanwhile: the flag is set
    /// first and `ready` checked after, so a signal sent between the caller's last check and the
    /// wait is never missed.
    static func wait(on wake: DispatchSemaphore, flag: borrowing Atomic<Bool>, timeout: DispatchTimeInterval, unless ready: () -> Bool) {
        flag.store(true, ordering: .sequentiallyConsistent)
        if ready() {
            flag.store(false, ordering: .relaxed)
            return
        }
        _ = wake.wait(timeout: .now() + timeout)
        flag.store(false, ordering: .relaxed)
    }

    static func pack(segment: Int, frames: Int) -> UInt64 { UInt64(segment) << 40 | UInt64(frames) }
    static func unpack(_ v: UInt64) -> (segment: Int, frames: Int) { (Int(v >> 40), Int(v & 0xFF_FFFF_FFFF)) }
}
