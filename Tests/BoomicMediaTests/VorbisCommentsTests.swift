@testable import BoomicMedia
import BoomicTestSupport
import Testing

/// The laws of editing Vorbis comments in place, on random comment lists, edits and FLAC block
/// layouts: a changed key holds exactly its new values, every other entry keeps its bytes and
/// its order, an edit to the values a file already has changes nothing, and a FLAC's padding
/// takes up the change in size whenever it can.
@Suite("Vorbis comments")
struct VorbisCommentsTests {
    static let keys = ["TITLE", "title", "Artist", "ARTIST", "GENRE", "genre", "COMMENT", "MOOD", "DATE", "X-CUSTOM"]
    static let values = ["", "a", "Jazz", "Fusion", "Ünïcode — 新しい", "x=y", String(repeating: "long ", count: 40)]

    static func randomComments(_ r: inout SplitMix64) -> VorbisComments {
        var entries: [[UInt8]] = []
        for _ in 0..<Int.random(in: 0...12, using: &r) {
            if Int.random(in: 0..<20, using: &r) == 0 {
                entries.append(Array("no equals sign".utf8))
            } else {
                entries.append(Array((keys.randomElement(using: &r)! + "=" + values.randomElement(using: &r)!).utf8))
            }
        }
        return .init(vendor: Array("reference libFLAC 1.4.2 20221022".utf8), entries: entries)
    }

    static func randomChanges(_ r: inout SplitMix64) -> [String: [String]] {
        var changes: [String: [String]] = [:]
        for key in Set(keys.map { $0.uppercased() }) + ["NEWKEY"] where Int.random(in: 0..<3, using: &r) == 0 {
            changes[key] = (0..<Int.random(in: 0...3, using: &r)).map { _ in values.randomElement(using: &r)! }
        }
        return changes
    }

    /// The entries whose key `wanted` takes, and those without a key, in order.
    static func fields(_ c: VorbisComments, _ wanted: (String) -> Bool) -> [[UInt8]] {
        c.entries.filter { VorbisComments.key(of: $0).map(wanted) ?? true }
    }

    @Test(arguments: 1...8)
    func aChangedKeyHoldsItsNewValuesAndEveryOtherEntryStays(seed: UInt64) {
        var r = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let before = Self.randomComments(&r), changes = Self.randomChanges(&r)
            let after = before.applying(changes)
            #expect(after.vendor == before.vendor)
            for (key, new) in changes {
                let got = after.entries.filter { VorbisComments.key(of: $0) == key }.map(VorbisComments.value(of:))
                #expect(got == new.map { Array($0.utf8) }, "seed \(seed): \(key) in \(before.entries.map { String(decoding: $0, as: UTF8.self) })")
            }
            // Entries of keys not changed (and entries without a key): the same bytes, in order.
            let untouched = { (key: String) in changes[key] == nil }
            #expect(Self.fields(after, untouched) == Self.fields(before, untouched), "seed \(seed)")
            // An entry whose value stays where it was keeps its key as spelled.
            for (key, new) in changes {
                let old = before.entries.filter { VorbisComments.key(of: $0) == key }
                let kept = after.entries.filter { VorbisComments.key(of: $0) == key }
                for (i, entry) in old.enumerated() where i < new.count && VorbisComments.value(of: entry) == Array(new[i].utf8) {
                    #expect(kept[i] == entry, "seed \(seed)")
                }
            }
            // Writing what the file already has changes no byte; and the body reads back.
            var current: [String: [String]] = [:]
            for entry in before.entries {
                if let key = VorbisComments.key(of: entry) {
                    current[key, default: []].append(String(decoding: VorbisComments.value(of: entry), as: UTF8.self))
                }
            }
            #expect(before.applying(current) == before, "seed \(seed)")
            #expect(VorbisComments(body: after.body) == after, "seed \(seed)")
        }
    }

    static func randomMetadata(_ r: inout SplitMix64, comments: VorbisComments) -> FLACMetadata {
        var blocks = [FLACMetadata.Block(type: 0, body: (0..<34).map { _ in UInt8.random(in: 0...255, using: &r) })]
        var others: [FLACMetadata.Block] = [.init(type: 4, body: comments.body)]
        for _ in 0..<Int.random(in: 0...3, using: &r) {
            let type: UInt8 = [1, 3, 6, 2].randomElement(using: &r)!
            others.append(.init(type: type, body: [UInt8](repeating: type, count: Int.random(in: 0...300, using: &r))))
        }
        others.shuffle(using: &r)
        blocks += others
        return FLACMetadata(blocks: blocks)
    }

    @Test(arguments: 1...8)
    func thePaddingTakesUpTheChangeWheneverItCan(seed: UInt64) throws {
        var r = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let comments = Self.randomComments(&r)
            let metadata = Self.randomMetadata(&r, comments: comments)
            let region = metadata.region
            #expect(FLACMetadata(region: region) == metadata, "seed \(seed)")
            #expect(FLACMetadata.regionLength { at in at + 4 <= region.count ? Array(region[at..<(at + 4)]) : nil } == region.count)
            let new = comments.applying(Self.randomChanges(&r))
            let (edited, fits) = try #require(metadata.replacingComments(with: new)).laidOut(like: metadata)
            #expect(edited.comments == new, "seed \(seed)")
            // Every block but the comments and the padding: the same, in the same order.
            let kept = { (m: FLACMetadata) in m.blocks.filter { $0.type != 1 && $0.type != 4 } }
            #expect(kept(edited) == kept(metadata), "seed \(seed)")
            #expect(edited.blocks.first?.type == 0)
            let growth = new.body.count - comments.body.count
            let padding = metadata.blocks.last { $0.type == 1 }?.body.count
            let couldFit = growth == 0 || padding.map { growth <= $0 || growth == $0 + 4 } ?? (growth <= -4)
            #expect(fits == couldFit, "seed \(seed): growth \(growth), padding \(String(describing: padding))")
            if fits {
                #expect(edited.region.count == region.count, "seed \(seed)")
            } else {
                #expect(edited.blocks.last == .init(type: 1, body: [UInt8](repeating: 0, count: FLACMetadata.roomyPadding)))
            }
        }
    }

    @Test func oggPacketsKeepWhatFollowsTheComments() throws {
        let comments = VorbisComments(vendor: Array("v".utf8), entries: [Array("A=b".utf8), Array("c=d".utf8)])
        let vorbis: [UInt8] = [3] + Array("vorbis".utf8)
        for packet in [vorbis + comments.body + [1], vorbis + comments.body + [1, 0, 0, 0],
                       Array("OpusTags".utf8) + comments.body, Array("OpusTags".utf8) + comments.body + [1, 2, 3]] {
            let parsed = try #require(OggCommentPacket(packet))
            #expect(parsed.bytes == packet)
            #expect(parsed.comments == comments)
        }
        #expect(OggCommentPacket(Array("OpusHead".utf8) + comments.body) == nil)
        #expect(OggCommentPacket(Array("OpusTags".utf8) + comments.body.dropLast()) == nil)
    }

    @Test func damagedRegionsAreRefused() {
        let good = FLACMetadata(blocks: [.init(type: 0, body: [UInt8](repeating: 1, count: 34)),
                                         .init(type: 4, body: VorbisComments(vendor: [], entries: [Array("A=b".utf8)]).body)])
        let region = good.region
        #expect(FLACMetadata(region: region) == good)
        #expect(FLACMetadata(region: Array(region.dropLast())) == nil)       // cut short
        #expect(FLACMetadata(region: region + [0]) == nil)                    // bytes after the last block
        var notLast = region
        notLast[38] &= 0x7F                                                   // no block says it is last
        #expect(FLACMetadata(region: notLast) == nil)
        #expect(FLACMetadata(region: Array(region[38...])) == nil)            // STREAMINFO not first
        var comment = VorbisComments(vendor: [], entries: [Array("A=b".utf8)]).body
        comment[4] = 9                                                        // more entries than there are
        #expect(VorbisComments(body: comment) == nil)
        #expect(FLACMetadata.markerOffset(head: Array("fLaC\0\0\0\"\0\0".utf8)) == 0)
        #expect(FLACMetadata.markerOffset(head: [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 1, 0x7F]) == 10 + 255)
    }
}
