import Foundation

/// What tests' waits look at in what a child process does: how far a `wav:` file has grown,
/// whether anything came through a pipe, and whether the process waits in a write to a pipe.
enum Watch {
    /// The size of the file at `path` in bytes, 0 while it does not exist.
    static func size(of path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Whether the `wav:` file at `path` holds at least `seconds` of CD-rate 16-bit stereo (its
    /// 44-byte header left out): how far a player has played.
    static func wav(_ path: String, holds seconds: Double, bytesPerFrame: Int = 4) -> Bool {
        size(of: path) >= 44 + Int(seconds * 44_100) * bytesPerFrame
    }

    /// Whether a thread of process `pid` waits in a write to a full pipe (its kernel wait
    /// channel, `anon_pipe_write` or `pipe_write` by the kernel's version): an output on a pipe
    /// nobody reads has come to it. How full the pipe is says less: writes need room for
    /// themselves, so a pipe a writer waits on is seldom full to the byte.
    static func waitsInPipeWrite(_ pid: Int32) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.contains { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) ?? "").hasSuffix("pipe_write")
        }
    }

    /// Whether anything has been written to the pipe that `reader` reads.
    static func pipeHasData(_ reader: Int32) -> Bool {
        var held: Int32 = 0
        return ioctl(reader, UInt(FIONREAD), &held) == 0 && held > 0
    }
}
