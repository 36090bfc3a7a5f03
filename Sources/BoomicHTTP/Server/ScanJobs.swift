import Foundation
import Synchronization

/// `startScan`'s rescans: one at a time on a thread of its own (an import reads the disk and
/// commits; no event loop waits on it). A start while one runs asks for one more after it, as
/// a second `mpc update` queues behind the first.
final class ScanJobs: Sendable {
    private struct State {
        var running = false
        var again = false
    }

    private let state = Mutex(State())
    private let rescan: @Sendable () throws -> Void
    private let warn: @Sendable (String) -> Void

    init(rescan: @escaping @Sendable () throws -> Void, warn: @escaping @Sendable (String) -> Void) {
        self.rescan = rescan
        self.warn = warn
    }

    var isScanning: Bool { state.withLock { $0.running } }

    func start() {
        let starts = state.withLock { s -> Bool in
            if s.running {
                s.again = true
                return false
            }
            s.running = true
            return true
        }
        guard starts else { return }
        Thread.detachNewThread { [self] in
            repeat {
                do { try rescan() } catch { warn("startScan: \(error.localizedDescription)") }
            } while state.withLock { s -> Bool in
                s.running = s.again
                s.again = false
                return s.running
            }
        }
    }
}
