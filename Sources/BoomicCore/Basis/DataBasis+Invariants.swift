/// Checks that every derived index agrees with the songs, by rebuilding from scratch.
///
/// Tests call it after each step of random histories, the way swift-collections checks its
/// hash-tree invariants; it is O(n log n) and never runs in the product. Indexes that were
/// kept up to date change by change must equal indexes built from the songs alone.
extension DataBasis {
    public func invariantViolations() -> [String] {
        let rebuilt = Indexes(songs: songs)
        var kept = Indexes()
        kept.albums = albums; kept.artists = artists; kept.tags = tags; kept.paths = paths; kept.fingerprints = fingerprints
        var problems: [String] = []
        if rebuilt.albums != kept.albums { problems.append("album index differs from songs") }
        if rebuilt.artists != kept.artists { problems.append("artist index differs from songs") }
        if rebuilt.tags != kept.tags { problems.append("tag index differs from songs") }
        if rebuilt.paths != kept.paths { problems.append("path index differs from songs") }
        if rebuilt.fingerprints != kept.fingerprints { problems.append("fingerprint index differs from songs") }
        for (id, s) in songs where s.id != id { problems.append("song \(s.id) filed under \(id)") }
        for (kind, names) in [("taglist", taglists.values.map(\.name)), ("playlist", playlists.values.map(\.name)),
                              ("EQ profile", eqProfiles.values.map(\.name))] {
            let keys = names.map(ListNames.key)
            if Set(keys).count != keys.count { problems.append("two \(kind)s share a name: \(names.sorted())") }
        }
        return problems
    }
}
