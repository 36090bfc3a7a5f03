import BoomicAudio
import BoomicCore
import Foundation

/// The decode thread's loop: plays the queue as the fronts left it (catching up with their
/// changes at each turn), decodes ahead into the ring through the `TrackRenderer`, opens the next
/// song before the current one ends (gapless), and turns what the output reports it has written
/// into the queue's own moves and into events.
///
/// Owned by that one thread; nothing here is shared except through the ring and the channel.
/// `queue` is the queue as this thread last took it: the fronts' copy (`EngineChannel`) may be
/// ahead of it, never behind.
final class EngineLoop {
    /// Frames per ring slot: about 46 ms at 44.1 kHz, the grain at which pause and skip act.
    static let framesPerSlot = 2048
    /// Decoding steps per turn of the loop, at most.
    static let blocksPerTurn = 4

    var queue: PlayQueue
    private var resume: ResumePoint?
    let ring: SampleRing
    private let songs: @Sendable (SongID) -> PlayableSong?
    /// The events of a turn, sent once the status showing them is published.
    private let outbox: EventOutbox
    let channel: EngineChannel
    private let outputDone = DispatchSemaphore(value: 0)

    var tracks: [EngineTrack] = []
    private var nextSegment = 1
    /// The fronts' changes taken so far (`EngineChannel.Shared.generation`).
    var seenGeneration = 0
    /// The format agreed with the output.
    private var negotiation = OutputNegotiation()
    private var outputFailed = false
    private var failuresInARow = 0
    /// The last song that failed, until one plays (`PlaybackStatus.failure`).
    private var failure: PlaybackFailure?
    private var failureSerial = 0
    /// The drain asked for at the end of the queue, and whether `idle` was reported.
    private var drainAsked = 0
    var idle = false
    /// Started stopped and not yet asked to play: nothing has ended, so no `idle` is reported.
    /// (A front starts the engine stopped and then sends its settings and `play`; reported
    /// meanwhile, `idle` read as the end of the queue, and `boomic play` on a loaded machine
    /// quit at once with "nothing playable".)
    var awaitingPlay: Bool
    /// The chain that renders the track being decoded.
    let renderer: TrackRenderer

    init(queue: PlayQueue, resume: ResumePoint?, ring: SampleRing,
         sink: sending any AudioSink, realtime: Bool, sound: SoundSettings, songs: @escaping @Sendable (SongID) -> PlayableSong?,
         emit: @escaping (PlaybackEvent) -> Void, channel: EngineChannel) {
        self.queue = queue
        self.resume = resume
        self.ring = ring
        self.songs = songs
        let outbox = EventOutbox(send: emit)
        self.outbox = outbox
        self.channel = channel
        renderer = TrackRenderer(ring: ring, sound: sound, emit: outbox.post)
        awaitingPlay = queue.state == .stopped
        ring.volume.store(Float(Volume.gain(percent: Double(sound.volume))).bitPattern, ordering: .releasing)
        let handOver = HandOver(sink)
        let outputDone = outputDone
        let thread = Thread {
            _ = OutputThread(ring: ring, sink: handOver.take(), realtime: realtime).run()
            outputDone.signal()
        }
        thread.name = "boomic-output"
        thread.start()
    }

    func run() {
        if queue.state != .stopped { startCurrent() }
        setPaused(queue.state == .paused)
        while true {
            if catchUp() {
                shutDown()
                outbox.flush()
                return
            }
            takeNegotiation()
            followOutput()
            // What the output heard goes out now, with its events, before a decoder's open (a
            // sleeping disk) can hold the turn.
            publishStatus()
            // A few blocks per turn: the turn's own work (the fronts' changes, the output's answer,
            // what was heard, the status) done per 2,048 frames costs two thirds of what widening
            // the samples does, and a few blocks decode in well under a millisecond, so commands
            // still act at once.
            var worked = false
            for _ in 0..<Self.blocksPerTurn {
                guard decodeStep() else { break }
                worked = true
            }
            publishStatus()
            if !worked {
                ring.wakeOutput()
                // Playing, a turn at least every 50 ms follows what the output has played even
                // when no slot comes back. Stopped or paused nothing moves, and every command,
                // slot and answer from the output wakes the thread: it sleeps, as MPD does, where
                // a 50 ms poll would wake a server with nothing to do 20 times a second.
                let patience: DispatchTimeInterval = queue.state == .playing ? .milliseconds(50) : .seconds(2)
                let seen = seenGeneration
                SampleRing.wait(on: ring.engineWake, flag: ring.engineWaiting, timeout: patience) {
                    channel.shared.withLock { $0.generation != seen }
                }
            }
        }
    }


    // MARK: tracks

    /// Starts the queue's current entry afresh (from the song's start, its bookmark, or where
    /// `--resume` left it).
    func startCurrent() {
        guard let id = queue.current, let entry = queue.entry(id) else { return }
        var at: Int?
        var key: PlayKey?
        if let r = resume, r.entry == id {
            at = r.frame
            key = r.play
        }
        resume = nil
        startTrack(entry: id, starts: queue.starts, key: key, song: entry.song, at: at)
    }

    /// - Parameter key: the play this goes on with (a seek, a resume); nil starts a new one.
    func startTrack(entry: PlayQueue.EntryID, starts: Int, key: PlayKey? = nil, song: SongID, at frame: Int?,
                            heardBefore: Int = 0, announced: Bool = false, speed: Double? = nil) {
        let segment = nextSegment
        nextSegment += 1
        var decoder: (any AudioDecoder)?
        var start = 0
        var tags = ReplayGainTags()
        var trackSpeed = speed ?? renderer.sound.speed
        var first = 0, last: Int?, expected: Int?
        if let playable = songs(song) {
            tags = playable.replayGain
            if speed == nil, let own = playable.speed { trackSpeed = own }
            do {
                let d = try Decoders.open(playable.path)
                let rate = Double(d.format.sampleRate)
                if let range = queue.entry(entry)?.range ?? playable.range {
                    first = HeardTime.frame(at: range.start, rate: rate)
                    last = range.end.map { HeardTime.frame(at: $0, rate: rate) }
                }
                // A range's end past the file's plays to the file's end, as MPD's does.
                let known = playable.duration.map { HeardTime.frame(at: $0, rate: rate) }
                let fileEnd = [d.totalFrames, known].compactMap { $0 }.max()
                expected = [last, fileEnd].compactMap { $0 }.min()
                start = max(first, frame ?? HeardTime.frame(at: playable.startAt, rate: rate))
                if let last { start = min(start, last) }
                if start > 0 { try d.seek(toFrame: start) }
                decoder = d
            } catch {
                outbox.post(.warning("skipped: \(error.description)"))
            }
        } else {
            outbox.post(.warning("skipped: song \(song) is no longer in the library"))
        }
        let key = key ?? PlayKey(entry: entry, at: Date().timeIntervalSince1970)
        var track = EngineTrack(segment: segment, entry: entry, starts: starts, key: key, song: song, decoder: decoder,
                          format: decoder?.format, totalFrames: decoder?.totalFrames, startFrame: start)
        track.heardBefore = heardBefore
        track.announced = announced
        track.firstFrame = first
        track.lastFrame = last
        track.expectedEnd = expected
        track.replayGain = tags
        track.speed = trackSpeed
        if track.failed { failuresInARow += 1 } else { failuresInARow = 0 }
        if track.failed { failed(entry: entry, song: song) }
        tracks.append(track)
    }

    /// Opens the song that plays after the last one decoded, as the queue would have it once the
    /// songs in the ring have played: the gapless hand-over. At most one song ahead of the one
    /// heard, so that a look-ahead the queue no longer wants is always one run of segments.
    private func openLookahead() {
        guard tracks.count == 1, tracks[0].decodeEnded, renderer.sleep?.stopped != true else { return }
        var q = queue
        if q.state == .paused { q.apply(.play(nil)) }
        q.apply(.finished)
        guard q.state == .playing, let next = q.current, let entry = q.entry(next) else { return }
        if failuresInARow > max(1, queue.entries.count) {
            outbox.post(.warning("nothing in the queue could be played"))
            move(.stop)
            return
        }
        startTrack(entry: next, starts: q.starts, song: entry.song, at: nil)
    }

    /// After a queue edit that kept the current song: drops the look-ahead when the queue no
    /// longer plays it next (moved, removed, shuffled, modes changed).
    func dropStaleLookahead() {
        guard tracks.count == 2 else { return }
        var q = queue
        if q.state == .paused { q.apply(.play(nil)) }
        q.apply(.finished)
        if q.state == .playing, q.current == tracks[1].entry, q.starts == tracks[1].starts { return }
        ring.skip(segments: tracks[1].segment...tracks[1].segment)
        renderer.stretcher?.clear() // holds the dropped song's start (and the last tens of ms of the one heard)
        negotiation.forgetAwaited()
        renderer.clearRendered() // what is rendered and not yet in the ring is the dropped song's
        tracks.removeLast()
    }

    /// Tells the output thread, and wakes it when that changes: paused, it sleeps until woken.
    func setPaused(_ paused: Bool) {
        guard ring.paused.exchange(paused, ordering: .acquiringAndReleasing) != paused else { return }
        ring.outputWake.signal()
    }

    /// Throws away everything decoded and not heard: skip, seek, stop.
    func flush() {
        ring.dropBelow.store(nextSegment, ordering: .releasing)
        ring.skipped.store(1 << 32, ordering: .releasing)
        ring.discardRequests.add(1, ordering: .releasing)
        ring.outputWake.signal()
        tracks.removeAll()
        renderer.processor.reset()
        renderer.stretcher?.clear()
        negotiation.forgetAwaited()
        renderer.clearRendered()
    }

    // MARK: decoding

    /// Does one step of decoding work; false when there was nothing to do (then the loop waits).
    private func decodeStep() -> Bool {
        guard queue.state != .stopped, !outputFailed else { return false }
        if tracks.last?.decodeEnded ?? true {
            let count = tracks.count
            openLookahead()
            if tracks.isEmpty { return false }
            if tracks.count == count { return false }
        }
        let i = tracks.count - 1
        if tracks[i].failed {
            guard ring.freeSlot() != nil else { return false }
            publishEnd(ofTrack: i)
            return true
        }
        guard let format = tracks[i].format else { return false }
        if !tracks[i].prepared {
            if negotiation.awaiting { return false }
            let wanted = OutputNegotiation.wanted(for: format, processing: renderer.sound.changesSamples || tracks[i].speed != 1)
            if negotiation.isAgreed(wanted) {
                tracks[i].prepared = true
            } else {
                guard ring.freeSlot() != nil else { return false }
                ring.negotiated.withLock { $0 = nil }
                negotiation.ask(wanted)
                ring.publish(.prepare(wanted, segment: tracks[i].segment))
                return true
            }
        }
        guard let out = negotiation.format, let slot = ring.freeSlot() else { return false }
        if renderer.hasRendered(out) {
            renderer.publishRendered(track: &tracks[i], format: out)
            return true
        }
        guard let decoder = tracks[i].decoder else {
            publishEnd(ofTrack: i)
            return true
        }
        let wasUnplayable = tracks[i].unplayable
        let shuffle = queue.isRandom
        renderer.render(decoder, track: &tracks[i], slot: slot, format: format, output: out, shuffle: shuffle,
                        anotherSongFollows: { [count = tracks.count] in anotherSongFollows(count) })
        if tracks[i].unplayable, !wasUnplayable { failed(entry: tracks[i].entry, song: tracks[i].song) }
        return true
    }

    /// Whether the queue, as things stand, plays another song after the `decoded` ones: if not,
    /// the stretcher's tail is pushed out at the end of the last one. (Given their count: the
    /// renderer calls this while it holds the last track.)
    private func anotherSongFollows(_ decoded: Int) -> Bool {
        guard renderer.sleep?.stopped != true else { return false }
        var q = queue
        if q.state == .paused { q.apply(.play(nil)) }
        for _ in 0..<decoded { q.apply(.finished) }
        return q.state == .playing
    }

    /// The track's last slot: once the output writes it, the song has been heard to its end.
    private func publishEnd(ofTrack i: Int) {
        ring.publish(.end(ofSegment: tracks[i].segment))
        tracks[i].decodeEnded = true
    }

    private func takeNegotiation() {
        guard let answer = ring.negotiated.withLock({ n in defer { n = nil }; return n }) else { return }
        switch answer.result {
        case let .success(taken):
            negotiation.answered(answer.wanted, took: taken)
        case let .failure(error):
            outputFailed = true
            outbox.post(.failed(error))
            move(.stop)
            tracks.removeAll()
        }
    }

    // MARK: following the output

    /// What the output has written of the first track: its segment is being heard, and how far.
    func heardInFirst() -> (heard: Bool, frames: Int) {
        guard let t = tracks.first else { return (false, 0) }
        let (segment, frames) = SampleRing.unpack(ring.heard.load(ordering: .acquiring))
        return segment == t.segment ? (true, frames) : (false, 0)
    }

    func heardPosition() -> (frame: Int, seconds: Double) {
        guard let t = tracks.first else { return (0, 0) }
        let frame = t.time.frame(output: heardInFirst().frames)
        return (frame, t.time.seconds(atFrame: frame))
    }

    /// Turns what the output wrote into events and the queue's own moves: a song whose last
    /// slot was written has finished (the queue moves on, exactly as it does when the next song
    /// starts, gapless or not), and the first slot of a song announces it.
    private func followOutput() {
        let (segment, _) = SampleRing.unpack(ring.heard.load(ordering: .acquiring))
        let ended = ring.ended.load(ordering: .acquiring)
        while let t = tracks.first, t.segment < segment || t.segment <= ended {
            // Heard to its end, though the output may already be past it: an unpaced output
            // writes a burst of slots (the rest of one song and the start of the next) between
            // two looks, so `heard` no longer names this song.
            if t.decodedFrames > 0 { announce(passed: true) }
            tracks.removeFirst()
            if !t.failed {
                let end = t.time.endOfDecoding
                outbox.post(.ended(SongEnd(entry: t.entry, song: t.song, key: t.key, heard: t.time.heard(atFrame: end),
                                    position: t.time.seconds(atFrame: end),
                                    duration: t.expectedDuration, reason: t.cut ? .quit : .finished,
                                    speed: t.speed, endedEarly: t.endedEarly && !t.cut)))
            }
            // Unless a front moved the queue elsewhere meanwhile (then it plays on from there).
            let stillCurrent = { self.queue.current == t.entry && self.queue.starts == t.starts }
            if t.cut {
                move(.stop, if: stillCurrent)
                renderer.sleep = nil
                continue
            }
            if t.failed, queue.current == t.entry, queue.upNext == nil {
                // Nothing follows a song that failed: stop on it, as MPD stays on the song whose
                // `error:` it shows, rather than leave no song current.
                move(.stop, if: { stillCurrent() && self.queue.upNext == nil })
            } else {
                move(.finished, if: stillCurrent)
            }
            if let next = tracks.first, queue.current != next.entry || queue.starts != next.starts {
                flush() // the queue moved elsewhere meanwhile: start where it is now
            }
            if queue.state != .stopped, tracks.isEmpty { startCurrent() }
            // `single` waits paused at the next song's start (MPD 0.23).
            if queue.state == .paused { setPaused(true) }
        }
        announce()
        if tracks.isEmpty, queue.state == .stopped, !idle, !awaitingPlay {
            if outputFailed {
                idle = true
                return
            }
            if drainAsked == 0 || ring.drains.load(ordering: .acquiring) < drainAsked {
                if drainAsked == 0 || ring.drainRequests.load(ordering: .acquiring) < drainAsked {
                    drainAsked = ring.drainRequests.add(1, ordering: .releasing).newValue
                    ring.outputWake.signal()
                }
                return
            }
            drainAsked = 0
            idle = true
            outbox.post(.idle)
        }
    }

    /// Reports the first track as started once the output has written some of it, or when it
    /// has `passed` (its end was written).
    private func announce(passed: Bool = false) {
        guard let t = tracks.first, !t.announced, !t.failed, passed || heardInFirst().frames > 0 else { return }
        tracks[0].announced = true
        failure = nil
        outbox.post(.started(entry: t.entry, song: t.song, key: t.key))
    }

    func failed(entry: PlayQueue.EntryID, song: SongID) {
        failureSerial += 1
        failure = PlaybackFailure(entry: entry, song: song, serial: failureSerial)
    }

    /// Reports the song being heard as ended for `reason` (a skip, a stop, a quit).
    func endHeard(_ reason: SongEndReason) {
        guard let t = tracks.first, !t.failed, t.announced || heardInFirst().heard else { return }
        announce()
        let frame = heardPosition().frame
        outbox.post(.ended(SongEnd(entry: t.entry, song: t.song, key: t.key, heard: t.time.heard(atFrame: frame),
                            position: t.time.seconds(atFrame: frame), duration: t.expectedDuration, reason: reason,
                            speed: t.speed)))
    }

    private func publishStatus() {
        let t = tracks.first
        let (frame, seconds) = heardPosition()
        // The speed heard: an audiobook's own, while it plays at it.
        var heard = renderer.sound
        if let t { heard.speed = t.speed }
        let status = PlaybackStatus(queue: queue, entry: t?.entry ?? queue.current, play: t?.key, position: seconds, frame: frame,
                                    duration: t?.duration,
                                    sourceFormat: t?.format, outputFormat: negotiation.format, sound: heard,
                                    replayGainDecibels: renderer.replayGainDecibels,
                                    // Only where playback stopped on it: a song skipped on the way
                                    // (or opened early for a gapless join) is no error to show.
                                    failure: queue.state == .stopped ? failure : nil)
        var published = false
        channel.shared.withLock { s in
            // Behind a front's change, this status would undo it: the next turn catches up first.
            guard s.generation == seenGeneration else { return }
            s.failure = failure
            channel.publish(status, in: &s)
            channel.caughtUp(seenGeneration, in: &s)
            channel.tookFirstTurn.store(true, ordering: .releasing)
            published = true
        }
        // Behind a front's change, the events wait for the next turn's status, which shows them.
        if published { outbox.flush() }
    }

    private func shutDown() {
        // The output stops first: a slot it was writing is then counted as heard, so the
        // position kept (an audiobook's bookmark, the state file's) is what reached the sink,
        // not one slot (46 ms) short of it when the output thread was caught mid-slot.
        ring.quit.store(true, ordering: .releasing)
        ring.outputWake.signal()
        outputDone.wait()
        endHeard(.quit)
        publishStatus()
    }
}
