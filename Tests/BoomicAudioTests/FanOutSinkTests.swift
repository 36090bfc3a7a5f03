import BoomicAudio
import BoomicTestSupport
import Foundation
import Synchronization
import Testing

/// The fan-out of a room's outputs: every output switched on gets the same audio, one taking
/// another format gets it converted, a switch flipped while playing opens or closes its output
/// at once, and an output that fails is switched off and reported while the others play on.
@Suite struct FanOutSinkTests {
    static let cd = PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: 16)
    static let block: [Int32] = (0..<512).map { Int32(truncatingIfNeeded: $0 &* 40_503) >> 16 }

    /// A sink that keeps what it is given, takes `takes` (else what it is asked), and fails
    /// where told.
    final class Recorder: AudioSink {
        let name: String
        let takes: PCMFormat?
        var failOpen = false
        var failWriteAfter: Int?
        private(set) var format: PCMFormat?
        let isPaced = false
        private(set) var samples: [Int32] = []
        private(set) var log: [String] = []

        init(_ name: String, takes: PCMFormat? = nil) {
            self.name = name
            self.takes = takes
        }

        func prepare(for wanted: PCMFormat) throws(AudioError) -> PCMFormat {
            log.append("prepare \(wanted)")
            if failOpen { throw AudioError(path: name, reason: "cannot open") }
            format = takes ?? wanted
            return format!
        }

        func write(_ samples: UnsafeBufferPointer<Int32>) throws(AudioError) {
            if let n = failWriteAfter, self.samples.count >= n { throw AudioError(path: name, reason: "device gone") }
            self.samples += samples
        }

        func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioError) {
            self.samples += samples.map { Int32(($0 * 32768).rounded()) }
        }

        func discard() { log.append("discard") }
        func drain() { log.append("drain") }
        func close() {
            log.append("close")
            format = nil
        }
    }

    /// Reports, as the server's callback would see them.
    final class Reports: Sendable {
        let all = Mutex<[String]>([])
        func add(_ name: String, _ error: AudioError) { all.withLock { $0.append("\(name): \(error.reason)") } }
    }

    static func write(_ samples: [Int32], to sink: some AudioSink) throws(AudioError) {
        try samples.withUnsafeBufferPointer { (b) throws(AudioError) in try sink.write(b) }
    }

    @Test func everyOutputSwitchedOnGetsTheSameSamples() throws {
        let a = Recorder("a"), b = Recorder("b"), c = Recorder("c")
        let reports = Reports()
        let sink = FanOutSink(outputs: [(a, .init()), (b, .init()), (c, .init(isOn: false))], report: reports.add)
        #expect(try sink.prepare(for: Self.cd) == Self.cd)
        for _ in 0..<3 { try Self.write(Self.block, to: sink) }
        #expect(a.samples.count == 3 * Self.block.count)
        #expect(b.samples == a.samples)
        #expect(c.samples.isEmpty && c.log.isEmpty, "an output switched off is not even opened")
        #expect(sink.playing == ["a", "b"])
        #expect(reports.all.withLock { $0 }.isEmpty)
    }

    /// The lead's format is the fan-out's; an output that takes another gets it converted
    /// (16 to 24 bits is exact: each value shifted by 8 bits).
    @Test func anOutputInAnotherFormatGetsItConverted() throws {
        let hires = PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: 24)
        let a = Recorder("a"), b = Recorder("b", takes: hires)
        let sink = FanOutSink(outputs: [(a, .init()), (b, .init())], report: { _, _ in })
        #expect(try sink.prepare(for: Self.cd) == Self.cd)
        try Self.write(Self.block, to: sink)
        #expect(a.samples == Self.block)
        #expect(b.log == ["prepare \(Self.cd)"])
        #expect(b.samples == Self.block.map { $0 << 8 })
    }

    @Test func aSwitchFlippedWhilePlayingIsHeardAtTheNextWrite() throws {
        let a = Recorder("a"), b = Recorder("b")
        let bSwitch = FanOutSink.Switch(isOn: false)
        let sink = FanOutSink(outputs: [(a, .init()), (b, bSwitch)], report: { _, _ in })
        _ = try sink.prepare(for: Self.cd)
        try Self.write(Self.block, to: sink)
        bSwitch.set(true)
        try Self.write(Self.block, to: sink)
        #expect(b.log == ["prepare \(Self.cd)"], "opened in the format playing")
        #expect(b.samples == Self.block)
        bSwitch.set(false)
        try Self.write(Self.block, to: sink)
        #expect(b.log.last == "close")
        #expect(b.samples == Self.block)
        #expect(a.samples.count == 3 * Self.block.count)
    }

    @Test func aFailingOutputIsSwitchedOffAndTheOthersPlayOn() throws {
        let a = Recorder("a"), b = Recorder("b"), broken = Recorder("broken")
        broken.failOpen = true
        let bSwitch = FanOutSink.Switch(), brokenSwitch = FanOutSink.Switch()
        let reports = Reports()
        let sink = FanOutSink(outputs: [(broken, brokenSwitch), (a, .init()), (b, bSwitch)], report: reports.add)
        #expect(try sink.prepare(for: Self.cd) == Self.cd, "the next output leads")
        #expect(!brokenSwitch.isOn)
        #expect(reports.all.withLock { $0 } == ["broken: cannot open"])
        b.failWriteAfter = Self.block.count
        for _ in 0..<3 { try Self.write(Self.block, to: sink) }
        #expect(!bSwitch.isOn && b.log.last == "close")
        #expect(reports.all.withLock { $0 } == ["broken: cannot open", "b: device gone"])
        #expect(a.samples.count == 3 * Self.block.count)
        #expect(b.samples == Self.block)
        #expect(sink.playing == ["a"])
    }

    /// When the last output playing fails, the failure is the engine's, as with one sink: it is
    /// thrown, not reported, and the switch stays on (so a later `play` tries the device again).
    @Test func theLastOutputFailingIsTheEnginesFailure() throws {
        let a = Recorder("a")
        let aSwitch = FanOutSink.Switch()
        let reports = Reports()
        let sink = FanOutSink(outputs: [(a, aSwitch)], report: reports.add)
        _ = try sink.prepare(for: Self.cd)
        a.failWriteAfter = 0
        #expect(throws: AudioError.self) { try Self.write(Self.block, to: sink) }
        #expect(aSwitch.isOn)
        #expect(reports.all.withLock { $0 }.isEmpty)

        let dead = Recorder("dead")
        dead.failOpen = true
        #expect(throws: AudioError.self) { try FanOutSink(outputs: [(dead, .init())], report: reports.add).prepare(for: Self.cd) }
    }

    /// With every output switched off the room plays on nothing, at its own pace.
    @Test func noOutputSwitchedOnPlaysSilently() throws {
        let a = Recorder("a")
        let sink = FanOutSink(outputs: [(a, .init(isOn: false))], report: { _, _ in })
        #expect(try sink.prepare(for: Self.cd) == Self.cd)
        try Self.write(Self.block, to: sink)
        #expect(a.samples.isEmpty && !sink.isPaced)
    }

    /// A sink whose open returns when the test releases it (a pipe nobody reads yet).
    final class HeldOpen: AudioSink {
        let name = "held"
        let isPaced = false
        let format: PCMFormat? = nil
        let release: DispatchSemaphore
        init(release: DispatchSemaphore) { self.release = release }
        func prepare(for wanted: PCMFormat) throws(AudioError) -> PCMFormat {
            release.wait()
            return wanted
        }
        func write(_ samples: UnsafeBufferPointer<Int32>) throws(AudioError) {}
        func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioError) {}
        func discard() {}
        func drain() {}
        func close() {}
    }

    /// What the threads of `aWaitForACallsEndIsWokenByIt` saw.
    final class Seen: Sendable {
        let watch = Mutex<FanOutSink.CallWatch?>(nil)
        let returned = Mutex<Bool?>(nil)
        let woken = DispatchSemaphore(value: 0)
    }

    /// A wait for an output's call to end (`Station.letGo`) returns false while the call is
    /// under way, and is woken by its end, long before its own deadline.
    @Test func aWaitForACallsEndIsWokenByIt() throws {
        let release = DispatchSemaphore(value: 0), seen = Seen()
        Thread.detachNewThread {
            let sink = FanOutSink(outputs: [(HeldOpen(release: release), .init())], report: { _, _ in })
            seen.watch.withLock { $0 = sink.watches[0] }
            _ = try? sink.prepare(for: Self.cd)
        }
        try waitUntil("the open under way") { seen.watch.withLock { $0 }?.isInCall == true }
        let watch = try #require(seen.watch.withLock { $0 })
        let call = watch.callsBegun
        #expect(!watch.waitForEnd(ofCall: call, timeout: .milliseconds(20)), "the open has not returned")
        Thread.detachNewThread {
            let ended = watch.waitForEnd(ofCall: call, timeout: .seconds(60))
            seen.returned.withLock { $0 = ended }
            seen.woken.signal()
        }
        release.signal()
        #expect(seen.woken.wait(timeout: .now() + 20) == .success, "woken by the call's end, not its 60 s deadline")
        #expect(seen.returned.withLock { $0 } == true)
        #expect(watch.waitForEnd(ofCall: call, timeout: .seconds(60)), "a call over already returns at once")
    }
}
