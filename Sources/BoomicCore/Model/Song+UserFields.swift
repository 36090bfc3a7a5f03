extension Song {
    /// The user's fields by name (`mood` → `happy`).
    public var userFieldMap: [String: String] {
        var out: [String: String] = [:]
        for e in userFields {
            guard let eq = e.firstIndex(of: "=") else { continue }
            out[String(e[..<eq])] = String(e[e.index(after: eq)...])
        }
        return out
    }

    /// One user field's value, nil when the song lacks it.
    public func userField(_ name: String) -> String? {
        let prefix = name + "="
        // Entries are few and sorted; a scan is cheaper than building the map.
        for e in userFields where e.hasPrefix(prefix) { return String(e.dropFirst(prefix.count)) }
        return nil
    }

    /// Sets (or with nil, clears) one user field, keeping the others.
    public mutating func setUserField(_ name: String, to value: String?) {
        var map = userFieldMap
        map[name] = value.flatMap { $0.isEmpty ? nil : $0 }
        userFields = Song.normalizedUserFields(map.map { $0.key + "=" + $0.value })
    }
}

extension DataBasis {
    /// The names of the user fields some song carries, for resolving names in queries and
    /// `modify` (a user field exists while a song has it, as a beets flexible attribute does).
    ///
    /// Complexity: O(n) in the number of songs; a song without user fields costs one check.
    public var userFieldNames: Set<String> {
        var names = Set<String>()
        for s in songs.values {
            for e in s.userFields { if let eq = e.firstIndex(of: "=") { names.insert(String(e[..<eq])) } }
        }
        return names
    }
}
