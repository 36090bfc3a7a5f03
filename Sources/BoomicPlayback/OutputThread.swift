import BoomicAudio
import Foundation
import Synchronization

/// The output thread's loop: takes slots from the ring and writes them to the sink, and nothing
/// else. It never decodes, never touches the library or the disk (beyond a `wav:` sink's own
/// file), never allocates in the steady state and holds no lock while writing, so a slow decode
/// or a commit cannot make the device run dry.
///
/// It owns the sink: it prepares it when a format marker comes by and reports the format taken
/// through `negotiated`; it drops the device's buffer when asked (skip, seek), drains it when
/// asked (the end of the queue), and paces a sink that does not pace itself when `realtime`.
final class OutputThread {
    private let ring: SampleRing
    private let sink: any AudioSink
    private let realtime: Bool
    private var discardsSeen = 0
    private var drainsSeen = 0
    private var segment = -1
    private var segmentFrames = 0
    private var rate = 44_100
    /// Real-time pacing: when frame 0 of the count was due, and frames written since.
    private var paceStart: ContinuousClock.Instant?
    private var pacedFrames = 0
    /// The correction last applied to a slot (wanted volume / the slot's), ramped from.
    private var lastCorrection: Float = 1

    init(ring: SampleRing, sink: any AudioSink, realtime: Bool) {
        self.ring = ring
        self.sink = sink
        self.realtime = realtime
    }

    /// Runs until the ring's `quit` is set or the sink fails; closes the sink on the way out.
    func run() -> AudioError? {
        var failure: AudioError?
        while !ring.quit.load(ordering: .acquiring) {
            handleRequests()
            // Both waits end when the engine wakes this thread (a slot, a resume, a discard, a
            // drain, quitting); the timeouts are only a safety net, long enough that an idle
            // server sleeps instead of waking 50 times a second.
            if ring.paused.load(ordering: .acquiring) {
                paceStart = nil
                _ = ring.outputWake.wait(timeout: .now() + .seconds(1))
                continue
            }
            guard let (info, samples) = ring.nextSlot() else {
                paceStart = nil
                SampleRing.wait(on: ring.outputWake, flag: ring.outputWaiting, timeout: .seconds(1)) { !ring.isEmpty }
                continue
            }
            if ring.isDropped(info.segment) {
                ring.release()
                continue
            }
            do {
                try play(info, samples)
            } catch {
                failure = error
                ring.negotiated.withLock { $0 = (info.prepare ?? sink.format ?? PCMFormat(sampleRate: 0, channels: 0, bitsPerSample: 0), .failure(error)) }
                ring.release()
                ring.engineWake.signal()
                break
            }
            ring.release()
        }
        do { try sink.close() } catch { failure = failure ?? error }
        return failure
    }

    private func handleRequests() {
        let discards = ring.discardRequests.load(ordering: .acquiring)
        if discards != discardsSeen {
            discardsSeen = discards
            sink.discard()
            paceStart = nil
        }
        let drains = ring.drainRequests.load(ordering: .acquiring)
        if drains != drainsSeen, ring.isEmpty {
            drainsSeen = drains
            try? sink.drain()
            ring.drains.store(drains, ordering: .releasing)
            ring.engineWake.signal()
        }
    }

    private func play(_ info: SlotInfo, _ samples: UnsafeMutableBufferPointer<Int32>) throws(AudioError) {
        if let wanted = info.prepare {
            // The samples before the marker are out; a sound card reopened at a new rate must
            // first play them.
            if sink.format != nil, sink.format != wanted { try sink.drain() }
            let taken = try sink.prepare(for: wanted)
            rate = taken.sampleRate
            paceStart = nil
            ring.negotiated.withLock { $0 = (wanted, .success(taken)) }
            ring.engineWake.signal()
            return
        }
        if info.frames > 0 {
            // Widened here rather than on the decode thread, which decoding keeps busy.
            if info.isPacked16 { PCM16.widenInPlace(samples.baseAddress!, count: info.samples) }
            correctVolume(info, samples)
            if info.isFloat {
                try samples.withMemoryRebound(to: Float.self) { (floats) throws(AudioError) in
                    try sink.write(UnsafeBufferPointer(floats))
                }
            } else {
                try sink.write(UnsafeBufferPointer(samples))
            }
        }
        if info.segment != segment {
            segment = info.segment
            segmentFrames = 0
        }
        segmentFrames += info.frames
        ring.heard.store(SampleRing.pack(segment: segment, frames: segmentFrames), ordering: .releasing)
        if info.endOfTrack { ring.ended.store(info.segment, ordering: .releasing) }
        if realtime && !sink.isPaced { pace(info.frames) }
    }

    /// Scales a slot rendered at another volume to the one wanted now, gliding over its first
    /// 10 ms from the last slot's correction so a change makes no click. Slots rendered at the
    /// volume wanted (every slot but the second of look-ahead after a change) are left as they
    /// are: playback at volume 100 stays bit-exact. A slot rendered at volume 0 is silence and
    /// stays so.
    private func correctVolume(_ info: SlotInfo, _ samples: UnsafeMutableBufferPointer<Int32>) {
        let wanted = Float(bitPattern: ring.volume.load(ordering: .acquiring))
        let target: Float = info.volume > 0 ? wanted / info.volume : 1
        defer { lastCorrection = target }
        guard target != 1 || lastCorrection != 1 else { return }
        let channels = max(1, info.samples / max(1, info.frames))
        let ramp = min(info.frames, max(1, rate / 100))
        let start = lastCorrection
        let limit = Float(Int32.max)
        for f in 0..<info.frames {
            let g = f < ramp ? start + (target - start) * Float(f) / Float(ramp) : target
            for c in 0..<channels {
                let i = f * channels + c
                if info.isFloat {
                    samples[i] = Int32(bitPattern: (Float(bitPattern: UInt32(bitPattern: samples[i])) * g).bitPattern)
                } else {
                    samples[i] = Int32(max(-limit, min(limit, (Float(samples[i]) * g).rounded())))
                }
            }
        }
    }

    /// Sleeps until the audio written so far is due, so `null` and `wav:` with `--realtime` take
    /// as long as the music does.
    private func pace(_ frames: Int) {
        let now = ContinuousClock.now
        if paceStart == nil {
            paceStart = now
            pacedFrames = 0
        }
        pacedFrames += frames
        let due = paceStart! + .nanoseconds(Int64(pacedFrames) * 1_000_000_000 / Int64(max(1, rate)))
        if due > now {
            let wait = (due - now).components
            Thread.sleep(forTimeInterval: Double(wait.seconds) + Double(wait.attoseconds) / 1e18)
        }
    }
}
