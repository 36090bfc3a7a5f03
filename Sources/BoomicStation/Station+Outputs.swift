import BoomicAudio
import Foundation

/// Outputs that hang: the look for them while one may hang, and what is done about one.
extension Station {
    /// Starts the look for hung outputs (`dropHungOutputs`), once a tick while one may hang
    /// (a room plays, or an output is in a call), woken by the station's own changes.
    /// - Parameters:
    ///   - ticker: what ticks (a test's own hand; a 1 s timer by default).
    ///   - run: runs each look, which is blocking work (a front runs it between its own changes
    ///     of the rooms, so that it never replaces a player a move of an output is replacing).
    public func watchOutputs(ticker: any WatchdogTicker = TimerTicker(),
                             run: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() }) {
        let watchdog = OutputWatchdog(ticker: ticker, look: { [weak self] in
            run { [weak self] in
                guard let self else { return }
                dropHungOutputs(now: clock())
            }
        }, isBusy: { [weak self] in self?.mayHang ?? false })
        // One look at a time: a second call replaces the first's.
        self.watchdog.withLock { old in
            old?.stop()
            old = watchdog
        }
    }

    /// Stops the look for hung outputs.
    public func stopWatchingOutputs() { watchdog.withLock { $0 }?.stop() }

    /// Whether the look for hung outputs is due within a tick (tests).
    var isWatchingOutputs: Bool { watchdog.withLock { $0 }?.isArmed ?? false }

    /// `disableoutput` of an output hung in a call (a write that does not return): the switch
    /// is heard only between calls, so the room would wait with it. The call's end is waited
    /// for (woken by it); if it is still under way after half a second, the room's player is
    /// replaced (the one stuck with it is left behind) and the room plays on without it.
    /// Blocking work: up to 0.75 s.
    public func letGo(output id: Int) {
        guard let watch = watch(id) else { return }
        guard !watch.waitForEnd(ofCall: watch.callsBegun, timeout: .milliseconds(500)),
              !switches[id].isOn, let name = room(of: id) else { return }
        whileRestarting([name]) { restart(name, outputs: [], outputHangs: true) }
        warn("output \(outputs[id].name) hangs: room \(name) plays on without it")
    }

    /// How long one call to an output (a write, an open, a drain) may last before the output is
    /// taken for hung. A device returns from a write within its buffer (ALSA's holds 80 ms), a
    /// pipe once its reader took the block (8 KiB at 16-bit stereo); one that has not in 5 s
    /// will not (a card stuck in a write, a Bluetooth sink gone, a `wav:` pipe nobody reads).
    public static let hangLimit: Duration = .seconds(5)

    /// The station's watchdog, every second: an output switched on that has been in the same
    /// call for `hangLimit` is switched off, and its room's player, which waits with it, is
    /// replaced, so the room plays on without it (on its other outputs, or silently) where it
    /// stayed frozen with its time standing, and nothing said why. In `boomic play`'s one room
    /// (`playsOnWithoutHungOutput` false) the player is left behind, its queue saved, and its
    /// front told the output failed. Blocking work: a quarter of a second for each output found.
    public func dropHungOutputs(now: ContinuousClock.Instant = .now) {
        let hung: [Int] = calls.withLock { calls in
            var hung: [Int] = []
            for id in outputs.map(\.id) {
                guard switches[id].isOn, let watch = watch(id), watch.isInCall else {
                    calls[id] = nil
                    continue
                }
                let call = watch.callsBegun
                if let seen = calls[id], seen.watch == ObjectIdentifier(watch), seen.call == call {
                    if now - seen.since >= Self.hangLimit { hung.append(id) }
                } else {
                    calls[id] = (ObjectIdentifier(watch), call, now)
                }
            }
            return hung
        }
        for id in hung {
            guard let name = room(of: id) else { continue }
            setEnabled(output: id, false)
            guard playsOnWithoutHungOutput else {
                let reason = "hangs: a call to it has not returned in \(Self.hangLimit.components.seconds) s"
                rooms.withLock { $0[name]?.player }?.leaveBehind(failure: AudioError(path: outputs[id].name, reason: reason))
                continue
            }
            warn("output \(outputs[id].name) hangs (a call has not returned in \(Self.hangLimit.components.seconds) s) and is disabled: room \(name) plays on without it")
            whileRestarting([name]) { restart(name, outputs: [], outputHangs: true) }
        }
    }

    /// Whether an output may be hanging now: a room plays, or an output is in a call (a
    /// paused room's drain, an open). When none is, the watchdog sleeps until a change.
    public var mayHang: Bool {
        rooms.withLock { Array($0.values) }.contains { room in
            room.player?.status.queue.state == .playing || room.watches.values.contains(where: \.isInCall)
        }
    }

    func room(of output: Int) -> String? {
        rooms.withLock { r in r.first { $0.value.outputs.contains(output) }?.key }
    }

    /// The calls its room's player makes to an output; nil while no player has it.
    func watch(_ output: Int) -> FanOutSink.CallWatch? {
        rooms.withLock { r in r.values.lazy.compactMap { $0.watches[output] }.first }
    }

    /// Runs `body` with the rooms marked as restarting (`isRestarting`).
    func whileRestarting(_ names: [String], _ body: () -> Void) {
        restartingCount.add(1, ordering: .acquiringAndReleasing)
        restarting.withLock { for name in names { $0[name, default: 0] += 1 } }
        defer {
            restarting.withLock { for name in names { $0[name, default: 1] -= 1 } }
            restartingCount.subtract(1, ordering: .acquiringAndReleasing)
        }
        body()
    }

    /// Whether the output's sink is in a call now (most of the time, for a device that paces).
    public func isInCall(output id: Int) -> Bool { watch(id)?.isInCall ?? false }
}
