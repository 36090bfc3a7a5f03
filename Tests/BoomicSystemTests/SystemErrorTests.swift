import BoomicSystem
import Foundation
import Glibc
import Testing

/// Failures carry the operation, the paths and errno, and read as one line.
@Suite struct SystemErrorTests {
    @Test func aRenameIntoAMissingFolderSaysWhatAndWhy() throws {
        try withTemporaryDirectory { dir in
            let source = dir + "/a.tmp"
            try FileDescriptor(path: source, flags: O_WRONLY | O_CREAT).close()
            let error = try #require(throws: SystemError.self) {
                try SystemCall.rename(source, to: dir + "/missing/a")
            }
            #expect(error == SystemError(.rename, path: source, destination: dir + "/missing/a", errno: ENOENT))
            #expect(error.isNotFound && !error.isPermission && !error.isNoSpace)
            #expect(error.localizedDescription == "cannot rename \(source) to \(dir)/missing/a: No such file or directory")
            #expect(FileManager.default.fileExists(atPath: source), "left where it was")
        }
    }

    @Test func aLinkNeverReplacesAnExistingName() throws {
        try withTemporaryDirectory { dir in
            for name in ["a", "b"] { try FileDescriptor(path: "\(dir)/\(name)", flags: O_WRONLY | O_CREAT).close() }
            let error = try #require(throws: SystemError.self) { try SystemCall.link(dir + "/a", to: dir + "/b") }
            #expect(error.isExisting && error.operation == .link && error.destination == dir + "/b")
            try SystemCall.link(dir + "/a", to: dir + "/c")
            #expect(try SystemCall.status(of: dir + "/c").st_nlink == 2)
            try SystemCall.unlink(dir + "/c")
            #expect(throws: SystemError(.unlink, path: dir + "/c", errno: ENOENT)) { try SystemCall.unlink(dir + "/c") }
        }
    }

    @Test func aFullDeviceIsNoSpace() throws {
        let full = try FileDescriptor(path: "/dev/full", flags: O_WRONLY)
        let error = try #require(throws: SystemError.self) { try full.write(Array("x".utf8)) }
        #expect(error.isNoSpace && error.operation == .write && error.path == "/dev/full")
        #expect(error.localizedDescription == "cannot write /dev/full: No space left on device")
    }

    @Test func openingAMissingFileIsNotFound() {
        #expect(throws: SystemError(.open, path: "/nonexistent/boomic", errno: ENOENT)) {
            try FileDescriptor(path: "/nonexistent/boomic", flags: O_RDONLY)
        }
    }
}

/// What a `FileDescriptor` promises besides the error handling.
@Suite struct FileDescriptorTests {
    @Test func everyDescriptorIsClosedOnExec() throws {
        let file = try FileDescriptor(path: "/dev/null", flags: O_RDONLY)
        #expect(fcntl(file.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func aLockHeldElsewhereIsAnAnswerNotAnError() throws {
        try withTemporaryDirectory { dir in
            let first = try FileDescriptor(path: dir + "/lock", flags: O_RDWR | O_CREAT)
            let second = try FileDescriptor(path: dir + "/lock", flags: O_RDWR | O_CREAT)
            #expect(try first.tryLock())
            #expect(try second.tryLock() == false)
            #expect(try second.tryLock(.shared) == false)
            try first.close() // closing releases the lock
            #expect(try second.tryLock())
        }
    }

    @Test func writtenBytesReadBackWholeAndALimitIsKept() throws {
        try withTemporaryDirectory { dir in
            let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            let out = try FileDescriptor(path: dir + "/f", flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
            try out.write(bytes)
            try out.sync()
            try out.close()
            try out.close() // once only: the second does nothing
            #expect(out.rawValue == -1)
            try SystemCall.syncDirectory(dir)
            #expect(try SystemCall.status(of: dir + "/f").st_mode & 0o777 == 0o600)
            #expect(try FileDescriptor(path: dir + "/f", flags: O_RDONLY).readAll() == bytes)
            let error = try #require(throws: SystemError.self) {
                try FileDescriptor(path: dir + "/f", flags: O_RDONLY).readAll(limit: 99_999)
            }
            #expect(error.isFileTooLarge)
            #expect(try FileDescriptor(path: "/dev/null", flags: O_RDONLY).readAll().isEmpty)
        }
    }

    @Test func aClosedDescriptorFailsWithBadFileDescriptor() throws {
        let file = try FileDescriptor(path: "/dev/null", flags: O_RDONLY)
        try file.close()
        #expect(throws: SystemError(.stat, path: "/dev/null", errno: EBADF)) { try file.status() }
    }
}
