import Foundation
import Synchronization

/// A progress bar on stderr, drawn only when stderr is a TTY and the work is long enough to
/// need one. Thread-safe: scanners report from several threads.
final class Progress: Sendable {
    private struct State { var done = 0; var lastDraw = 0.0 }
    private let state = Mutex(State())
    private let total: Int
    private let title: String
    private let start = Date().timeIntervalSince1970
    private let enabled: Bool

    init(title: String, total: Int) {
        self.title = title
        self.total = total
        enabled = Terminal.stderrIsTTY && total > 50
    }

    func advance(by n: Int = 1) {
        guard enabled else { return }
        let now = Date().timeIntervalSince1970
        let line: String? = state.withLock { s in
            s.done += n
            guard now - s.lastDraw > 0.1 || s.done == total else { return nil }
            s.lastDraw = now
            return render(done: s.done, now: now)
        }
        if let line { Terminal.raw(line) }
    }

    func finish() {
        guard enabled else { return }
        Terminal.raw("\r\u{1B}[K")
    }

    private func render(done: Int, now: Double) -> String {
        let width = 30
        let frac = total == 0 ? 1 : Double(done) / Double(total)
        let filled = Int(frac * Double(width))
        let rate = Double(done) / max(now - start, 0.001)
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        return "\r\(title) [\(bar)] \(done)/\(total) \(Int(rate)) files/s"
    }
}
