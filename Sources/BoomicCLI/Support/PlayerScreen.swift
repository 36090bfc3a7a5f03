import BoomicAudio
import BoomicCore
import BoomicPlayback
import BoomicStation
import Foundation
import Synchronization

/// `boomic play` on a terminal: a status line kept at the bottom (song, position / duration,
/// volume, EQ, ReplayGain, shuffle, repeat), the songs and warnings scrolling above it, and keys
/// read in raw mode (`PlayerKey`). The terminal is put back as it was on every way out.
final class PlayerScreen: Sendable {
    private let front: PlayerFront
    private let basis: DataBasis
    private let running = Atomic<Bool>(true)
    private let drawing = Mutex<Void>(())
    /// The sound settings the keys change: kept here, not read back from the engine's status,
    /// which lags by a turn (two keys in one read would each start from the same old value).
    private let sound: Mutex<SoundSettings?> = Mutex(nil)

    /// The terminal's settings before raw mode, put back at exit.
    nonisolated(unsafe) private static var saved: termios?

    init(front: PlayerFront, basis: DataBasis) {
        self.front = front
        self.basis = basis
    }

    /// Raw mode, the key reader and the redraw timer.
    func start() -> any DispatchSourceTimer {
        var t = termios()
        if tcgetattr(STDIN_FILENO, &t) == 0 {
            Self.saved = t
            atexit { PlayerScreen.restore() }
            var raw = t
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            raw.c_cc.6 = 0 // VMIN
            raw.c_cc.5 = 1 // VTIME: reads return within 0.1 s
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        }
        put("\u{1B}[?25l") // hide the cursor
        let keys = Thread { [self] in readKeys() }
        keys.name = "boomic-keys"
        keys.start()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now(), repeating: .milliseconds(250))
        timer.setEventHandler { [self] in draw() }
        timer.resume()
        return timer
    }

    func finish() {
        running.store(false, ordering: .releasing)
        drawing.withLock { _ in put("\r\u{1B}[K\u{1B}[?25h") }
        Self.restore()
    }

    /// The screen is standard output, which is the terminal here.
    private func put(_ s: String) {
        var s = s
        s.withUTF8 { Out.bytes(UnsafeRawBufferPointer($0)) }
    }

    static func restore() {
        guard var t = saved else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &t)
    }

    /// Songs and warnings go above the status line.
    func show(_ event: PlaybackEvent) {
        switch event {
        case let .started(_, song, _):
            if let s = basis[song] { above("▶ " + SongFormat.line(s)) }
        case let .warning(message):
            above(Terminal.yellow("boomic play: \(message)"))
        default:
            break
        }
    }

    private func above(_ line: String) {
        drawing.withLock { _ in put("\r\u{1B}[K" + line + "\n") }
        draw()
    }

    private func draw() {
        guard running.load(ordering: .acquiring) else { return }
        let line = statusLine(front.engine.status)
        drawing.withLock { _ in put("\r\u{1B}[K" + line) }
    }

    func statusLine(_ status: PlaybackStatus) -> String {
        let s = status.sound
        let q = status.queue
        let icon = q.state == .playing ? "▶" : q.state == .paused ? "⏸" : "■"
        let song = status.entry.flatMap { q.entry($0) }.flatMap { basis[$0.song] }
        let name = song.map { [$0.artist, $0.title].compactMap { $0 }.joined(separator: " - ") } ?? ""
        let time = Self.clock(status.position) + (status.duration.map { " / " + Self.clock($0) } ?? "")
        let rg = s.replayGain == .off ? "off" : s.replayGain.rawValue + String(format: " %+.1f dB", status.replayGainDecibels)
        var modes = ["vol \(s.volume)", "EQ \(s.eqName)", "RG \(rg)"]
        if s.speed != 1 { modes.append("speed " + PlayerConfig.speed(s.speed)) }
        if q.isRandom { modes.append("shuffle") }
        if q.repeatMode != .off { modes.append("repeat \(q.repeatMode.rawValue)") }
        let right = "  " + modes.joined(separator: "  ")
        let width = Self.width()
        let room = max(0, width - 3 - time.count - right.count - 2)
        let title = name.count > room ? String(name.prefix(max(0, room - 1))) + "…" : name
        return "\(icon) \(time)  \(Terminal.printable(title))" + Terminal.dim(right)
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(max(0, seconds))
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    private static func width() -> Int {
        var w = winsize()
        return ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &w) == 0 && w.ws_col > 0 ? Int(w.ws_col) : 80
    }

    private func readKeys() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while running.load(ordering: .acquiring) {
            let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, 64) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if n == 0 && Self.saved == nil { return } // not a terminal after all: end of input
                continue
            }
            for key in PlayerKey.decode(Array(buffer[..<n])) { perform(key) }
        }
    }

    private func changeSound(_ change: (inout SoundSettings) -> Void) {
        let engine = front.engine
        let new = sound.withLock { current in
            var s = current ?? engine.status.sound
            change(&s)
            current = s
            return s
        }
        engine.send(.sound(new))
    }

    private func perform(_ key: PlayerKey) {
        let engine = front.engine
        let q = engine.status.queue
        switch key {
        case .togglePause: engine.send(.queue(q.state == .playing ? .pause : .play(nil)))
        case .next: engine.send(.queue(.next))
        case .previous: engine.send(.previous)
        case let .seekBy(d): engine.send(.seekBy(d))
        case .toggleShuffle: engine.send(.queue(.setRandom(!q.isRandom)))
        case .cycleRepeat:
            let all = PlayQueue.Repeat.allCases
            engine.send(.queue(.setRepeat(all[(all.firstIndex(of: q.repeatMode)! + 1) % all.count])))
        case let .volume(step):
            changeSound { $0.volume = max(0, min(100, $0.volume + step)) }
        case let .speed(tenths):
            // In tenths, so that steps land on 1.0 exactly (bit-exact again) whatever the start.
            changeSound { s in
                let range = TempoStretcher.range
                s.speed = max(range.lowerBound, min(range.upperBound, ((s.speed * 10).rounded() + Double(tenths)) / 10))
            }
        case .cycleEQ:
            // off → each preset in turn → off
            changeSound { sound in
                let names = ["off"] + EQPreset.names
                let at = names.firstIndex { $0.lowercased() == sound.eqName.lowercased() } ?? 0
                sound.eqName = names[(at + 1) % names.count]
                sound.eq = EQPreset.named(sound.eqName)
            }
        case .quit: front.stop()
        }
        draw()
    }
}
