import BoomicCore
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicStore
import BoomicLibrary

/// The library's own `Transaction` goes through the store: its kind and label become columns.
@Suite struct LibraryTransactionTests {
    @Test func libraryTransactionsAreLoggedAndReadBack() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            // The basis here is just the songs by id; the real one is BoomicCore's DataBasis.
            @Sendable func apply(_ t: Transaction, _ songs: [SongID: Song]) -> [SongID: Song] {
                var out = songs
                for a in t.assertions {
                    switch a {
                    case .addSong(let s): out[s.id] = s
                    case .deleteSong(let s): out[s.id] = nil
                    case .updateSong(let id, let patch): out[id] = out[id]?.applying(patch)
                    case .taglist, .playlist, .eqProfile, .annotation: break
                    }
                }
                return out
            }
            let codec = CheckpointCodec<[SongID: Song]>(
                format: 1, encode: { SongCodec.encode(Array($0.values)) },
                decode: { Dictionary(uniqueKeysWithValues: try SongCodec.decode($0).map { ($0.id, $0) }) })
            func open() throws -> Transactor<Transaction, [SongID: Song]> {
                try Transactor(path: path, initial: [:], apply: apply, codec: codec,
                               policy: CheckpointPolicy(every: 2) { $0.assertions.count })
            }
            let store = try open()
            var ids = CountingIDSource(seed: 1)
            var rng = SplitMix64(seed: 8)
            // JSON has no NaN or infinity: a transaction carrying one fails to encode (tested elsewhere).
            let songs = (0..<20).map { _ in rng.song().withFiniteDoubles }
            try store.commit(Transaction(id: ids.next(), parent: nil, timestamp: 100, kind: .import,
                                         label: "import 20 songs", assertions: songs.map { .addSong($0) }))
            let edit = Transaction(id: ids.next(), parent: nil, timestamp: 200, kind: .edit, label: "modify genre=Jazz",
                                   provenance: .init(command: "boomic modify genre=Jazz", message: "why not"),
                                   assertions: [.updateSong(songs[3].id, [.genre: FieldChange(old: .null, new: .string("Jazz"))])])
            try store.commit(edit)
            try store.commit(Transaction(id: ids.next(), parent: edit.id, timestamp: 300, kind: .remove,
                                         label: "remove 1 song", assertions: [.deleteSong(songs[5])]))

            let summaries = try store.summaries()
            #expect(summaries.map(\.kind) == ["import", "edit", "remove"])
            #expect(summaries[1].label == "modify genre=Jazz")
            #expect(try store.entry(seq: 2).transaction == edit)
            #expect(store.basis[songs[3].id]?.genre == "Jazz")
            #expect(store.basis.count == 19)
            #expect(try store.checkpointSeqs() == [2])
            let reopened = try open()
            #expect(reopened.basis.keys.sorted() == store.basis.keys.sorted())
            #expect(reopened.basis[songs[3].id]?.genre == "Jazz")
            #expect(try reopened.basis(at: 1, usingCheckpoints: false).count == 20)
        }
    }
}

extension Song {
    var withFiniteDoubles: Song {
        var s = self
        func finite(_ d: Double) -> Double { d.isFinite ? d : 0.5 }
        s.added = finite(s.added)
        s.replaygainTrackGain = s.replaygainTrackGain.map(finite)
        s.replaygainTrackPeak = s.replaygainTrackPeak.map(finite)
        s.replaygainAlbumGain = s.replaygainAlbumGain.map(finite)
        s.replaygainAlbumPeak = s.replaygainAlbumPeak.map(finite)
        s.duration = s.duration.map(finite)
        s.lastplayed = s.lastplayed.map(finite)
        s.bookmark = s.bookmark.map(finite)
        s.bookmarkSpeed = s.bookmarkSpeed.map(finite)
        return s
    }
}
