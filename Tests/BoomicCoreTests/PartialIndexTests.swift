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
}
