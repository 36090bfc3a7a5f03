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
    /// Complexity: over an image, O(distinct sets of user fields) plus a pass over the rows' codes
    /// when the delta shadows some, and the delta's songs; else O(n) in the number of songs, a
    /// song without user fields costing one check.
    public var userFieldNames: Set<String> {
        var names = Set<String>()
        func add(_ entries: [String]) {
            for e in entries { if let eq = e.firstIndex(of: "=") { names.insert(String(e[..<eq])) } }
        }
        if let image = songs.image, let column = image.column(.userFields) {
            var used = [Bool](repeating: !songs.hasDelta, count: column.valueCount + 1)
            if songs.hasDelta {
                for (row, code) in column.codes().enumerated() where !used[Int(code)] && songs.isLive(imageID: image.id(atRow: row)) {
                    used[Int(code)] = true
                }
            }
            for code in 0..<column.valueCount where used[code] { add(column.value(code).strings ?? []) }
            for s in songs.deltaSongs { add(s.userFields) }
            return names
        }
        for s in songs.values { add(s.userFields) }
        return names
    }
}
