import BoomicCore
import BoomicTestSupport
import Foundation
import Synchronization
import Testing
@testable import BoomicStore

/// The snapshot image's container, a pure codec over bytes: what is written reads back; any
/// flipped byte is caught, by the open (header, directory) or by the first touch of the block it
/// lies in, and no other block minds; any truncation is refused with one line; random bytes
/// never trap.
@Suite struct SnapshotImageTests {
    /// What a random image holds, to compare with what reads back.
    struct Model {
        var strings: [String: [String]] = [:]
        var columns: [String: (width: Int, values: [UInt64])] = [:]
        var postings: [String: [(key: UInt32, rows: [UInt32])]] = [:]
        var raw: [String: [UInt8]] = [:]
    }

    static func random(_ rng: inout SplitMix64, version: UInt32 = ImageLayout.version) throws -> (Model, [UInt8]) {
        var m = Model()
        var w = ImageWriter()
        let words = ["", "a", "Ab", "abc", "Ça", "ÿ", "日本", "zz", "Miles Davis", "/music/x.flac", "\u{1F3B5}"]
        for i in 0..<Int.random(in: 0...6, using: &rng) {
            let name = "block\(i)"
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                var set = Set<String>()
                for _ in 0..<Int.random(in: 0...40, using: &rng) {
                    set.insert(rng.pick(words) + String(Int.random(in: 0...500, using: &rng)))
                }
                let sorted = set.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
                m.strings[name] = sorted
                try w.strings(name, sorted)
            case 1:
                let width = rng.pick([1, 2, 4, 8])
                let limit: UInt64 = width == 8 ? .max : (1 << UInt64(width * 8)) - 1
                let values = (0..<Int.random(in: 0...300, using: &rng)).map { _ in rng.next() & limit }
                m.columns[name] = (width, values)
                try w.column(name, width: width, values)
            case 2:
                var key: UInt32 = 0
                let entries = (0..<Int.random(in: 0...30, using: &rng)).map { _ -> (key: UInt32, rows: [UInt32]) in
                    key += UInt32.random(in: 1...9, using: &rng)
                    let rows = Set((0..<Int.random(in: 0...12, using: &rng)).map { _ in UInt32.random(in: 0...5_000, using: &rng) })
                    return (key, rows.sorted())
                }
                m.postings[name] = entries
                try w.postings(name, entries)
            default:
                let bytes = (0..<Int.random(in: 0...70, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                m.raw[name] = bytes
                try w.raw(name, bytes)
            }
        }
        return (m, w.bytes(format: 0x0501, seq: UInt64.random(in: 0...1_000_000, using: &rng), version: version))
    }

    /// Every block of the model read back from `image`; throws at the first damaged block.
    static func readAll(_ m: Model, _ image: SnapshotImage) throws {
        for (name, strings) in m.strings {
            let t = try image.strings(name)
            #expect(t.count == strings.count && (0..<t.count).map { t[$0] } == strings, "\(name)")
            for (i, s) in strings.enumerated() { #expect(t.code(of: s) == i, "\(name): code of \(s)") }
            #expect(t.code(of: "not there\u{0}") == nil)
        }
        for (name, c) in m.columns {
            let col = try image.column(name)
            #expect(col.width == c.width && (0..<col.count).map { col[$0] } == c.values, "\(name)")
            // A scan visits the rows whose code passes, as a filter of `codes()` finds them
            // (codes past the pass list, most of the wider widths', never pass).
            let codes = col.codes()
            let passes = (0..<70_000).map { $0 % 3 != 1 }
            var visited: [Int] = []
            col.forEachRow(where: passes) { visited.append($0) }
            #expect(visited == codes.indices.filter { Int(codes[$0]) < passes.count && passes[Int(codes[$0])] }, "\(name)")
        }
        for (name, entries) in m.postings {
            let p = try image.postings(name)
            #expect(p.count == entries.count, "\(name)")
            for e in entries { #expect(p.rows(of: e.key) == e.rows, "\(name): key \(e.key)") }
            #expect(p.rows(of: UInt32.max) == [])
        }
        for (name, bytes) in m.raw { #expect(Array(try image.block(name)) == bytes, "\(name)") }
    }

    /// In the container version written, and in version 2 (16 KiB segments), which libraries
    /// made before version 3 still hold until their next checkpoint.
    @Test(arguments: [ImageLayout.version, 2])
    func whatIsWrittenReadsBack(version: UInt32) throws {
        var rng = SplitMix64(seed: 0x1A6E)
        for _ in 0..<200 {
            let (m, bytes) = try Self.random(&rng, version: version)
            let image = try SnapshotImage(ImageBytes(copying: bytes))
            #expect(image.format == 0x0501)
            try Self.readAll(m, image)
            #expect(image.damagedBlocks().isEmpty)
        }
    }

    /// Each flipped bit is found: at the open when it lies in the header or the directory, else
    /// at the first touch of its block (and by `damagedBlocks`), while every other block still reads.
    @Test func aFlippedByteIsCaughtWhereItLies() throws {
        var rng = SplitMix64(seed: 0xF11B)
        var atOpen = 0, atTouch = 0
        for _ in 0..<300 {
            let (m, clean) = try Self.random(&rng)
            var bytes = clean
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            bytes[at] ^= 1 << UInt8.random(in: 0...7, using: &rng)
            let image: SnapshotImage
            do {
                image = try SnapshotImage(ImageBytes(copying: bytes))
            } catch {
                #expect(!"\(error)".contains("\n"))
                atOpen += 1
                continue
            }
            let hit = try #require(image.entries.first { at >= $0.offset && at < $0.offset + ($0.length + 7) / 8 * 8 },
                                   "byte \(at) passed the open but lies in no block")
            #expect(image.damagedBlocks().map(\.name) == [hit.name])
            #expect(throws: StoreError.self) { try image.block(hit.name) }
            var others = m
            others.strings[hit.name] = nil; others.columns[hit.name] = nil; others.postings[hit.name] = nil; others.raw[hit.name] = nil
            try Self.readAll(others, image)
            atTouch += 1
        }
        #expect(atOpen > 20 && atTouch > 20, "open \(atOpen), touch \(atTouch)")
    }

    /// Checked on touch (a mapped image in the CLI): a read checks only the segments (4 KiB;
    /// 16 KiB in version 2) it lies in, so reading rows away from the damage reads right and
    /// reports nothing, and the damage is reported once, by the first read of its segment, in the
    /// block it lies in.
    @Test(arguments: [ImageLayout.version, 2])
    func onTouchOnlyTheSegmentsReadAreCheckedAndTheDamagedOneIsReportedOnce(version: UInt32) throws {
        let shift = try #require(ImageLayout.segmentShift(ofVersion: version))
        let rows = 10_000 // 80,016 bytes: 20 segments of 4 KiB, 5 of 16 KiB
        let values = (0..<rows).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        var w = ImageWriter()
        try w.column("clean", width: 2, (0..<UInt64(rows)).map { $0 & 0xFFFF })
        try w.column("c", width: 8, values)
        var bytes = w.bytes(format: 1, seq: 1, version: version)
        let c = try #require(try SnapshotImage(ImageBytes(copying: bytes)).entries.first { $0.name == "c" })
        #expect(ImageLayout.segments(c.length, shift: shift) == (80_016 + (1 << shift) - 1) >> shift)
        let damagedRow = (40_000 - 16) / 8 // byte 40,000 of the block: its 10th segment of 4 KiB, 3rd of 16
        bytes[c.offset + 40_000] ^= 0x10
        let damagedFrom = (40_000 >> shift) << shift, damagedTo = damagedFrom + (1 << shift) - 1

        let reports = Mutex<[String]>([])
        let image = try SnapshotImage(ImageBytes(copying: bytes), onDamage: { reason, file in
            reports.withLock { $0.append(reason) }
            #expect(file == nil)
        })
        #expect(image.checksOnTouch)
        let column = try image.lazyColumn("c")
        for row in [0, 2000, 4093, 6142, 9999] { #expect(column[row] == values[row]) }
        #expect(try image.lazyColumn("clean").codes() == (0..<UInt32(rows)).map { $0 & 0xFFFF })
        #expect(reports.withLock { $0 }.isEmpty, "rows outside the damaged segment report nothing")
        _ = column[damagedRow]
        _ = column[4094]
        let said = reports.withLock { $0 }
        #expect(said.count == 1 && said[0].contains("block c does not match its checksum (bytes \(damagedFrom)–\(damagedTo))"), "\(said)")
        #expect(image.damagedBlocks().map(\.name) == ["c"])

        // Checked at the open (no handler): reading is the same, with nothing left to check.
        let whole = try SnapshotImage(ImageBytes(copying: w.bytes(format: 1, seq: 1, version: version)))
        #expect(!whole.checksOnTouch && whole.damagedBlocks().isEmpty)
        #expect(try whole.column("c").codes() == values.map { UInt32(truncatingIfNeeded: $0) })
    }

    @Test func aTruncatedImageIsRefusedInOneLine() throws {
        var rng = SplitMix64(seed: 0x7C07)
        for _ in 0..<100 {
            let (_, bytes) = try Self.random(&rng)
            for cut in Set([0, 1, 8, 71, 72, bytes.count - 1, Int.random(in: 0..<bytes.count, using: &rng)]) where cut < bytes.count && cut >= 0 {
                do {
                    _ = try SnapshotImage(ImageBytes(copying: bytes.prefix(cut)))
                    Issue.record("\(cut) of \(bytes.count) bytes opened")
                } catch {
                    let line = "\(error)"
                    #expect(!line.contains("\n"))
                    if cut >= 72 { #expect(line.contains("truncated: \(cut) of \(bytes.count) bytes"), "\(line)") }
                }
            }
        }
    }

    /// Bytes that are no image, or an image whose checksums were made to match damage (a hand
    /// edit): refused, or read within their bounds; never a trap.
    @Test func randomBytesNeverTrap() throws {
        var rng = SplitMix64(seed: 0xBAD)
        for _ in 0..<500 {
            let n = Int.random(in: 0...400, using: &rng)
            var bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if n >= 8 { bytes.replaceSubrange(0..<8, with: ImageLayout.magic) }
            _ = try? SnapshotImage(ImageBytes(copying: bytes))
        }
        // Blocks damaged under valid checksums (a hand edit that knew the format): each typed
        // read either refuses the block or stays within it.
        for _ in 0..<300 {
            let (m, clean) = try Self.random(&rng)
            let image = try SnapshotImage(ImageBytes(copying: clean))
            guard let e = image.entries.filter({ $0.length > 0 }).randomElement(using: &rng) else { continue }
            var bytes = clean
            bytes[e.offset + Int.random(in: 0..<e.length, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            let edited = try SnapshotImage(ImageBytes(copying: Self.rechecksummed(bytes)))
            if let t = try? edited.strings(e.name) {
                for i in 0..<t.count { _ = t.code(of: t[i]) }
            }
            if let c = try? edited.column(e.name) { for r in 0..<c.count { _ = c[r] } }
            if let p = try? edited.postings(e.name) {
                for k in m.postings[e.name] ?? [] { _ = p.rows(of: k.key) }
                for i in 0..<p.count { _ = p.rows(of: p.key(i)) }
            }
        }
        // Structure damaged under valid checksums: each block's own check refuses it.
        var w = ImageWriter()
        try w.postings("p", [(key: 1, rows: [1, 2]), (key: 2, rows: [3])])
        var bytes = w.bytes(format: 1, seq: 1)
        let image = try SnapshotImage(ImageBytes(copying: bytes))
        let p = image.entries[0]
        bytes[p.offset + 8] = 9 // the first key after the second: out of order
        let rehashed = try Self.rechecksummed(bytes)
        let damaged = try SnapshotImage(ImageBytes(copying: rehashed))
        #expect(throws: StoreError.self) { try damaged.postings("p") }
    }

    /// `bytes` with every checksum computed again, as a hand edit that knew the format would.
    static func rechecksummed(_ bytes: [UInt8]) throws -> [UInt8] {
        var out = bytes
        let image = try? SnapshotImage(ImageBytes(copying: bytes))
        let dirOffset = Int(SnapshotImage.u64(ImageBytes(copying: bytes).buffer, 40))
        // Segment checksums live in the directory, after each block's name: rewrite them, then
        // the directory's, then the header's.
        var at = dirOffset
        for e in image?.entries ?? [] {
            at += ImageLayout.entryFixedSize + ImageLayout.padded(e.name.utf8.count)
            let end = e.offset + ImageLayout.padded(e.length)
            for start in stride(from: e.offset, to: end, by: ImageLayout.segmentSize) {
                let sum = out[start..<min(start + ImageLayout.segmentSize, end)].withUnsafeBytes { XXH64.hash($0) }
                withUnsafeBytes(of: sum.littleEndian) { out.replaceSubrange(at..<(at + 8), with: $0) }
                at += 8
            }
        }
        let dirSum = out[dirOffset...].withUnsafeBytes { XXH64.hash($0) }
        withUnsafeBytes(of: dirSum.littleEndian) { out.replaceSubrange(56..<64, with: $0) }
        let headerSum = out[0..<64].withUnsafeBytes { XXH64.hash($0) }
        withUnsafeBytes(of: headerSum.littleEndian) { out.replaceSubrange(64..<72, with: $0) }
        return out
    }
}
