import BoomicCore
import Synchronization

/// The catalog `getCoverArt` finds an album's or an artist's picture in: built once per library
/// state (a couple of hundred milliseconds at 50,000 songs) and kept until the basis changes, so
/// a client loading a grid of album covers does not build it once per cover. A basis compares
/// equal to the one it was built from in constant time while nothing changed (the song tree's
/// storage is the same).
///
/// The front's own catalog cache, when the browsing endpoints keep one, is the one to use here.
enum CoverCatalog {
    private static let last = Mutex<(basis: DataBasis, catalog: Catalog)?>(nil)

    static func catalog(for basis: DataBasis) -> Catalog {
        if let kept = last.withLock({ $0 }), kept.basis == basis { return kept.catalog }
        let catalog = Catalog(basis)
        last.withLock { $0 = (basis, catalog) }
        return catalog
    }
}
