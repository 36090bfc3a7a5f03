import Dispatch
import Synchronization

/// Several outputs playing the same audio: what MPD does with the enabled outputs of one
/// partition (a room of `boomic serve` with a sound card and a `wav:` recorder, say).
///
/// The first output switched on leads: the fan-out takes what it takes, so a room with one
/// output plays exactly as on that output alone (bit-exact when the device takes the source's
/// format). Every other output is opened in the lead's format and, when it takes another (a
/// device without 24-bit, a file opened earlier at another rate), gets its own converter.
///
/// Each output has a `Switch` that another thread may flip at any time (an MPD client's
/// `enableoutput`): the output thread looks at the switches before each call, opens an output
/// switched on (in the format playing now) and closes one switched off, so the change is heard
/// while playing. Closing finishes a `wav:` file and frees a device for other programs, as MPD
/// closes a disabled output; switched on again, a `wav:` file starts afresh.
///
/// An output that fails (cannot open, cannot write) is switched off and reported through
/// `report`; the others play on. Only when no output is left playing does the failure reach the
/// engine (`prepare` or `write` throws), as a single sink's failure would. Not `Sendable`, like
/// every sink: the engine's output thread owns it; only the switches are shared.
public final class FanOutSink: AudioSink {
    /// Whether one output gets the audio; shared between the output thread and whoever
    /// switches it.
    public final class Switch: Sendable {
        private let on: Atomic<Bool>
        public init(isOn: Bool = true) { on = Atomic(isOn) }
        public var isOn: Bool { on.load(ordering: .acquiring) }
        public func set(_ isOn: Bool) { on.store(isOn, ordering: .releasing) }
    }

    /// Whether this fan-out's output thread is in a call to one output's sink (opening,
    /// writing, draining, closing): one that never returns (a device hung in a write, a pipe
    /// nobody reads) is how a room tells which of its outputs hangs. One per output of each
    /// fan-out, not per switch: a player left behind in a call must not make the next player,
    /// which shares the switch, look hung.
    public final class CallWatch: Sendable {
        private let inCall = Atomic<Bool>(false)
        private let begun = Atomic<Int>(0)
        /// How many threads wait for a call's end (`waitForEnd`): while none does, a call's end
        /// costs the output thread one more atomic load and no lock.
        private let waiting = Atomic<Int>(0)
        /// Their wake-ups, signalled at each call's end.
        private let wakes = Mutex<[DispatchSemaphore]>([])
        public var isInCall: Bool { inCall.load(ordering: .acquiring) }
        /// Counts the calls begun: the same call under way at two moments is one that lasted
        /// between them (a device that paces its writes is in a call most of the time).
        public var callsBegun: Int { begun.load(ordering: .acquiring) }
        func calling<T>(_ body: () throws(AudioError) -> T) throws(AudioError) -> T {
            begun.add(1, ordering: .releasing)
            inCall.store(true, ordering: .releasing)
            defer {
                // Sequentially consistent with `waitForEnd`'s count and look: either this end
                // sees the waiter counted and wakes it, or the waiter sees the call over.
                inCall.store(false, ordering: .sequentiallyConsistent)
                if waiting.load(ordering: .sequentiallyConsistent) > 0 { wakes.withLock { for w in $0 { w.signal() } } }
            }
            return try body()
        }

        /// Waits until call number `call` (`callsBegun` when it was seen under way) has
        /// returned, woken by its end, or until `timeout` has passed; whether it returned.
        public func waitForEnd(ofCall call: Int, timeout: DispatchTimeInterval) -> Bool {
            let deadline = DispatchTime.now() + timeout
            let wake = DispatchSemaphore(value: 0)
            waiting.add(1, ordering: .sequentiallyConsistent)
            wakes.withLock { $0.append(wake) }
            defer {
                wakes.withLock { $0.removeAll { $0 === wake } }
                waiting.subtract(1, ordering: .sequentiallyConsistent)
            }
            func isUnderWay() -> Bool { inCall.load(ordering: .sequentiallyConsistent) && begun.load(ordering: .acquiring) == call }
            while isUnderWay() {
                // Woken by each call's end: this one's, or a later one's after it.
                guard wake.wait(timeout: deadline) == .success else { return !isUnderWay() }
            }
            return true
        }
    }

    private final class Output {
        let sink: any AudioSink
        let power: Switch
        let watch = CallWatch()
        var isOpen = false
        /// From the fan-out's format to the one this output took, when they differ.
        var converter: FormatConverter?
        var ints: [Int32] = []
        var floats: [Float] = []

        /// Converts into this output's own buffer (float or integer, as its sink takes) and
        /// writes that.
        func write(_ isFloat: Bool, floats fill: (inout [Float]) -> Void, ints fillInts: (inout [Int32]) -> Void) throws(AudioError) {
            if isFloat {
                floats.removeAll(keepingCapacity: true)
                fill(&floats)
                try floats.withUnsafeBufferPointer { (b) throws(AudioError) in try sink.write(b) }
            } else {
                ints.removeAll(keepingCapacity: true)
                fillInts(&ints)
                try ints.withUnsafeBufferPointer { (b) throws(AudioError) in try sink.write(b) }
            }
        }

        init(sink: any AudioSink, power: Switch) {
            self.sink = sink
            self.power = power
        }
    }

    private let outputs: [Output]
    /// Each output's calls, in the order given: for whoever made the fan-out, to tell from
    /// another thread whether an output hangs this fan-out's output thread.
    public let watches: [CallWatch]
    private let report: @Sendable (String, AudioError) -> Void
    public private(set) var format: PCMFormat?

    /// - Parameters:
    ///   - outputs: the sinks, each with its switch, in the room's order.
    ///   - report: told (on the output thread) when an output fails and is switched off while
    ///     others play on: its name and why.
    public init(outputs: [(sink: any AudioSink, power: Switch)], report: @escaping @Sendable (String, AudioError) -> Void) {
        self.outputs = outputs.map { Output(sink: $0.sink, power: $0.power) }
        watches = self.outputs.map(\.watch)
        self.report = report
    }

    public var name: String {
        outputs.isEmpty ? "null" : outputs.map(\.sink.name).joined(separator: " + ")
    }

    /// Paced when a device that paces itself is playing: its writes set the pace for all.
    public var isPaced: Bool { outputs.contains { $0.isOpen && $0.sink.isPaced } }

    /// Outputs playing now (for tests and messages).
    public var playing: [String] { outputs.filter(\.isOpen).map(\.sink.name) }

    public func prepare(for wanted: PCMFormat) throws(AudioError) -> PCMFormat {
        closeSwitchedOff()
        var lead: PCMFormat?
        var failures: [(Output, AudioError)] = []
        for o in outputs where o.power.isOn {
            do {
                let target = lead ?? wanted
                let taken = try o.watch.calling { () throws(AudioError) in try o.sink.prepare(for: target) }
                o.isOpen = true
                if let lead {
                    o.converter = taken == lead ? nil : try FormatConverter(from: lead, to: taken)
                } else {
                    lead = taken
                    o.converter = nil
                }
            } catch {
                failures.append((o, error))
            }
        }
        format = lead ?? wanted
        try settle(failures)
        return format!
    }

    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(AudioError) {
        try toEachOpen { o throws(AudioError) in
            guard let c = o.converter else { return try o.sink.write(samples) }
            try o.write(c.target.isFloat, floats: { c.convert(samples, into: &$0) }, ints: { c.convert(samples, into: &$0) })
        }
    }

    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioError) {
        try toEachOpen { o throws(AudioError) in
            guard let c = o.converter else { return try o.sink.write(samples) }
            try o.write(c.target.isFloat, floats: { c.convert(samples, into: &$0) }, ints: { c.convert(samples, into: &$0) })
        }
    }

    /// Runs `body` for every open output; one that fails is switched off and reported
    /// (`settle`) once every other has had its samples.
    private func toEachOpen(_ body: (Output) throws(AudioError) -> Void) throws(AudioError) {
        syncSwitches()
        var failures: [(Output, AudioError)] = []
        for o in outputs where o.isOpen {
            do {
                try o.watch.calling { () throws(AudioError) in try body(o) }
            } catch {
                failures.append((o, error))
            }
        }
        try settle(failures)
    }

    public func discard() {
        syncSwitches()
        for o in outputs where o.isOpen {
            o.sink.discard()
            o.converter?.reset()
        }
    }

    public func drain() throws(AudioError) {
        syncSwitches()
        var failures: [(Output, AudioError)] = []
        for o in outputs where o.isOpen {
            do { try o.watch.calling { () throws(AudioError) in try o.sink.drain() } } catch { failures.append((o, error)) }
            o.converter?.reset()
        }
        try settle(failures)
    }

    public func close() throws(AudioError) {
        var first: AudioError?
        for o in outputs where o.isOpen {
            o.isOpen = false
            do { try o.watch.calling { () throws(AudioError) in try o.sink.close() } } catch { first = first ?? error }
        }
        format = nil
        if let first { throw first }
    }

    /// Opens what was switched on since the last call (in the format playing now) and closes
    /// what was switched off.
    private func syncSwitches() {
        closeSwitchedOff()
        guard let format else { return }
        var failures: [(Output, AudioError)] = []
        for o in outputs where o.power.isOn && !o.isOpen {
            do {
                let taken = try o.watch.calling { () throws(AudioError) in try o.sink.prepare(for: format) }
                o.converter = taken == format ? nil : try FormatConverter(from: format, to: taken)
                o.isOpen = true
            } catch {
                failures.append((o, error))
            }
        }
        // Opening a newly switched-on output never stops the ones playing.
        for (o, error) in failures { switchOff(o, error) }
    }

    private func closeSwitchedOff() {
        for o in outputs where o.isOpen && !o.power.isOn {
            o.isOpen = false
            o.converter = nil
            try? o.sink.close()
        }
    }

    /// Switches off and reports the outputs that failed, unless none is left playing: then the
    /// failure is the engine's, as with one sink (it reports it; the switches stay as they were).
    private func settle(_ failures: [(Output, AudioError)]) throws(AudioError) {
        guard let first = failures.first else { return }
        let failed = Set(failures.map { ObjectIdentifier($0.0) })
        let othersPlay = outputs.contains { $0.isOpen && !failed.contains(ObjectIdentifier($0)) }
        guard othersPlay else {
            for (o, _) in failures where o.isOpen {
                o.isOpen = false
                try? o.sink.close()
            }
            throw first.1
        }
        for (o, error) in failures { switchOff(o, error) }
    }

    private func switchOff(_ o: Output, _ error: AudioError) {
        o.power.set(false)
        if o.isOpen {
            o.isOpen = false
            try? o.sink.close()
        }
        o.converter = nil
        report(o.sink.name, error)
    }
}
