import BoomicCore

/// Builds a snapshot image from named blocks (the container of storage.md, "The image"); the
/// codec decides which blocks there are. Pure: bytes in, bytes out.
public struct ImageWriter {
    private var blocks: [(name: String, kind: ImageBlockKind, bytes: [UInt8])] = []
    private var names: Set<String> = []

    public init() {}

    /// Adds a block of bytes only the codec reads.
    public mutating func raw(_ name: String, _ bytes: [UInt8]) throws {
        try add(name, .raw, bytes)
    }

    /// Adds a string table: `strings` must be strictly increasing by their UTF-8 bytes (so a
    /// string's code is its rank and an exact match is a binary search).
    public mutating func strings(_ name: String, _ strings: [String]) throws {
        var out: [UInt8] = []
        var offsets: [UInt32] = [0]
        var text: [UInt8] = []
        var previous: [UInt8]?
        for s in strings {
            let utf8 = Array(s.utf8)
            if let p = previous, !p.lexicographicallyPrecedes(utf8) {
                throw StoreError.image("block \(name): strings out of order or repeated at \"\(s)\"")
            }
            previous = utf8
            text += utf8
            guard let end = UInt32(exactly: text.count) else { throw StoreError.image("block \(name): strings past 4 GiB") }
            offsets.append(end)
        }
        Self.put(UInt32(strings.count), &out)
        Self.put(UInt32(0), &out)
        for o in offsets { Self.put(o, &out) }
        out += text
        try add(name, .strings, out)
    }

    /// Adds a column of fixed-width values: each of `values` must fit in `width` bytes (1, 2, 4
    /// or 8).
    public mutating func column(_ name: String, width: Int, _ values: [UInt64]) throws {
        guard [1, 2, 4, 8].contains(width) else { throw StoreError.image("block \(name): width \(width)") }
        let limit: UInt64 = width == 8 ? .max : (1 << UInt64(width * 8)) - 1
        var out: [UInt8] = []
        out.reserveCapacity(16 + values.count * width)
        Self.put(UInt32(width), &out)
        Self.put(UInt32(0), &out)
        Self.put(UInt64(values.count), &out)
        for v in values {
            guard v <= limit else { throw StoreError.image("block \(name): \(v) does not fit \(width) bytes") }
            withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0.prefix(width)) }
        }
        try add(name, .column, out)
    }

    /// Adds postings: `keys` strictly increasing, each with its rows, strictly increasing.
    public mutating func postings(_ name: String, _ entries: [(key: UInt32, rows: [UInt32])]) throws {
        var out: [UInt8] = []
        Self.put(UInt32(entries.count), &out)
        Self.put(UInt32(0), &out)
        var previous: UInt32?
        for e in entries {
            if let p = previous, p >= e.key { throw StoreError.image("block \(name): key \(e.key) out of order") }
            previous = e.key
            Self.put(e.key, &out)
        }
        var total: UInt32 = 0
        Self.put(total, &out)
        for e in entries {
            for (a, b) in zip(e.rows, e.rows.dropFirst()) where a >= b {
                throw StoreError.image("block \(name): rows of key \(e.key) out of order")
            }
            guard let t = UInt32(exactly: Int(total) + e.rows.count) else { throw StoreError.image("block \(name): too many rows") }
            total = t
            Self.put(total, &out)
        }
        for e in entries { for r in e.rows { Self.put(r, &out) } }
        try add(name, .postings, out)
    }

    /// The image: header, blocks, directory.
    public func bytes(format: UInt64, seq: UInt64) -> [UInt8] {
        bytes(format: format, seq: seq, version: ImageLayout.version)
    }

    /// The image in a container version this build writes or still reads (tests of old images).
    func bytes(format: UInt64, seq: UInt64, version: UInt32) -> [UInt8] {
        let segmentSize = 1 << ImageLayout.segmentShift(ofVersion: version)!
        var body: [UInt8] = []
        var directory: [UInt8] = []
        for b in blocks {
            let offset = ImageLayout.headerSize + body.count
            body += b.bytes
            body += [UInt8](repeating: 0, count: ImageLayout.padded(b.bytes.count) - b.bytes.count)
            let name = Array(b.name.utf8)
            Self.put(b.kind.rawValue, &directory)
            Self.put(UInt32(name.count), &directory)
            Self.put(UInt64(offset), &directory)
            Self.put(UInt64(b.bytes.count), &directory)
            directory += name + [UInt8](repeating: 0, count: ImageLayout.padded(name.count) - name.count)
            body.withUnsafeBytes { all in
                let extent = UnsafeRawBufferPointer(rebasing: all[(offset - ImageLayout.headerSize)...])
                for start in stride(from: 0, to: extent.count, by: segmentSize) {
                    let end = min(start + segmentSize, extent.count)
                    Self.put(XXH64.hash(UnsafeRawBufferPointer(rebasing: extent[start..<end])), &directory)
                }
            }
        }
        let directoryOffset = ImageLayout.headerSize + body.count
        var header: [UInt8] = ImageLayout.magic
        Self.put(version, &header)
        Self.put(UInt32(blocks.count), &header)
        Self.put(format, &header)
        Self.put(seq, &header)
        Self.put(UInt64(directoryOffset + directory.count), &header)
        Self.put(UInt64(directoryOffset), &header)
        Self.put(UInt64(directory.count), &header)
        Self.put(directory.withUnsafeBytes { XXH64.hash($0) }, &header)
        Self.put(header.withUnsafeBytes { XXH64.hash($0) }, &header)
        return header + body + directory
    }

    private mutating func add(_ name: String, _ kind: ImageBlockKind, _ bytes: [UInt8]) throws {
        guard !name.isEmpty, names.insert(name).inserted else { throw StoreError.image("has two blocks named \"\(name)\"") }
        blocks.append((name, kind, bytes))
    }

    static func put<I: FixedWidthInteger>(_ v: I, _ out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }
}
