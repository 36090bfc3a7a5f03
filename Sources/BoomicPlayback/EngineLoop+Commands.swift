import BoomicAudio
import BoomicCore

/// The fronts' commands on the decode thread: the queue they changed is taken as it is, and
/// what needs the decoder (a seek, the sound, the sleep timer) is carried out in order.
extension EngineLoop {
    /// Takes what the fronts changed since the last look: each waiting command after the queue
    /// as it stood when it came, then the queue as it is. True when the engine is to quit.
    func catchUp() -> Bool {
        var quit = false
        let seen = seenGeneration
        // Every turn looks; only a change is copied out.
        let taken = channel.shared.withLock { s -> (generation: Int, queue: PlayQueue, work: [EngineChannel.Work], playAsked: Bool)? in
            quit = s.quit
            guard s.generation != seen else { return nil }
            defer {
                s.taken = s.generation
                s.work.removeAll()
                s.playAsked = false
            }
            return (s.generation, s.queue, s.work, s.playAsked)
        }
        guard let (generation, latest, work, playAsked) = taken else { return quit }
        seenGeneration = generation
        if playAsked { awaitingPlay = false }
        for w in work {
            adopt(w.queue)
            perform(w.command)
        }
        adopt(latest)
        return quit
    }

    /// A move of the decode thread's own (a song finished, the queue stopped), made on the queue
    /// the fronts see, when `applies` still holds once the fronts' changes are taken.
    func move(_ command: QueueCommand, if applies: () -> Bool = { true }) {
        while applies() {
            let made = channel.shared.withLock { s -> Bool in
                // Only on the queue this thread plays: a front's change comes first.
                guard s.generation == seenGeneration else { return false }
                queue.apply(command)
                s.queue = queue
                return true
            }
            if made { return }
            _ = catchUp()
        }
    }

    func perform(_ command: PlaybackCommand) {
        switch command {
        case let .queue(c): adopt(queue.applying(c))
        case .previous: adopt(queue.applying(.previous(elapsed: heardPosition().seconds)))
        case let .seek(to: seconds): seek(to: seconds)
        case let .seekBy(delta): seek(to: heardPosition().seconds + delta)
        case let .sleep(after: seconds):
            renderer.sleep = seconds.map { (left: max(0, $0), stopped: false) }
        case let .sound(given):
            // The front starts from the status, which shows the speed heard (an audiobook's own):
            // only a speed other than that one is a change, and only it becomes the session's.
            var settings = given
            let speedChanged = settings.speed != (tracks.first?.speed ?? renderer.sound.speed)
            if !speedChanged { settings.speed = renderer.sound.speed }
            // Heard at once: the output thread scales what the ring already holds.
            ring.volume.store(Float(Volume.gain(percent: Double(settings.volume))).bitPattern, ordering: .releasing)
            if settings.eq != renderer.sound.eq { renderer.processor.setEQ(settings.eq) }
            renderer.sound = settings
            if let t = tracks.last { renderer.processor.setGain(renderer.gain(for: t, shuffle: queue.isRandom), ramp: true) }
            // A new speed is heard at once too: what the ring holds is played again from where
            // it is heard, as a seek there does (one speed per segment keeps positions true).
            if speedChanged, let t = tracks.first, !t.failed { seek(to: heardPosition().seconds, speed: settings.speed) }
        }
    }

    /// Plays `newer`, the queue as a front changed it: what is heard ends (a skip, a stop) when
    /// its entry is no longer current, the look-ahead goes when it no longer follows.
    func adopt(_ newer: PlayQueue) {
        let before = queue
        guard newer != before else { return }
        queue = newer
        if queue.state != .stopped { awaitingPlay = false }
        let moved = queue.current != before.current || queue.starts != before.starts
        if moved || (queue.state == .stopped && before.state != .stopped) {
            endHeard(queue.state == .stopped && !moved ? .stopped : .skipped)
            flush()
        } else {
            dropStaleLookahead()
        }
        if queue.state != .stopped, tracks.isEmpty { startCurrent() }
        setPaused(queue.state == .paused)
        if queue.state != .stopped { idle = false }
    }

    /// Plays the current song on from `seconds` (at `speed`, else at the speed it plays at).
    func seek(to seconds: Double, speed: Double? = nil) {
        guard let t = tracks.first, !t.failed else { return }
        let heardFrames = t.time.songFrames(output: heardInFirst().frames)
        let frame = t.time.seekFrame(to: seconds)
        flush()
        startTrack(entry: t.entry, starts: t.starts, key: t.key, song: t.song, at: frame,
                   heardBefore: t.heardBefore + heardFrames, announced: t.announced, speed: speed ?? t.speed)
    }
}
