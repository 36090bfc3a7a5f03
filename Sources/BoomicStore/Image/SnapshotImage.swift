import BoomicCore
import Synchronization

/// A snapshot image read where it lies (storage.md, "The image"): opening checks the header and
/// the directory; each segment of a block is checked against its checksum the first time it is
/// read (`ImageBlock`) or, unless this process checks on touch (`ImageChecks`), every block at
/// once at the open (`damagedBlocks`, which `verify` runs too). Damaged, truncated or foreign
/// bytes are refused with one line (`StoreError.badEncoding`), never read past their end, never a
/// trap.
public final class SnapshotImage: Sendable {
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var kind: ImageBlockKind
        /// Where the block's bytes start in the image, and how many there are (without padding).
        public var offset: Int
        public var length: Int
        /// Its first segment's index in `checksums`; it has `ImageLayout.segments(length, shift:)`.
        var firstSegment: Int
    }

    public let bytes: ImageBytes
    /// The codec format and the seq the image is the state after, as its header says.
    public let format: UInt64
    public let seq: UInt64
    public let entries: [Entry]
    /// Bytes a segment covers, as a shift: by the container version.
    let segmentShift: Int
    private let byName: [String: Int]
    /// Every segment's checksum, block after block.
    private let checksums: [UInt64]
    /// Which segments have been found good, and which damaged ones were reported (to a handler
    /// that returned): those are not reported again, and still fail `block` and `damagedBlocks`.
    let marks: SegmentMarks
    private let reported: SegmentMarks
    /// Per block, set once all its segments are good. Made on first use: the marks point back at
    /// this image.
    private let wholeMarks: Mutex<[WholeBlockMark?]>
    /// What a damaged segment met after the open does; nil when every block is to be checked at
    /// the open (`checksOnTouch` is false).
    private let onDamage: ImageChecks.DamageHandler?

    /// Whether reads check segments as they go, so the open need not check every block: only a
    /// mapped file in a process that said what to do with late damage. Bytes read into memory
    /// were just copied whole, and a damaged copy is better skipped at the open, where the
    /// checkpoint before it is tried.
    public var checksOnTouch: Bool { onDamage != nil }

    /// The image in `bytes`, checked on touch when they are a mapped file and this process said
    /// what to do with damage found late (`ImageChecks`).
    public convenience init(_ bytes: ImageBytes) throws {
        try self.init(bytes, onDamage: bytes.mapping == nil ? nil : ImageChecks.onDamage)
    }

    /// The image in `bytes`, checked on touch when `onDamage` is given.
    public init(_ bytes: ImageBytes, onDamage: ImageChecks.DamageHandler?) throws {
        self.bytes = bytes
        let b = bytes.buffer
        let h = ImageLayout.headerSize
        guard b.count >= h else { throw StoreError.image("is truncated: \(b.count) bytes, shorter than its header") }
        guard b.prefix(8).elementsEqual(ImageLayout.magic) else { throw StoreError.image("is not one (no BOOMIMG header)") }
        guard Self.u64(b, 64) == XXH64.hash(UnsafeRawBufferPointer(rebasing: b[0..<64])) else {
            throw StoreError.image("header does not match its checksum")
        }
        guard let shift = ImageLayout.segmentShift(ofVersion: Self.u32(b, 8)) else {
            throw StoreError.image("is of container version \(Self.u32(b, 8))")
        }
        segmentShift = shift
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
        var checksums: [UInt64] = []
        var at = 0, next = h
        for _ in 0..<count {
            guard at + ImageLayout.entryFixedSize <= dir.count else { throw StoreError.image("directory is cut short") }
            let rawKind = Self.u32(dir, at), nameLength = Int(Self.u32(dir, at + 4))
            let offset = Self.u64(dir, at + 8), length = Self.u64(dir, at + 16)
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
            let segments = ImageLayout.segments(Int(length), shift: shift)
            guard segments <= (dir.count - at) / 8 else { throw StoreError.image("directory is cut short at block \(name)") }
            entries.append(Entry(name: name, kind: kind, offset: Int(offset), length: Int(length), firstSegment: checksums.count))
            for k in 0..<segments { checksums.append(Self.u64(dir, at + 8 * k)) }
            at += 8 * segments
            next = Int(offset) + ImageLayout.padded(Int(length))
        }
        guard next == Int(dirOffset), at == dir.count else { throw StoreError.image("directory does not account for every byte") }
        var byName: [String: Int] = [:]
        for (i, e) in entries.enumerated() where byName.updateValue(i, forKey: e.name) != nil {
            throw StoreError.image("has two blocks named \"\(e.name)\"")
        }
        self.entries = entries
        self.byName = byName
        self.checksums = checksums
        marks = SegmentMarks(count: checksums.count)
        reported = SegmentMarks(count: checksums.count)
        wholeMarks = Mutex([WholeBlockMark?](repeating: nil, count: entries.count))
        self.onDamage = onDamage
    }

    /// The block's bytes, read unchecked: its reader checks each range before reading it
    /// (`ImageBlock.check`).
    public func lazyBlock(_ name: String) throws -> ImageBlock {
        guard let i = byName[name] else { throw StoreError.image("has no block \(name)") }
        let e = entries[i]
        return ImageBlock(bytes: UnsafeRawBufferPointer(rebasing: bytes.buffer[e.offset..<(e.offset + e.length)]),
                          offset: e.offset, firstSegment: e.firstSegment, segmentShift: segmentShift, whole: wholeMark(i))
    }

    /// A column read lazily: each value's segment is checked when the value is read.
    public func lazyColumn(_ name: String) throws -> ImageColumn {
        guard let i = byName[name], entries[i].kind == .column else { throw StoreError.image("has no block \(name) of kind column") }
        return try ImageColumn(lazyBlock(name))
    }

    /// Checks one segment; marks it good, or calls the damage handler.
    func checkSegment(_ s: Int, of block: ImageBlock) {
        let start = (s - block.firstSegment) << segmentShift
        let from = block.offset + start
        let to = min(from + 1 << segmentShift, block.offset + ImageLayout.padded(block.bytes.count))
        let extent = UnsafeRawBufferPointer(rebasing: bytes.buffer[from..<to])
        if reported.isSet(s) { return }
        if XXH64.hash(extent) == checksums[s] {
            if marks.set(s) { block.whole.segmentGood() }
            return
        }
        let reason = "block \(block.name) does not match its checksum (bytes \(start)–\(start + extent.count - 1))"
        guard let onDamage else {
            // Without a handler every block was checked at the open, and bytes never change under
            // a reader: a segment found damaged here was read without being checked first.
            preconditionFailure("snapshot image: \(reason), in a block not checked at the open")
        }
        reported.set(s)
        onDamage("library image " + reason, bytes.mapping?.path)
    }

    /// The block's bytes, every segment checked against its checksum (and the block, by kind,
    /// against its own structure) at the first call.
    public func block(_ name: String) throws -> UnsafeRawBufferPointer {
        guard let i = byName[name] else { throw StoreError.image("has no block \(name)") }
        let e = entries[i]
        try check(i)
        return UnsafeRawBufferPointer(rebasing: bytes.buffer[e.offset..<(e.offset + e.length)])
    }

    public func strings(_ name: String) throws -> ImageStrings { try ImageStrings(block(name, .strings), name: name) }
    public func column(_ name: String) throws -> ImageColumn {
        _ = try block(name, .column)
        return try ImageColumn(lazyBlock(name))
    }
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
        entries.indices.compactMap { i in
            do { try check(i); return nil } catch { return (entries[i].name, Self.reason(error)) }
        }
    }

    /// What is wrong, in the words of the refusal (without `StoreError`'s advice around them).
    static func reason(_ error: any Error) -> String {
        if case let .badEncoding(reason)? = error as? StoreError { return reason }
        return "\(error)"
    }

    /// Checks every segment of the block not yet found good, then its structure, throwing at
    /// the first damage.
    private func check(_ i: Int) throws {
        let e = entries[i]
        let count = ImageLayout.segments(e.length, shift: segmentShift)
        let extent = UnsafeRawBufferPointer(rebasing: bytes.buffer[e.offset..<(e.offset + ImageLayout.padded(e.length))])
        for k in 0..<count where !marks.isSet(e.firstSegment + k) {
            let start = k << segmentShift
            let segment = UnsafeRawBufferPointer(rebasing: extent[start..<min(start + 1 << segmentShift, extent.count)])
            guard XXH64.hash(segment) == checksums[e.firstSegment + k] else {
                throw StoreError.image("block \(e.name) does not match its checksum")
            }
        }
        let data = UnsafeRawBufferPointer(rebasing: bytes.buffer[e.offset..<(e.offset + e.length)])
        switch e.kind {
        case .raw: break
        case .strings: _ = try ImageStrings(checking: data, name: e.name)
        case .column: try ImageColumn.validate(data, name: e.name)
        case .postings: _ = try ImagePostings(checking: data, name: e.name)
        }
        for k in 0..<count { marks.set(e.firstSegment + k) }
        wholeMark(i).set()
    }

    private func wholeMark(_ i: Int) -> WholeBlockMark {
        wholeMarks.withLock { marks in
            if let m = marks[i] { return m }
            let m = WholeBlockMark(name: entries[i].name, image: self, segments: ImageLayout.segments(entries[i].length, shift: segmentShift))
            marks[i] = m
            return m
        }
    }

    static func u32(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }

    static func u64(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }
}
