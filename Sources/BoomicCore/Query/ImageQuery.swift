/// A query evaluated on an image's columns (storage.md, "Queries on columns and indexes"): each
/// term tests the distinct values of the field it names once, then picks the rows whose code
/// passed; AND, OR and NOT combine row sets. No song is materialised to decide a match.
///
/// Gives exactly the rows `QueryMatcher` would match among the image's songs (the law its tests
/// check on random libraries and queries), or nil when the image lacks a column the query needs
/// (the caller then tests every song).
struct ImageQuery {
    let image: any SongImage
    let budget: RegexBudget
    /// The fields the query's terms read, as `rows` finds them: a song whose changes since the
    /// image touch none of them matches exactly when its row does.
    private(set) var read: Set<SongField> = []

    mutating func rows(_ q: Query) -> RowSet? {
        let n = image.rowCount
        switch q {
        case .all:
            return RowSet(count: n, all: true)
        case .not(let inner):
            return rows(inner)?.complement()
        case .and(let qs):
            var out = RowSet(count: n, all: true)
            for q in qs {
                guard let r = rows(q) else { return nil }
                out.formIntersection(r)
            }
            return out
        case .or(let qs):
            var out = RowSet(count: n)
            for q in qs {
                guard let r = rows(q) else { return nil }
                out.formUnion(r)
            }
            return out
        case .tag(let name, let children):
            let prefix = name + ":"
            return rows(.tags) { v in (v.strings ?? []).contains { children ? $0.hasPrefix(prefix) : $0 == name } }
        case .anyField(let m):
            let t = QueryMatcher.compile(m, budget)
            var out = RowSet(count: n)
            for f in Query.anyFieldTargets {
                guard let r = rows(f, t) else { return nil }
                out.formUnion(r)
            }
            return out
        case .field(.artists, let m):
            // `artist:` is any listed artist, the list joined, or the file's credit.
            let t = QueryMatcher.compile(m, budget)
            guard var out = rows(.artists, t), let credit = rows(.artistCredit, { !$0.isNull && t($0) }) else { return nil }
            out.formUnion(credit)
            return out
        case .field(.path, .pathPrefix(let prefix)):
            return rows(underPath: prefix)
        case .field(let f, let m):
            let t = QueryMatcher.compile(m, budget)
            return rows(f) { t(f.matchValue(of: $0)) }
        case .userField(let name, let m):
            let t = QueryMatcher.compile(m, budget)
            let isRange = if case .range = m { true } else { false }
            return rows(.userFields) { v in
                // The entries as stored, read as a song reads them.
                var s = Song(id: SongID(.init(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))), path: "")
                s.userFields = v.strings ?? []
                let text = s.userField(name)
                return t(isRange ? UserFieldValue.typed(text) : text.map(FieldValue.string) ?? .null)
            }
        }
    }

    /// The rows of `path:` of a folder or file. A path matching an ASCII prefix (as a `String`,
    /// by canonical equivalence) starts with its bytes, so the candidates are the range of rows
    /// whose path starts with those bytes (`image.rows(withPathBytesPrefix:)`), each then tested
    /// as a scan tests it (`/music/a` also starts `/music/ab/…`); any other prefix tests every
    /// path.
    private mutating func rows(underPath prefix: String) -> RowSet? {
        let t = QueryMatcher.compile(.pathPrefix(prefix), budget)
        guard prefix.utf8.allSatisfy({ $0 < 0x80 }), let range = image.rows(withPathBytesPrefix: Array(prefix.utf8)),
              let paths = image.column(.path) else {
            return rows(.path) { t(SongField.path.matchValue(of: $0)) }
        }
        read.insert(.path)
        var out = RowSet(count: image.rowCount)
        out.insert { add in for row in range where t(SongField.path.matchValue(of: paths.value(row))) { add(row) } }
        return out
    }

    /// The rows whose value of `field` (as `SongField.value(in:)` gives it) passes `test`: one
    /// test per distinct value, then one look-up per row.
    private mutating func rows(_ field: SongField, _ test: (FieldValue) -> Bool) -> RowSet? {
        read.insert(field)
        return image.rows(of: field, where: test)
    }
}
