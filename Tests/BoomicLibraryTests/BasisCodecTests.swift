import BoomicCore
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicLibrary

/// A checkpoint gives back the basis it was made of: songs, taglists, playlists and EQ profiles.
@Suite struct BasisCodecTests {
    @Test func aCheckpointHoldsEveryEntity() throws {
        for seed in Seeds.list(20, from: 31) {
            var rng = SplitMix64(seed: seed)
            // Songs with plain values (the song codec's own tests cover every field, NaNs included).
            let songs = (0..<Int.random(in: 3...30, using: &rng)).map { i in
                var s = Song(id: SongID(rng.uuid()), path: "/music/\(i).flac")
                s.title = "Song \(i)"
                return s
            }
            var basis = DataBasis(uniqueSongs: songs)
            basis = basis.applying(try PlaylistGeneration.create("Road", songs: songs.prefix(3).map(\.id), id: ListID(rng.uuid()), on: basis))
            let spec = EQSpec(graphic: [Double.random(in: -12...12, using: &rng), 0, 0, 1, 0, -2],
                              bands: [EQBand(.highShelf, frequency: 8000, gain: -2, q: 0.7)],
                              curve: [EQCurvePoint(frequency: 20, gain: -1), EQCurvePoint(frequency: 100, gain: 2)], preamp: -4.5)
            basis = basis.applying(try EQProfileGeneration.save("HD 600", spec: spec, id: ListID(rng.uuid()), on: basis))
            let bytes = try BasisCodec.codec.encode(basis)
            let back = try bytes.withUnsafeBytes { try BasisCodec.codec.decode($0) }
            #expect(back.songs == basis.songs, "seed \(seed): songs")
            #expect(back.playlists == basis.playlists, "seed \(seed): playlists")
            #expect(back.eqProfiles == basis.eqProfiles, "seed \(seed): EQ profiles")
            #expect(back.eqProfile(named: "hd 600")?.profile.spec == spec, "seed \(seed)")
        }
    }
}
