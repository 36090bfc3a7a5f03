import BoomicStore
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore
@testable import BoomicLibrary

/// The checkpoint image refuses what it cannot read faithfully, with one line, so the open falls
/// back to an older checkpoint or the log rather than reading wrong songs.
@Suite struct ImageCheckpointTests {
    static let basis: DataBasis = Histories.all.max { $0.head.songs.count < $1.head.songs.count }!.head

    @Test func everyFlippedByteIsRefusedAtTheOpen() throws {
        let bytes = try BasisCodec.encode(Self.basis)
        #expect(try BasisCodec.decode(ImageBytes(copying: bytes)) == Self.basis)
        var rng = SplitMix64(seed: 0xF11B)
        for _ in 0..<200 {
            var damaged = bytes
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            damaged[at] ^= UInt8.random(in: 1...255, using: &rng)
            #expect(throws: StoreError.self, "byte \(at) of \(bytes.count) flipped, yet the image opened") {
                _ = try BasisCodec.decode(ImageBytes(copying: damaged))
            }
        }
    }

    @Test func aFieldThisBuildDoesNotKnowIsRefused() throws {
        var image = ImageWriter()
        try ImageSongsWriter.write(Array(Self.basis.songs.values), into: &image)
        try image.raw("field.from_a_later_build.values", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        try image.raw(ImageSongs.Names.lists, Array(#"{"taglists":[],"playlists":[],"eqProfiles":[],"annotations":[]}"#.utf8))
        let bytes = image.bytes(format: UInt64(BasisCodec.format), seq: 0)
        #expect {
            _ = try BasisCodec.decode(ImageBytes(copying: bytes))
        } throws: { error in
            "\(error)".contains("field.from_a_later_build")
        }
    }

    @Test func aFieldNoSongSetsHasNoBlocksAndReadsAsItsDefault() throws {
        let songs = Array(Self.basis.songs.values)
        #expect(songs.allSatisfy { $0.work == nil }, "the generator sets work; pick another field")
        let bytes = try BasisCodec.encode(Self.basis)
        let image = try SnapshotImage(ImageBytes(copying: bytes))
        #expect(!image.entries.contains { $0.name == "field.work" })
        #expect(image.entries.contains { $0.name == "field.title" })
        let decoded = try BasisCodec.decode(ImageBytes(copying: bytes))
        #expect(decoded.songs.values.allSatisfy { $0.work == nil })
    }
}
