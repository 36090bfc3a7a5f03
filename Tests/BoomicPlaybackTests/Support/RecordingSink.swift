import BoomicAudio
import Foundation
import Synchronization

/// A sink for tests: keeps every sample written and lets the test hold the output back, so that
/// a command can be sent while the engine has decoded ahead into the next song (what a real
/// device's pace makes happen all the time). Its record is shared with the test through `Tape`.
final class RecordingSink: AudioSink {
    /// What the test reads and gates; shared between the output thread and the test.
    final class Tape: Sendable {
        let samples = Mutex<[Int32]>([])
        let formats = Mutex<[PCMFormat]>([])
        let discards = Atomic<Int>(0)
        /// Frames the sink may still take before `write` waits (the engine writes whole slots of
        /// 2,048 frames, so give multiples of that); Int.max for no limit.
        let allowance = Atomic<Int>(.max)
        let drained = Atomic<Int>(0)
        /// Set to make a `write` waiting for allowance fail instead (a device unplugged), so
        /// that a test can quit an engine whose output is held back.
        let aborted = Atomic<Bool>(false)

        /// Writes waiting for allowance (0 or 1: one output thread per sink).
        let held = Atomic<Int>(0)
        /// Signalled when the allowance grows or the test aborts: the held write looks again.
        let changed = DispatchSemaphore(value: 0)

        var frames: Int { samples.withLock { $0.count } / 2 }
        func allow(_ frames: Int) {
            allowance.store(frames, ordering: .releasing)
            changed.signal()
        }
        func abort() {
            aborted.store(true, ordering: .releasing)
            changed.signal()
        }
    }

    let tape: Tape
    let name = "test"
    private(set) var format: PCMFormat?
    let isPaced = false

    init(tape: Tape) { self.tape = tape }

    func prepare(for wanted: PCMFormat) -> PCMFormat {
        format = wanted
        tape.formats.withLock { $0.append(wanted) }
        return wanted
    }

    func write(_ samples: UnsafeBufferPointer<Int32>) throws(AudioError) {
        try waitForAllowance(samples.count)
        tape.samples.withLock { $0.append(contentsOf: samples) }
    }

    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioError) {
        try waitForAllowance(samples.count)
        tape.samples.withLock { $0.append(contentsOf: samples.map { Int32($0 * 32768) }) }
    }

    private func waitForAllowance(_ count: Int) throws(AudioError) {
        let frames = count / (format?.channels ?? 2)
        if tape.allowance.load(ordering: .acquiring) < frames {
            tape.held.add(1, ordering: .releasing)
            defer { tape.held.subtract(1, ordering: .releasing) }
            while tape.allowance.load(ordering: .acquiring) < frames {
                if tape.aborted.load(ordering: .acquiring) { throw AudioError(path: name, reason: "aborted by the test") }
                tape.changed.wait()
            }
        }
        if tape.allowance.load(ordering: .relaxed) != .max { tape.allowance.subtract(frames, ordering: .relaxed) }
    }

    func discard() { tape.discards.add(1, ordering: .relaxed) }
    func drain() { tape.drained.add(1, ordering: .relaxed) }
    func close() {}
}
