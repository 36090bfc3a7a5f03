import BoomicCore
import Synchronization

/// A snapshot image read where it lies (storage.md, "The image"): opening checks the header and
/// the directory, each block is checked against its checksum the first time it is touched, and
/// `damagedBlocks()` checks them all (`verify`). Damaged, truncated or foreign bytes are refused
/// with one line (`StoreError.badEncoding`), never read past their end, never a trap.
public final class SnapshotImage: Sendable {
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var kind: ImageBlockKind
        /// Where the block's bytes start in the image, and how many there are (without padding).
        public var offset: Int
        public var length: Int
        var checksum: UInt64
    }

    public let bytes: ImageBytes
    /// The codec format and the seq the image is the state after, as its header says.
    public let format: UInt64
    public let seq: UInt64
    public let entries: [Entry]
    private let byName: [String: Int]
    /// Which blocks have been checked; each is checked once per process.
    private let checked: Mutex<[Bool]>

    public init(_ bytes: ImageBytes) throws {
        self.bytes = bytes
        let b = bytes.buffer
        let h = ImageLayout.headerSize
        guard b.count >= h else { throw StoreError.image("is truncated: \(b.count) bytes, shorter than its header") }
        guard b.prefix(8).elementsEqual(ImageLayout.magic) else { throw StoreError.image("is not one (no BOOMIMG header)") }
        guard Self.u64(b, 64) == XXH64.hash(UnsafeRawBufferPointer(rebasing: b[0..<64])) else {
            throw StoreError.image("header does not match its checksum")
        }
        guard Self.u32(b, 8) == ImageLayout.version else { throw StoreError.image("is of container version \(Self.u32(b, 8))") }
        let count = Int(Self.u32(b, 12))
        format = Self.u64(b, 16)
        seq = Self.u64(b, 24)
        let total = Self.u64(b, 32), dirOffset = Self.u64(b, 40), dirLength = Self.u64(b, 48)
        guard total == UInt64(b.count) else {
            throw StoreError.image(total > UInt64(b.count) ? "is truncated: \(b.count) of \(total) bytes"
                                                           : "has \(UInt64(b.count) - total) bytes past its end")
        }
        guard dirOffset >= UInt64(h), dirOffset % 8 == 0, dirOffset <= total, dirLength == total - dirOffset else {
            throw StoreError.image("directory lies outside it")
        }
        let dir = UnsafeRawBufferPointer(rebasing: b[Int(dirOffset)...])
        guard Self.u64(b, 56) == XXH64.hash(dir) else { throw StoreError.image("directory does not match its checksum") }
        var entries: [Entry] = []
        var at = 0, next = h
        for _ in 0..<count {
            guard at + ImageLayout.entryFixedSize <= dir.count else { throw StoreError.image("directory is cut short") }
            let rawKind = Self.u32(dir, at), nameLength = Int(Self.u32(dir, at + 4))
            let offset = Self.u64(dir, at + 8), length = Self.u64(dir, at + 16), checksum = Self.u64(dir, at + 24)
            at += ImageLayout.entryFixedSize
            guard nameLength <= dir.count - at, let kind = ImageBlockKind(rawValue: rawKind),
                  let name = String(validating: dir[at..<(at + nameLength)], as: UTF8.self) else {
                throw StoreError.image("directory entry \(entries.count) is malformed")
            }
            at += ImageLayout.padded(nameLength)
            // Blocks lie end to end from the header to the directory: no byte outside a checksum.
            guard offset == UInt64(next), length <= dirOffset - offset,
                  UInt64(ImageLayout.padded(Int(length))) <= dirOffset - offset else {
                throw StoreError.image("block \(name) lies outside it")
            }
            next = Int(offset) + ImageLayout.padded(Int(length))
            entries.append(Entry(name: name, kind: kind, offset: Int(offset), length: Int(length), checksum: checksum))
        }
        guard next == Int(dirOffset), at == dir.count else { throw StoreError.image("directory does not account for every byte") }
        var byName: [String: Int] = [:]
        for (i, e) in entries.enumerated() where byName.updateValue(i, forKey: e.name) != nil {
            throw StoreError.image("has two blocks named \"\(e.name)\"")
        }
        self.entries = entries
        self.byName = byName
        checked = Mutex([Bool](repeating: false, count: entries.count))
    }

    /// The block's bytes, checked against its checksum (and, by kind, its own structure) on the
    /// first touch.
    public func block(_ name: String) throws -> UnsafeRawBufferPointer {
        guard let i = byName[name] else { throw StoreError.image("has no block \(name)") }
        let e = entries[i]
        if !checked.withLock({ $0[i] }) {
            try check(e)
            checked.withLock { $0[i] = true }
        }
        return UnsafeRawBufferPointer(rebasing: bytes.buffer[e.offset..<(e.offset + e.length)])
    }

    public func strings(_ name: String) throws -> ImageStrings { try ImageStrings(block(name, .strings), name: name) }
    public func column(_ name: String) throws -> ImageColumn { try ImageColumn(block(name, .column), name: name) }
    public func postings(_ name: String) throws -> ImagePostings { try ImagePostings(block(name, .postings), name: name) }

    /// The block, which must be of `kind`: its structure was checked as that kind.
    private func block(_ name: String, _ kind: ImageBlockKind) throws -> UnsafeRawBufferPointer {
        guard let i = byName[name], entries[i].kind == kind else {
            throw StoreError.image("has no block \(name) of kind \(kind)")
        }
        return try block(name)
    }

    /// Every block checked, as `verify` does: the names of those that fail, with why.
    public func damagedBlocks() -> [(name: String, reason: String)] {
        entries.compactMap { e in
            do { try check(e); return nil } catch { return (e.name, Self.reason(error)) }
        }
    }

    /// What is wrong, in the words of the refusal (without `StoreError`'s advice around them).
    static func reason(_ error: any Error) -> String {
        if case let .badEncoding(reason)? = error as? StoreError { return reason }
        return "\(error)"
    }

    private func check(_ e: Entry) throws {
        let extent = UnsafeRawBufferPointer(rebasing: bytes.buffer[e.offset..<(e.offset + ImageLayout.padded(e.length))])
        guard XXH64.hash(extent) == e.checksum else { throw StoreError.image("block \(e.name) does not match its checksum") }
        let data = UnsafeRawBufferPointer(rebasing: bytes.buffer[e.offset..<(e.offset + e.length)])
        switch e.kind {
        case .raw: break
        case .strings: _ = try ImageStrings(checking: data, name: e.name)
        case .column: _ = try ImageColumn(checking: data, name: e.name)
        case .postings: _ = try ImagePostings(checking: data, name: e.name)
        }
    }

    static func u32(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }

    static func u64(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }
}
