import HashTreeCollections

/// The songs under one index key: most keys (a path, a fingerprint) name exactly one song, so
/// that case is stored inline and only larger sets pay for a persistent `TreeSet`.
///
/// Opening a 50,000-song library builds 100,000 such sets; one-element `TreeSet`s would make
/// that step several times slower. Always canonical (one element is `.one`), so `==` is by content.
public struct SongIDSet: Hashable, Sendable, Sequence, ExpressibleByArrayLiteral {
    private enum Storage: Hashable, Sendable {
        case empty
        case one(SongID)
        case many(TreeSet<SongID>)
    }

    private var storage: Storage

    public init() { storage = .empty }

    public init(_ ids: some Sequence<SongID>) {
        storage = .empty
        for id in ids { insert(id) }
    }

    public init(arrayLiteral ids: SongID...) { self.init(ids) }

    public var isEmpty: Bool { if case .empty = storage { true } else { false } }

    public var count: Int {
        switch storage {
        case .empty: 0
        case .one: 1
        case .many(let s): s.count
        }
    }

    public func contains(_ id: SongID) -> Bool {
        switch storage {
        case .empty: false
        case .one(let x): x == id
        case .many(let s): s.contains(id)
        }
    }

    public mutating func insert(_ id: SongID) {
        switch storage {
        case .empty: storage = .one(id)
        case .one(let x): if x != id { storage = .many([x, id]) }
        case .many(var s):
            storage = .empty // drop the reference so the set is uniquely held and grows in place
            s.insert(id)
            storage = .many(s)
        }
    }

    public mutating func remove(_ id: SongID) {
        switch storage {
        case .empty: break
        case .one(let x): if x == id { storage = .empty }
        case .many(var s):
            storage = .empty
            s.remove(id)
            storage = s.count == 1 ? .one(s.first!) : .many(s)
        }
    }

    public func makeIterator() -> AnyIterator<SongID> {
        switch storage {
        case .empty: return AnyIterator { nil }
        case .one(let x):
            var done = false
            return AnyIterator { defer { done = true }; return done ? nil : x }
        case .many(let s):
            var it = s.makeIterator()
            return AnyIterator { it.next() }
        }
    }
}
