import Foundation
import BoomicTestSupport
import Testing
@testable import BoomicCore

/// Laws of the pure pieces the library layer stands on: the change feed's summary, the write
/// record, the recorded-stamps fold, and album/artist grouping, on every random history.
@Suite("Library layer laws on random histories")
struct LibraryLayerLawTests {
    /// What `LibraryChange` names is exactly what differs between the bases around the change:
    /// a front that refreshes only those entities sees the same library as one that reloads all.
    @Test func changeNamesExactlyTheEntitiesThatDiffer() {
        for h in Histories.all {
            var rng = SplitMix64(seed: h.seed ^ 0xC4A6)
            for _ in 0..<4 where h.seq > 0 {
                let from = Int.random(in: 0..<h.seq, using: &rng), to = Int.random(in: (from + 1)...h.seq, using: &rng)
                let change = LibraryChange(from: from, transactions: Array(h.transactions[from..<to]))
                #expect(change.to == to, "seed \(h.seed)")
                let (a, b) = (h.bases[from], h.bases[to])
                // Every entity that differs is named…
                for id in Set(a.songs.keys).union(b.songs.keys) where a[id] != b[id] {
                    #expect(change.songs.contains(id), "seed \(h.seed) \(from)→\(to): song \(id) changed but is not named")
                }
                for id in Set(a.playlists.keys).union(b.playlists.keys) where a.playlists[id] != b.playlists[id] {
                    #expect(change.playlists.contains(id), "seed \(h.seed) \(from)→\(to): playlist \(id) not named")
                }
                for id in Set(a.taglists.keys).union(b.taglists.keys) where a.taglists[id] != b.taglists[id] {
                    #expect(change.taglists.contains(id), "seed \(h.seed) \(from)→\(to): taglist \(id) not named")
                }
                // …and nothing is named that no transaction touched.
                let touched = Set(h.transactions[from..<to].flatMap(\.assertions).compactMap(\.songID))
                #expect(change.songs == touched, "seed \(h.seed)")
            }
        }
    }

    /// Folding the stamps over the log gives, for each song, every size and mtime it had at the
    /// end of some transaction (and the current one among them).
    @Test func recordedStampsAreEveryStampTheSongHad() {
        for h in Histories.all {
            let ids = Set(h.head.songs.keys)
            var fold = WriteGeneration.RecordedStamps(of: ids)
            for t in h.transactions { fold.add(t) }
            var expected: [SongID: Set<FileStamp>] = [:]
            for b in h.bases {
                for id in ids { if let s = b[id] { expected[id, default: []].insert(FileStamp(of: s)) } }
            }
            for id in ids {
                #expect(fold.seen[id, default: []].isSubset(of: expected[id, default: []]), "seed \(h.seed) song \(id)")
                #expect(fold.seen[id, default: []].contains(FileStamp(of: h.head[id]!)), "seed \(h.seed) song \(id): current stamp missing")
            }
        }
    }

    /// Recording a write touches only the written songs, gives each the file's stamp, and leaves
    /// fields committed meanwhile alone while remembering what the file holds for them.
    @Test func writeRecordKeepsEditsMadeWhileWriting() {
        for h in Histories.all where h.head.songs.count >= 2 {
            let songs = Array(h.head.songs.values.sorted { $0.path < $1.path }.prefix(3))
            let planned = songs[0]
            var meanwhile = h.head
            var edited = planned
            edited.title = (planned.title ?? "") + " (edited meanwhile)"
            meanwhile = meanwhile.applying([.updateSong(planned.id, planned.patch(to: edited))])
            let stamp = FileStamp(size: planned.size + 7, mtime: planned.mtime + 1)
            let written = WriteGeneration.WrittenFile(song: planned, stamp: stamp, fingerprint: "fp", remaining: [:])
            let a = WriteGeneration.record(on: meanwhile, written: [written], agreeing: [], tagFields: [.title, .album])
            #expect(Set(a.compactMap(\.songID)) == [planned.id], "seed \(h.seed)")
            let after = meanwhile.applying(a)[planned.id]!
            #expect(FileStamp(of: after) == stamp && after.fingerprint == "fp", "seed \(h.seed)")
            #expect(after.title == edited.title, "seed \(h.seed): the edit made meanwhile was lost")
            #expect(after.fileValueMap[.title] == SongField.title.value(in: planned), "seed \(h.seed): the file's title is not remembered")
            // A song removed meanwhile is not the file that was written.
            let removed = meanwhile.applying([.deleteSong(edited)])
            #expect(WriteGeneration.record(on: removed, written: [written], agreeing: [], tagFields: [.title]).isEmpty, "seed \(h.seed)")
        }
    }

    /// Albums partition the songs that have an album; artists count each song once per artist.
    @Test func browseGroupsEverySongOnce() {
        for h in Histories.all {
            for b in [h.head, h.bases[h.seq / 2]] {
                let songs = Array(b.songs.values)
                let albums = Browse.albums(of: songs, in: b)
                #expect(albums.map(\.songs).reduce(0, +) == songs.filter { AlbumKey($0) != nil }.count, "seed \(h.seed)")
                #expect(Set(albums.map { [$0.albumartist, $0.album] }).count <= albums.count, "seed \(h.seed)")
                for artist in Browse.artists(of: songs, in: b) {
                    let key = Fold.key(artist.name)
                    let n = songs.filter { s in
                        s.artists.contains { Fold.key($0) == key } || (s.album != nil && s.effectiveAlbumArtist.map(Fold.key) == key)
                    }.count
                    #expect(artist.songs == n, "seed \(h.seed): \(artist.name)")
                }
            }
        }
    }
}
