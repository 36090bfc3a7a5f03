import BoomicTestSupport
import Testing
@testable import BoomicCore

/// Each index is built when first asked for and from then on kept up to date alone: a basis
/// that only ever built its path index (as an unchanged rescan does) keeps that one right through
/// every transaction of every random history, and builds the others correctly when asked later.
@Suite struct PartialIndexTests {
    @Test func anIndexBuiltAloneStaysRightAndTheOthersBuildLater() {
        for h in Histories.all {
            guard let first = h.transactions.first else { continue }
            var b = DataBasis.empty.applying(first)
            _ = b.paths
            #expect(b.hasIndexes)
            for t in h.transactions.dropFirst() { b = b.applying(t) }
            let fresh = DataBasis(songs: Array(b.songs.values))
            #expect(b.paths == fresh.paths, "seed \(h.seed): the path index kept alone")
            // Asked for only now: built from the songs as they are.
            #expect(b.albums == fresh.albums && b.artists == fresh.artists && b.fingerprints == fresh.fingerprints
                    && b.tags == fresh.tags, "seed \(h.seed)")
            #expect(b.invariantViolations().isEmpty, "seed \(h.seed)")
        }
    }

    /// A state made from another owns its indexes before it changes, built or not: the older
    /// state building its own later (a reader of it, another thread) never shows the newer one a
    /// song it removed or an old value it changed.
    @Test func aStateBuildingItsIndexesLeavesTheStatesMadeFromItAlone() {
        var checked = 0
        for h in Histories.all where !h.head.isEmpty {
            let deleted = h.head.songs.values.first!
            var changes: [[Assertion]] = h.transactions.suffix(3).map(\.assertions)
            changes.append([.deleteSong(deleted)])
            for assertions in changes {
                let older = DataBasis(songs: Array(h.head.songs.values))
                #expect(!older.hasIndexes)
                let newer = older.applying(assertions)
                _ = (older.paths, older.albums, older.artists, older.tags, older.fingerprints)
                let fresh = DataBasis(songs: Array(newer.songs.values))
                #expect(newer.paths == fresh.paths && newer.albums == fresh.albums && newer.artists == fresh.artists
                        && newer.tags == fresh.tags && newer.fingerprints == fresh.fingerprints, "seed \(h.seed): \(assertions.count) assertions")
                #expect(newer.invariantViolations().isEmpty, "seed \(h.seed)")
                checked += 1
            }
        }
        #expect(checked >= Seeds.atLeast(100))
    }
}
