import BoomicSystem
import Foundation
import Glibc
import Synchronization
import Testing

/// Blocking calls interrupted by a signal without SA_RESTART. Each test first shows that the
/// raw call really fails (EINTR, a short write) under the same conditions, then that the
/// funnel's call does not.
@Suite(.serialized) struct InterruptedCallTests {
    @Test func aRawWaitingFlockFailsWithEINTR() throws {
        try withTemporaryDirectory { dir in
            let holder = try FileDescriptor(path: dir + "/lock", flags: O_RDWR | O_CREAT)
            try holder.lock()
            let waiter = try FileDescriptor(path: dir + "/lock", flags: O_RDWR)
            let outcome = Mutex<(result: Int32, errno: Int32)?>(nil)
            let running = Interrupter.start {
                let result = flock(waiter.rawValue, LOCK_EX)
                let code = errno
                outcome.withLock { $0 = (result, code) }
            }
            running.interrupt(for: 2_000)
            try holder.unlock()
            #expect(running.join())
            let seen = try #require(outcome.withLock { $0 })
            #expect(seen.result == -1 && seen.errno == EINTR)
        }
    }

    @Test func aWaitingLockOutlastsSignalsUntilTheHolderLetsGo() throws {
        try withTemporaryDirectory { dir in
            let holder = try FileDescriptor(path: dir + "/lock", flags: O_RDWR | O_CREAT)
            try holder.lock()
            let waiter = try FileDescriptor(path: dir + "/lock", flags: O_RDWR)
            let outcome = Mutex<Result<Void, SystemError>?>(nil)
            let before = caughtSignals.load(ordering: .relaxed)
            let running = Interrupter.start {
                let result = Result { () throws(SystemError) in try waiter.lock() }
                outcome.withLock { $0 = result }
            }
            running.interrupt(for: 100)
            #expect(!running.isDone, "still waiting while the holder holds the lock")
            #expect(caughtSignals.load(ordering: .relaxed) > before, "the waiting thread was interrupted")
            try holder.unlock()
            #expect(running.join())
            let result = try #require(outcome.withLock { $0 })
            #expect(throws: Never.self) { try result.get() }
            #expect(try holder.tryLock() == false, "the waiter holds it now")
        }
    }

    /// A pipe of one page, a writer given 256 KiB, a reader that signals the writer after each
    /// page it takes: every write(2) is cut short or interrupted.
    static func pipeRun(write: @escaping @Sendable (_ fd: Int32, _ bytes: [UInt8]) -> Void) throws -> (sent: [UInt8], received: [UInt8]) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        _ = fcntl(ends[1], 1031 /* F_SETPIPE_SZ, which Glibc hides without _GNU_SOURCE */, 4096)
        let sent = (0..<(256 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let writeEnd = ends[1]
        let running = Interrupter.start {
            write(writeEnd, sent)
            close(writeEnd)
        }
        var received: [UInt8] = []
        var page = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(ends[0], &page, page.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            received += page[..<n]
            running.interrupt()
        }
        #expect(running.join())
        return (sent, received)
    }

    @Test func aRawWriteToABusyPipeIsCutShort() throws {
        let written = Mutex(0)
        let run = try Self.pipeRun { fd, bytes in
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
            written.withLock { $0 = n }
        }
        let n = written.withLock { $0 }
        #expect(n < run.sent.count, "one write(2) took \(n) of \(run.sent.count) bytes")
        #expect(run.received.count == max(n, 0))
    }

    @Test func writeAllDeliversEveryByteDespiteSignalsAndShortWrites() throws {
        let failure = Mutex<String?>(nil)
        let before = caughtSignals.load(ordering: .relaxed)
        let run = try Self.pipeRun { fd, bytes in
            do {
                try bytes.withUnsafeBytes { try SystemCall.write(all: $0, to: fd, path: "the pipe") }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        #expect(failure.withLock { $0 } == nil)
        #expect(caughtSignals.load(ordering: .relaxed) > before)
        #expect(run.received.count == run.sent.count)
        let same = run.received == run.sent // not inside #expect, which would print 256 KiB
        #expect(same, "the bytes arrive as sent")
    }
}
