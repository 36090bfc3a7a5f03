import BoomicCore
import BoomicLibrary
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import Testing

/// A snapshot after a commit of plays and ratings alone carries the last one's indexes
/// instead of building them again (a song ending is such a commit). The law: on random
/// libraries and random commits, the carried indexes answer exactly as freshly built ones,
/// and a commit that changes a tag, adds or removes a song carries nothing.
@Suite struct CarriedIndexesTests {
    static let levels = [MPDTag.artist, .albumArtist, .album, .genre, .date, .title].map(TagLevel.init)

    /// Everything the indexes answer, asked of `indexes`, as comparable values.
    static func answers(_ indexes: TagIndexes) -> [String] {
        var out: [String] = []
        for level in levels {
            let column = indexes.column(level)
            out.append("\(level.name): \(column.values) \(column.starts) \(column.numbers)")
            if let tag = level.tag {
                out.append("\(level.name) index: \(indexes.index(tag).mapValues { $0.map(\.description).sorted() }.sorted { $0.key < $1.key })")
            }
        }
        out.append("stats: \(indexes.libraryStats())")
        out.append("durations: \(indexes.songDurations())")
        out.append("songs: \(indexes.orderedSongs().map { "\($0.path) \($0.playcount) \($0.rating ?? -1)" })")
        let text = indexes.anyFieldText()
        for needle in ["a", "song", "live", "zed"] {
            out.append("any \(needle): \(text.songs(containing: Array(needle.utf8)).map(\.description).sorted())")
        }
        return out
    }

    @Test(arguments: Seeds.list(10, from: 7_700))
    func carriedIndexesAnswerAsFreshOnes(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        try withTemporaryDirectory { dir in
            let session = try LibrarySession.open(at: dir, create: true, client: .init(command: "test", version: "0"))
            defer { session.close() }
            let songs = GroupedListTests.library(&rng, in: dir)
            _ = try session.commit(kind: .import, message: nil) { _ in (songs.map(Assertion.addSong), "add") }
            let library = ServerLibrary(session: session, folders: [dir])
            for step in 0..<6 {
                let before = library.snapshot
                _ = Self.answers(before.indexes)  // built, so there is something to carry
                let song = rng.pick(songs).id
                let old = before.basis[song]!
                let quiet = rng.chance(0.6)
                let patch: SongPatch = quiet
                    ? [.playcount: FieldChange(old: .int(old.playcount), new: .int(old.playcount + 1)),
                       .rating: FieldChange(old: old.rating.map(FieldValue.int) ?? .null, new: .int(Int.random(in: 1...5, using: &rng)))]
                    : [.album: FieldChange(old: old.album.map(FieldValue.string) ?? .null, new: .string("Changed \(step)"))]
                _ = try session.commit(kind: quiet ? .play : .edit, message: nil) { _ in ([.updateSong(song, patch)], "step") }
                library.refreshNow()
                let after = library.snapshot
                let fresh = TagIndexes(basis: after.basis, tree: after.tree)
                #expect(Self.answers(after.indexes) == Self.answers(fresh), "step \(step), \(Seeds.replay(seed))")
                #expect((after.indexes.column(TagLevel(.album)) == before.indexes.column(TagLevel(.album))) == quiet,
                        "step \(step): carried exactly when only plays and ratings changed, \(Seeds.replay(seed))")
            }
        }
    }
}
