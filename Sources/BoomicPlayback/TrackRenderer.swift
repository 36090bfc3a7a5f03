import BoomicAudio
import BoomicCore

/// The chain that renders one track into the ring: the decoder's blocks, converted to the
/// output's format, through the sound processor (ReplayGain, EQ, volume) and the stretcher
/// (speed), faded by the sleep timer, within the range the entry plays. Owned by the decode
/// thread; it keeps the buffers a block passes through, allocated once.
final class TrackRenderer {
    private let ring: SampleRing
    private let emit: (PlaybackEvent) -> Void
    private var scratch: [Int32] = []
    private var scratchFloat: [Float] = []
    /// A block in float, at the output's rate and channels, while the processor works on it.
    private var processing: [Float] = []
    var sound: SoundSettings
    var processor: SoundProcessor
    /// SoundTouch, while the speed is not 1; songs flow through it without a break.
    var stretcher: TempoStretcher?
    /// The stretcher's output, swapped with `processing`.
    private var stretched: [Float] = []
    private(set) var replayGainDecibels = 0.0
    /// The current track's samples in the output's format, not yet in the ring (a block may
    /// fill more than one slot once resampled up), and how many of them went in.
    private var rendered: [Int32] = []
    private var renderedFloat: [Float] = []
    private var renderedTaken = 0
    /// The volume's gain what is in `rendered` was processed with (1 when unprocessed).
    private var renderedVolume: Float = 1
    /// The sleep timer: seconds of audio left to render before the fade ends, and whether it
    /// has run out (the song being decoded was cut there and nothing more is opened).
    var sleep: (left: Double, stopped: Bool)?
    /// Conversions already reported: each is said once.
    private var conversionsSaid: Set<String> = []

    init(ring: SampleRing, sound: SoundSettings, emit: @escaping (PlaybackEvent) -> Void) {
        self.ring = ring
        self.emit = emit
        self.sound = sound
        processor = SoundProcessor(eq: sound.eq, sampleRate: 44_100, channels: 2)
        let block = EngineLoop.framesPerSlot * 8
        processing.reserveCapacity(block * 4)
        stretched.reserveCapacity(block * 4)
        scratch.reserveCapacity(block)
        scratchFloat.reserveCapacity(block)
        rendered.reserveCapacity(block * 4)
        renderedFloat.reserveCapacity(block * 4)
    }

    /// Renders one block of `track` into `slot` (the bit-exact path) or into what waits for the
    /// ring: decoder → conversion → DSP → stretch → the sleep timer's fade, within the range
    /// the entry plays. At the song's end, the tails of the converter and the stretcher (held
    /// for the next song when `anotherSongFollows`, for a gapless join).
    func render(_ decoder: any AudioDecoder, track: inout EngineTrack, slot: UnsafeMutableBufferPointer<Int32>,
                format: PCMFormat, output out: PCMFormat, shuffle: Bool, anotherSongFollows: () -> Bool) {
        if track.outputRate == nil {
            track.outputRate = Double(out.sampleRate)
            if processor.sampleRate != out.sampleRate || processor.channels != out.channels {
                processor.setFormat(sampleRate: out.sampleRate, channels: out.channels)
            }
            processor.setGain(gain(for: track, shuffle: shuffle), ramp: false)
            prepareStretcher(track: &track, output: out)
            if out != format {
                do {
                    track.converter = try FormatConverter(from: format, to: out, blockFrames: EngineLoop.framesPerSlot)
                    // Worth saying when it changes the rate, the channels or loses bits; widening
                    // to float for the sound processor is not.
                    let lossy = out.sampleRate != format.sampleRate || out.channels != format.channels
                        || (!out.isFloat && out.bitsPerSample < format.bitsPerSample)
                    if lossy, conversionsSaid.insert("\(format)>\(out)").inserted {
                        emit(.warning("converting \(format) to the output's \(out) (from \(decoder.path))"))
                    }
                } catch {
                    emit(.warning("skipped: \(error.description)"))
                    track.unplayable = true
                    track.decoder = nil
                    return
                }
            }
        }
        rendered.removeAll(keepingCapacity: true)
        renderedFloat.removeAll(keepingCapacity: true)
        renderedTaken = 0
        var frames = 0
        let floatChain = !processor.isIdentity || stretcher != nil
        renderedVolume = processor.isIdentity ? 1 : Float(Volume.gain(percent: Double(sound.volume)))
        // The bit-exact path for integer samples: the decoder writes straight into the slot,
        // 16-bit ones as they are when it can (the output thread widens them; the sleep timer's
        // fade needs them wide here).
        let direct = !floatChain && out == format && !format.isFloat
        var packed = false
        // A range ends the song at its end, as the file's end would.
        let left = track.lastFrame.map { max(0, $0 - track.startFrame - track.decodedFrames) }
        let atEnd = left == 0
        do {
            let block = min(EngineLoop.framesPerSlot, ring.slotCapacity / format.channels, left ?? .max)
            let wanted = min(EngineLoop.framesPerSlot, left ?? .max)
            if atEnd {
                frames = 0
            } else if direct, format.bitsPerSample == 16, sleep == nil,
               let n = try decoder.read16(into: UnsafeMutableRawBufferPointer(slot), maxFrames: block) {
                frames = n
                packed = true
            } else if direct {
                frames = try decoder.read(into: slot, maxFrames: block)
            } else {
                frames = floatChain
                    ? try readProcessed(decoder, track: &track, into: out, maxFrames: wanted)
                    : try read(decoder, format: format, converter: track.converter, into: out, maxFrames: wanted)
            }
        } catch {
            emit(.warning(error.description))
        }
        if frames == 0, !atEnd, let expected = track.expectedEnd,
           track.startFrame + track.decodedFrames + Int(track.rate) < expected {
            track.endedEarly = true
        }
        let warnings = decoder.warnings
        for w in warnings.dropFirst(track.warningsSeen).prefix(3) { emit(.warning("\(decoder.path): \(w)")) }
        track.warningsSeen = warnings.count
        track.decodedFrames += frames
        if frames == 0 {
            // The end of the song: the resampler's tail, then the end slot (next turn).
            if floatChain {
                processing.removeAll(keepingCapacity: true)
                track.toFloat?.flush(into: &processing)
                // The stretcher's tail waits for the next song (gapless) unless none follows.
                let last = stretcher != nil && !anotherSongFollows()
                do { try finishProcessing(track: &track, into: out, last: last) } catch { emit(.warning(error.description)) }
            } else if let c = track.converter {
                if out.isFloat { c.flush(into: &renderedFloat) } else { c.flush(into: &rendered) }
            }
            track.decoder = nil
        }
        if direct, frames > 0 {
            publish(slot, samples: frames * out.channels, track: &track, format: out, packed16: packed)
        } else if hasRendered(out) {
            publishRendered(track: &track, format: out)
        }
    }

    /// Sets the stretcher up for a track about to be decoded at the output's format: none at
    /// speed 1 (bit-exact), else one at the output's rate and channels, kept across songs.
    private func prepareStretcher(track: inout EngineTrack, output out: PCMFormat) {
        let speed = track.speed
        guard speed != 1 else {
            stretcher = nil
            return
        }
        if let s = stretcher, s.sampleRate == out.sampleRate, s.channels == out.channels {
            s.setTempo(speed)
        } else {
            stretcher = TempoStretcher(sampleRate: out.sampleRate, channels: out.channels, tempo: speed)
            if stretcher == nil { emit(.warning("cannot change the speed of \(out); playing at speed 1")) }
        }
        if stretcher == nil { track.speed = 1 }
        track.carried = stretcher?.backlogFrames ?? 0
    }


    /// Scales a slot by the sleep timer's fade (linear in amplitude over its last seconds) and
    /// counts it down; at zero the timer has stopped playback.
    private func fadeForSleep(_ slot: UnsafeMutableBufferPointer<Int32>, samples n: Int, format out: PCMFormat) {
        guard var timer = sleep, !timer.stopped else { return }
        let channels = out.channels, rate = Double(out.sampleRate)
        let frames = n / channels
        if timer.left - Double(frames) / rate < SleepTimer.fade {
            for f in 0..<frames {
                let gain = min(1, max(0, (timer.left - Double(f) / rate) / SleepTimer.fade))
                for c in 0..<channels {
                    let i = f * channels + c
                    if out.isFloat {
                        let x = Float(bitPattern: UInt32(bitPattern: slot[i]))
                        slot[i] = Int32(bitPattern: (x * Float(gain)).bitPattern)
                    } else {
                        slot[i] = Int32((Double(slot[i]) * gain).rounded())
                    }
                }
            }
        }
        timer.left -= Double(frames) / rate
        timer.stopped = timer.left <= 0
        sleep = timer
    }

    /// The linear gain for a song: its ReplayGain (by the mode, the preamp, the peak) times the
    /// volume's.
    func gain(for t: EngineTrack, shuffle: Bool) -> Double {
        let level = ReplayGain.level(mode: sound.replayGain, tags: t.replayGain, shuffle: shuffle,
                                     preamp: sound.preamp, missing: sound.missing)
        replayGainDecibels = level.decibels
        return level.linear * Volume.gain(percent: Double(sound.volume))
    }


    /// Decodes one block through the sound processor: to float at the output's rate and
    /// channels, processed in place, then into the output's format (dithered when it is integer).
    private func readProcessed(_ decoder: any AudioDecoder, track: inout EngineTrack, into out: PCMFormat, maxFrames: Int) throws(AudioError) -> Int {
        let format = decoder.format
        let floatFormat = PCMFormat.float(sampleRate: out.sampleRate, channels: out.channels)
        if track.toFloat == nil, format != floatFormat {
            track.toFloat = try FormatConverter(from: format, to: floatFormat, blockFrames: EngineLoop.framesPerSlot)
        }
        processing.removeAll(keepingCapacity: true)
        let frames: Int
        if format.isFloat {
            scratchFloat.removeAll(keepingCapacity: true)
            frames = try decoder.read(into: &scratchFloat, maxFrames: maxFrames)
            if let c = track.toFloat {
                scratchFloat.withUnsafeBufferPointer { c.convert($0, into: &processing) }
            } else {
                processing.append(contentsOf: scratchFloat)
            }
        } else {
            scratch.removeAll(keepingCapacity: true)
            frames = try decoder.read(into: &scratch, maxFrames: maxFrames)
            if let c = track.toFloat { scratch.withUnsafeBufferPointer { c.convert($0, into: &processing) } }
        }
        try finishProcessing(track: &track, into: out)
        return frames
    }

    /// Runs `processing` through the processor (and the stretcher, `last` pushing out its tail)
    /// and appends it to what the ring takes.
    private func finishProcessing(track: inout EngineTrack, into out: PCMFormat, last: Bool = false) throws(AudioError) {
        processing.withUnsafeMutableBufferPointer { processor.process($0) }
        if let stretcher {
            stretched.removeAll(keepingCapacity: true)
            processing.withUnsafeBufferPointer { stretcher.process($0, into: &stretched) }
            if last { stretcher.flush(into: &stretched) }
            swap(&processing, &stretched)
        }
        if out.isFloat {
            renderedFloat.append(contentsOf: processing)
            return
        }
        if track.fromFloat == nil {
            track.fromFloat = try FormatConverter(from: .float(sampleRate: out.sampleRate, channels: out.channels), to: out,
                                                     blockFrames: EngineLoop.framesPerSlot * 4)
        }
        processing.withUnsafeBufferPointer { track.fromFloat!.convert($0, into: &rendered) }
    }

    /// Decodes one block and puts it, in the output's format, into `rendered`/`renderedFloat`;
    /// the song's frames read. Few enough that a block converted up in rate still fits the ring's
    /// slots a turn or two later.
    private func read(_ decoder: any AudioDecoder, format: PCMFormat, converter: FormatConverter?,
                      into out: PCMFormat, maxFrames: Int) throws(AudioError) -> Int {
        let frames: Int
        if format.isFloat {
            scratchFloat.removeAll(keepingCapacity: true)
            frames = try decoder.read(into: &scratchFloat, maxFrames: maxFrames)
            if let converter {
                scratchFloat.withUnsafeBufferPointer { b in
                    if out.isFloat { converter.convert(b, into: &renderedFloat) } else { converter.convert(b, into: &rendered) }
                }
            } else {
                renderedFloat.append(contentsOf: scratchFloat)
            }
        } else if let converter {
            scratch.removeAll(keepingCapacity: true)
            frames = try decoder.read(into: &scratch, maxFrames: maxFrames)
            scratch.withUnsafeBufferPointer { b in
                if out.isFloat { converter.convert(b, into: &renderedFloat) } else { converter.convert(b, into: &rendered) }
            }
        } else {
            // The output's own format (`render` sends these straight into a slot instead).
            frames = try decoder.read(into: &rendered, maxFrames: maxFrames)
        }
        return frames
    }

    /// Whether rendered samples wait for the ring.
    func hasRendered(_ out: PCMFormat) -> Bool {
        renderedTaken < (out.isFloat ? renderedFloat.count : rendered.count)
    }


    /// Moves the next slot's worth of rendered samples into the ring.
    func publishRendered(track: inout EngineTrack, format out: PCMFormat) {
        guard let slot = ring.freeSlot() else { return }
        let perSlot = (ring.slotCapacity / out.channels) * out.channels
        let total = out.isFloat ? renderedFloat.count : rendered.count
        let n = min(perSlot, total - renderedTaken)
        if out.isFloat {
            renderedFloat.withUnsafeBufferPointer { b in
                let floats = UnsafeMutableRawPointer(slot.baseAddress!).assumingMemoryBound(to: Float.self)
                floats.update(from: b.baseAddress! + renderedTaken, count: n)
            }
        } else {
            rendered.withUnsafeBufferPointer { b in slot.baseAddress!.update(from: b.baseAddress! + renderedTaken, count: n) }
        }
        renderedTaken += n
        publish(slot, samples: n, track: &track, format: out)
    }

    /// Hands a filled slot to the output (faded first when the sleep timer nears its end).
    private func publish(_ slot: UnsafeMutableBufferPointer<Int32>, samples n: Int, track: inout EngineTrack, format out: PCMFormat,
                         packed16: Bool = false) {
        if sleep != nil { fadeForSleep(slot, samples: n, format: out) }
        ring.publish(SlotInfo(segment: track.segment, frames: n / out.channels, samples: n, endOfTrack: false, prepare: nil,
                              isFloat: out.isFloat, isPacked16: packed16, volume: renderedVolume))
        if sleep?.stopped == true {
            // The timer ran out: the song ends here, unfinished, and nothing follows.
            clearRendered()
            track.decoder = nil
            track.cut = true
        }
    }


    func clearRendered() {
        rendered.removeAll(keepingCapacity: true)
        renderedFloat.removeAll(keepingCapacity: true)
        renderedTaken = 0
    }
}
