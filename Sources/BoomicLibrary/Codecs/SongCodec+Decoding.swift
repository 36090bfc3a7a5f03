import BoomicCore
import BoomicStore
import Dispatch
import Foundation
import Synchronization

extension SongCodec {
    /// The songs in `bytes`, which must hold exactly what `encode` wrote.
    public static func decode(_ bytes: [UInt8]) throws -> [Song] {
        try bytes.withUnsafeBytes { try decode($0) }
    }

    /// The songs in `buffer`, read in place (a checkpoint straight out of SQLite).
    public static func decode(_ buffer: UnsafeRawBufferPointer) throws -> [Song] {
        var reader = ByteReader(buffer)
        let songs = try decode(from: &reader)
        guard reader.isAtEnd else {
            throw StoreError.badEncoding("\(reader.remaining) bytes follow the last song")
        }
        return songs
    }

    /// Reads songs written by `encode(_:into:)` and leaves `reader` after them.
    ///
    /// The chunks are decoded on all cores at once, each straight into its place in the result.
    public static func decode(from r: inout ByteReader) throws -> [Song] {
        let v = try r.byte()
        guard v == version else {
            throw StoreError.badEncoding("song data of version \(v), but this boomic reads version \(version)")
        }
        // Every song takes at least 18 bytes, every chunk header two.
        let total = try r.count(atMost: r.remaining / 18)
        let chunkCount = try r.count(atMost: r.remaining / 2)
        var chunks: [Chunk] = []
        chunks.reserveCapacity(chunkCount)
        var first = 0, bytes = 0
        for _ in 0..<chunkCount {
            let n = try r.count(atMost: total - first)
            let length = try r.count(atMost: r.remaining)
            chunks.append(Chunk(first: first, count: n, offset: bytes, length: length))
            first += n
            bytes += length
        }
        guard first == total else {
            throw StoreError.badEncoding("the chunks hold \(first) songs, the header says \(total)")
        }
        let body = try r.bytes(bytes) // throws when the chunks claim more bytes than there are
        return try decode(chunks, total: total, in: body)
    }

    /// Where one chunk's songs go in the result, and where its bytes are in the body.
    struct Chunk: Sendable {
        var first: Int
        var count: Int
        var offset: Int
        var length: Int
    }

    private static func decode(_ chunks: [Chunk], total: Int, in body: UnsafeRawBufferPointer) throws -> [Song] {
        try [Song](unsafeUninitializedCapacity: total) { buffer, initialized in
            let target = Target(input: body, output: buffer)
            let failures = Mutex<[Int: StoreError]>([:])
            // One chunk (a small library) runs on this thread, without touching the thread pool.
            @Sendable func work(_ i: Int) {
                do {
                    try decodeChunk(chunks[i], target)
                } catch {
                    let e = error as? StoreError ?? .badEncoding(String(describing: error))
                    failures.withLock { $0[i] = e }
                }
            }
            if chunks.count == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: chunks.count, execute: work) }
            let failed = failures.withLock { $0 }
            if let firstFailed = failed.keys.min() {
                // Each chunk that failed has already destroyed what it made; destroy the others'.
                for (i, c) in chunks.enumerated() where failed[i] == nil && c.count > 0 {
                    (buffer.baseAddress! + c.first).deinitialize(count: c.count)
                }
                initialized = 0
                throw failed[firstFailed]!
            }
            initialized = total
        }
    }

    /// The input bytes and the result's storage, shared by the threads that decode chunks.
    ///
    /// `@unchecked Sendable` because it is only two pointers used within `decode(_:total:in:)`:
    /// the input is only read, and each chunk initializes its own range of the output (the ranges
    /// are disjoint: `decode(from:)` lays them end to end and checks they sum to the total), and
    /// `concurrentPerform` returns only after every chunk is done, before the output is read.
    private struct Target: @unchecked Sendable {
        let input: UnsafeRawBufferPointer
        let output: UnsafeMutableBufferPointer<Song>
    }

    /// Decodes one chunk into `target.output[first..<first + count]`. On error it leaves that
    /// range uninitialized (it destroys the songs it made) and throws.
    private static func decodeChunk(_ chunk: Chunk, _ target: Target) throws {
        let bytes = UnsafeRawBufferPointer(rebasing: target.input[chunk.offset..<(chunk.offset + chunk.length)])
        var r = ByteReader(bytes)
        // Every table entry takes at least its length byte, every song at least 18 bytes.
        let tableCount = try r.count(atMost: r.remaining)
        var table: [String] = []
        table.reserveCapacity(tableCount)
        for _ in 0..<tableCount { table.append(try r.string()) }
        let listCount = try r.count(atMost: r.remaining)
        var lists: [[String]] = []
        lists.reserveCapacity(listCount)
        for _ in 0..<listCount {
            let n = try r.count(atMost: r.remaining)
            var list: [String] = []
            list.reserveCapacity(n)
            for _ in 0..<n { list.append(try shared(&r, table)) }
            lists.append(list)
        }
        // An empty result may have no storage at all; then no chunk has songs to put in it.
        let out = target.output.baseAddress.map { $0 + chunk.first }
        var made = 0
        do {
            while made < chunk.count, let out {
                (out + made).initialize(to: try decodeSong(&r, table, lists))
                made += 1
            }
            guard made == chunk.count else { throw StoreError.badEncoding("a chunk has songs but the result has no room") }
            guard r.isAtEnd else {
                throw StoreError.badEncoding("\(r.remaining) bytes follow the last song of a chunk")
            }
        } catch {
            out?.deinitialize(count: made)
            throw error
        }
    }

    @inline(__always)
    private static func shared<E>(_ r: inout ByteReader, _ table: [E]) throws -> E {
        let at = r.offset
        let i = try r.varint()
        guard i < UInt64(table.count) else {
            throw StoreError.badEncoding("a reference at byte \(at) is past the table's \(table.count) entries")
        }
        return table[Int(i)]
    }

    private static func decodeSong(_ r: inout ByteReader, _ table: [String], _ lists: [[String]]) throws -> Song {
        let id = try r.uuid()
        let at = r.offset
        let bits = try r.varint()
        guard bits & ~known.first == 0 else {
            throw StoreError.badEncoding("a song at byte \(at) has fields this boomic does not know")
        }
        let more = try r.varint()
        guard more & ~known.second == 0 else {
            throw StoreError.badEncoding("a song at byte \(at) has fields this boomic does not know")
        }
        var s = Song(id: SongID(id), path: try r.string())
        // Only the set bits, lowest first: the order `encode` wrote their values in.
        func read(_ map: UInt64, from offset: Int) throws {
            var left = map
            while left != 0 {
                let slot = slotsByBit[offset + left.trailingZeroBitCount]!
                left &= left - 1
                switch slot.access {
                case .text(_, let set): set(&s, slot.form == .sharedText ? try shared(&r, table) : try r.string())
                case .number(_, let set, _): set(&s, try r.int())
                case .decimal(_, let set, _): set(&s, try r.double())
                case .flag(_, let set): set(&s, true)
                case .list(_, let set):
                    set(&s, slot.form == .sharedList
                        ? try shared(&r, lists) : try (0..<r.count(atMost: r.remaining)).map { _ in try r.string() })
                }
            }
        }
        try read(bits, from: 0)
        try read(more, from: 64)
        return s
    }
}
