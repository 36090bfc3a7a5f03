extension SearchPass {
    /// The image's rows whose song may match: `mayMatch`'s test (every word inside some searched
    /// field) made on each distinct value of the searched columns once, then each row's fields'
    /// answers combined, so that only the candidates are materialised (at 50,000 songs, a few
    /// hundred of them, where reading every song whole was most of a search). Nil when the image
    /// lacks one of the columns; the caller then scans every song.
    ///
    /// A superset of the rows `mayMatch` passes, never fewer: the album artist counts whether
    /// or not the song has an album, a compilation counts its "Various Artists" beside it, and a
    /// song without a title (named by its file) is always a candidate. The full test then
    /// decides, so the hits are those of a scan of every song.
    mutating func candidateRows(in image: any SongImage) -> [Int]? {
        let texts: [SongField] = [.artists, .album, .albumartist, .composer]
        guard let title = image.column(.title), let compilation = image.column(.compilation) else { return nil }
        let columns = texts.compactMap { image.column($0) }
        guard columns.count == texts.count else { return nil }
        let n = image.rowCount
        // Each row's words found so far; a row without a title is marked found outright.
        var found = [UInt64](repeating: 0, count: n)
        let titleMasks = title.map { value -> UInt64 in
            let t = value.string ?? ""
            return t.isEmpty ? .max : wordsInside(t)
        }
        add(titleMasks, of: title, to: &found)
        for column in columns {
            let masks = column.map { value -> UInt64 in
                switch value {
                case .string(let s): wordsInside(s)
                case .strings(let xs): xs.reduce(0) { $0 | wordsInside($1) }
                default: 0
                }
            }
            add(masks, of: column, to: &found)
        }
        let various = wordsInside("Various Artists")
        if various != 0 {
            add(compilation.map { $0 == .bool(true) ? various : 0 }, of: compilation, to: &found)
        }
        let all = query.all
        return found.indices.filter { found[$0] & all == all }
    }

    /// The words of the query inside `field`, squashed as `mayMatch` squashes a field.
    private mutating func wordsInside(_ field: String) -> UInt64 {
        guard !field.isEmpty else { return 0 }
        scratch.count = 0
        text.appendSquash(field, to: &scratch)
        return scratch.storage.withUnsafeBufferPointer { query.wordsInside(squash: UnsafeBufferPointer(rebasing: $0[..<scratch.count])) }
    }

    /// ORs each row's mask (by its code in `column`) into `found`; a column none of whose values
    /// holds a word is not read.
    private func add(_ masks: [UInt64], of column: SongImageColumn, to found: inout [UInt64]) {
        guard masks.contains(where: { $0 != 0 }) else { return }
        let codes = column.codes()
        for (row, code) in codes.enumerated() { found[row] |= masks[Int(code)] }
    }
}
