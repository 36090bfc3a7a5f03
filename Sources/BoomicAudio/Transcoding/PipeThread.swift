import Foundation
import Glibc

/// A thread of its own for work that blocks on a child's pipes (decoding into an encoder,
/// writing an image), so that it holds no thread of Swift's cooperative pool while it waits.
///
/// SIGPIPE is blocked on it: a write into a pipe whose reader ended fails with EPIPE here
/// instead of killing the whole process (a test runner, or a program that does not ignore
/// SIGPIPE as `boomic` does). A SIGPIPE raised by a write is directed at the writing thread,
/// stays pending while blocked, and is discarded when the thread ends.
enum PipeThread {
    static func run(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            body()
        }
        thread.start()
    }

    /// Writes all of `bytes` to `fd`, waiting for room; false when the reader has gone (EPIPE)
    /// or the write fails otherwise.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }
}
