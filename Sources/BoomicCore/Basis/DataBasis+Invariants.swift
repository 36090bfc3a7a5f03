/// Checks that every derived index agrees with the songs, by rebuilding from scratch.
///
/// Tests call it after each step of random histories, the way swift-collections checks its
/// hash-tree invariants; it is O(n log n) and never runs in the product.
extension DataBasis {
    public func invariantViolations() -> [String] {
        let rebuilt = DataBasis(songs: songs.values)
        var problems: [String] = []
        if rebuilt.albums != albums { problems.append("album index differs from songs") }
        if rebuilt.artists != artists { problems.append("artist index differs from songs") }
        if rebuilt.tags != tags { problems.append("tag index differs from songs") }
        if rebuilt.paths != paths { problems.append("path index differs from songs") }
        if rebuilt.fingerprints != fingerprints { problems.append("fingerprint index differs from songs") }
        for (id, s) in songs where s.id != id { problems.append("song \(s.id) filed under \(id)") }
        return problems
    }
}
