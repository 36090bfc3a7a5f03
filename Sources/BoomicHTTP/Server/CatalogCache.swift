import BoomicCore
import BoomicLibrary
import Foundation
import Synchronization

/// The front's catalog (`Catalog`) of the newest basis, built once per basis and shared by every
/// request: browsing, lists, search, covers and streams all look ids up in it.
///
/// A request that finds the library at a basis the cache has not seen starts the build, on a
/// thread of its own (never on an event loop or a thread of the task pool: at 50,000 songs it
/// takes a good part of a second), and every request that asks meanwhile awaits that same
/// build. The search index is built in the same run, so the first search costs no more than the
/// next, and so are the dates the favourite songs were starred (`Catalog.songStarred`, read back
/// from the log). A later basis (a commit, a play) replaces the entry; the catalog of an earlier one is
/// dropped once the requests using it are answered.
///
/// A catalog follows the previous one when the log says what lies between their bases: a
/// star, a rating, a scrobble or a play from any room is a transaction of a few songs, and
/// `Catalog.updated(to:by:)` regroups only their albums and keeps the search index. Many
/// transactions at once (more than `maxFollowed`), an import, or a basis the log cannot place
/// (an older one) build afresh.
///
/// The entry is keyed by the basis itself: two bases are equal when their entities are, and
/// comparing a basis with itself or with its neighbour costs O(1) or O(size of the change)
/// (`DataBasis` is a persistent tree that shares what did not change).
public final class CatalogCache: Sendable {
    /// A catalog and when the front first saw its basis.
    public struct Current: Sendable {
        public let catalog: Catalog
        /// Seconds since 1970 when the first request met this basis: `getIndexes`'
        /// `lastModified`, which moves whenever the library changes.
        public let since: Double
    }

    private final class Entry: Sendable {
        let basis: DataBasis
        let since: Double
        let build: Task<Catalog, Never>
        init(basis: DataBasis, since: Double, build: Task<Catalog, Never>) {
            self.basis = basis
            self.since = since
            self.build = build
        }
    }

    private let entry = Mutex<Entry?>(nil)
    private let builds = Atomic(0)
    private let updates = Atomic(0)
    /// The newest catalog built and the log's seq its basis is at: what the next build follows.
    private let previous = Mutex<(seq: Int, catalog: Catalog)?>(nil)

    /// The most transactions a catalog follows one by one; more build afresh.
    public static let maxFollowed = 64
    /// The favourites' dates the last build found: the next build reads the log only for songs
    /// starred since (a play or an edit elsewhere keeps every date).
    private let knownStarred = Mutex<[SongID: Double]>([:])

    public init() {}

    /// How many catalogs were built (for tests: concurrent requests share one build).
    public var buildCount: Int { builds.load(ordering: .relaxed) }

    /// How many of those followed the catalog before them (`Catalog.updated(to:by:)`) instead of
    /// grouping the whole library afresh.
    public var updateCount: Int { updates.load(ordering: .relaxed) }

    /// The catalog of `basis`, built now unless it is the one the cache holds.
    /// - session: the library the basis is of, whose log tells when favourites were starred.
    public func catalog(of basis: DataBasis, session: LibrarySession) async -> Current {
        while true {
            let seen = entry.withLock { $0 }
            // Compared outside the lock: two bases far apart cost a walk of their difference.
            if let seen, seen.basis == basis { return Current(catalog: await seen.build.value, since: seen.since) }
            let started: Entry? = entry.withLock { current in
                guard current === seen else { return nil }
                let fresh = Entry(basis: basis, since: Date().timeIntervalSince1970, build: Task { await self.build(basis, session: session) })
                current = fresh
                return fresh
            }
            if let started {
                builds.add(1, ordering: .relaxed)
                return Current(catalog: await started.build.value, since: started.since)
            }
            // Another request replaced the entry meanwhile: look again.
        }
    }

    /// Builds the catalog, its search index and its favourites' dates on a thread of its own.
    ///
    /// A favourite the last build knew keeps its date; the log is read for the others only. (A
    /// song unstarred and starred again between two builds keeps its first date.)
    private func build(_ basis: DataBasis, session: LibrarySession) async -> Catalog {
        await withCheckedContinuation { done in
            Thread.detachNewThread { [self] in
                var catalog = self.catalog(following: basis, session: session)
                _ = catalog.search("a", artistCount: 0, albumCount: 0, songCount: 0)
                let known = self.knownStarred.withLock { $0 }
                var dates: [SongID: Double] = [:]
                var unknown: [SongID] = []
                for s in catalog.songs where s.favorite {
                    if let d = known[s.id] { dates[s.id] = d } else { unknown.append(s.id) }
                }
                // A log that cannot be read leaves the dates unknown; the answers stay right otherwise.
                if !unknown.isEmpty, let found = try? AnnotationFlow.starredDates(session, songs: unknown) {
                    dates.merge(found) { old, _ in old }
                }
                catalog.songStarred = dates
                self.knownStarred.withLock { $0 = dates }
                done.resume(returning: catalog)
            }
        }
    }

    /// The catalog of `basis`: the previous one followed through the transactions between them
    /// when the log places both, else built afresh. Remembered for the next build when the log
    /// places `basis` (it is the session's newest).
    private func catalog(following basis: DataBasis, session: LibrarySession) -> Catalog {
        let state = session.transactor.state
        let seq: Int? = state.basis == basis ? state.head : nil
        var catalog: Catalog?
        if let seq, let last = previous.withLock({ $0 }), last.seq <= seq, seq - last.seq <= Self.maxFollowed,
           let change = Self.change(session, from: last.seq, through: seq) {
            catalog = last.catalog.updated(to: basis, by: change)
            updates.add(1, ordering: .relaxed)
        }
        let built = catalog ?? Catalog(basis)
        if let seq { previous.withLock { $0 = (seq, built) } }
        return built
    }

    /// What the transactions after `from` through `through` change; nil when one is an import
    /// (a whole library's songs: building afresh costs less than reading them) or the log cannot
    /// be read.
    private static func change(_ session: LibrarySession, from: Int, through: Int) -> CatalogChange? {
        guard from < through else { return CatalogChange() }
        guard let summaries = try? session.transactor.summaries(from: from + 1, through: through),
              !summaries.contains(where: { $0.kind == Transaction.Kind.import.rawValue }),
              let entries = try? session.transactor.entries(from: from + 1, through: through),
              entries.count == through - from else { return nil }
        return CatalogChange(entries.map(\.transaction))
    }
}

extension SubsonicCall {
    /// The catalog of the library as it is now: an answer built from it reads `catalog.basis`,
    /// so that all of it comes from one snapshot.
    public func catalog() async -> Catalog { await currentCatalog().catalog }

    /// The catalog of the library as it is now, with when the front first saw it.
    public func currentCatalog() async -> CatalogCache.Current {
        await front.catalogs.catalog(of: front.basis, session: front.library.session)
    }
}
