import BoomicSystem
import Foundation
import Glibc
import Testing

/// `MappedFile`: a regular, non-empty file mapped read-only, which a rename over its name leaves
/// intact; `AtomicFile.writeUnique` is how Boomic replaces such a file.
@Suite struct MappedFileTests {
    @Test func aRegularFileIsMappedWhole() throws {
        try withTemporaryDirectory { dir in
            let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            try Data(bytes).write(to: URL(fileURLWithPath: dir + "/library.image"))
            let file = try MappedFile(path: dir + "/library.image")
            #expect(file.count == bytes.count)
            #expect(Array(file.bytes) == bytes)
            #expect(Int(bitPattern: file.bytes.baseAddress) % 8 == 0)
        }
    }

    @Test func anEmptyFileAFIFOAFolderAndAMissingFileAreRefused() throws {
        try withTemporaryDirectory { dir in
            try Data().write(to: URL(fileURLWithPath: dir + "/empty"))
            let empty = try #require(throws: SystemError.self) { try MappedFile(path: dir + "/empty") }
            #expect(empty.refusal == .empty && empty.operation == .map)
            #expect(empty.description == "cannot map \(dir)/empty into memory: it is empty")
            try #require(mkfifo(dir + "/fifo", 0o600) == 0)
            let fifo = try #require(throws: SystemError.self) { try MappedFile(path: dir + "/fifo") }
            #expect(fifo.refusal == .notRegularFile)
            let folder = try #require(throws: SystemError.self) { try MappedFile(path: dir) }
            #expect(folder.refusal == .notRegularFile)
            let missing = try #require(throws: SystemError.self) { try MappedFile(path: dir + "/none") }
            #expect(missing.isNotFound)
        }
    }

    /// The mapping shows the inode it was opened on: a file renamed over the name (the only way
    /// Boomic replaces a mapped file) changes nothing for it.
    @Test func aFileReplacedByRenameLeavesTheMappingIntact() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.image"
            let old = [UInt8](repeating: 0xAB, count: 8192)
            try AtomicFile.writeUnique(old, to: path)
            let mapped = try MappedFile(path: path)
            try AtomicFile.writeUnique([UInt8](repeating: 0x11, count: 100), to: path)
            #expect(try MappedFile(path: path).count == 100)
            #expect(Array(mapped.bytes) == old)
            try FileManager.default.removeItem(atPath: path)
            #expect(Array(mapped.bytes) == old)
        }
    }

    @Test func writeUniqueLeavesNoTemporaryFileAndRemoveLeftoversOnlyTakesTheDeads() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.image"
            try AtomicFile.writeUnique([1, 2, 3], to: path, mode: 0o640)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["library.image"])
            #expect(try SystemCall.status(of: path).st_mode & 0o777 == 0o640)
            let dead = path + ".tmp-2147483646-3", live = path + ".tmp-\(getpid())-3", other = path + ".tmpx"
            for p in [dead, live, other] { try Data([9]).write(to: URL(fileURLWithPath: p)) }
            #expect(AtomicFile.removeLeftovers(of: path) == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
                    == ["library.image", "library.image.tmp-\(getpid())-3", "library.image.tmpx"])
        }
    }
}
