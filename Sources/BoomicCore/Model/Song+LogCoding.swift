/// The log's JSON form of a song's fields: each field under its user's name (`SongField`'s raw
/// value), the name update rows, queries, `modify` and `--json` use, so the log speaks one language.
///
/// Add and delete rows written before that used the Swift property names (`fileValues`,
/// `mbTrackID`); the log is append-only and checksummed, so those rows are read as they are,
/// forever. Both loops go over the field table (`SongField.table`): which fields every row
/// holds, and which are left out while unset, is its `log` column; the old spellings its
/// `oldLogKey`.
extension Song {
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Made once, as are the keys (this runs once per song).
    private static let keys = SongField.table.map { Key(stringValue: $0.name) }
    private static let oldSpelling = SongField.table.map { Key(stringValue: $0.oldLogKey ?? $0.name) }
    private static let fileValuesKey = Key(stringValue: SongField.fileValues.name)
    private static let oldFileValuesKey = Key(stringValue: SongField.fileValues.spec.oldLogKey!)

    /// A field whose `log` is `whenSet` is left out while it has its default value (nil, 0,
    /// empty), so rows read the same whether written before or after a field existed; the
    /// others are always written.
    func encodeFields(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for (spec, k) in zip(SongField.table, Self.keys) {
            let always = spec.log == .always
            switch spec.access {
            case .text(let get, _):
                if let v = get(self) { try c.encode(v, forKey: k) } else if always { try c.encodeNil(forKey: k) }
            case .number(let get, _, _):
                let v = get(self) ?? 0
                if always || spec.isSet(in: self) { try c.encode(v, forKey: k) }
            case .decimal(let get, _, let optional):
                if let v = get(self), always || optional || v != 0 { try c.encode(v, forKey: k) }
            case .flag(let get, _):
                if always || get(self) { try c.encode(get(self), forKey: k) }
            case .list(let get, _):
                let v = get(self)
                if always || !v.isEmpty { try c.encode(v, forKey: k) }
            }
        }
    }

    /// Reads either spelling; the fields always written are required, as they always were.
    /// A row is in one spelling or the other, told by `file_values`, which both always wrote.
    mutating func decodeFields(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let old = !c.contains(Self.fileValuesKey) && c.contains(Self.oldFileValuesKey)
        for (spec, k) in zip(SongField.table, old ? Self.oldSpelling : Self.keys) {
            let always = spec.log == .always
            switch spec.access {
            case .text(_, let set):
                set(&self, always ? try c.decode(String.self, forKey: k) : try c.decodeIfPresent(String.self, forKey: k))
            case .number(_, let set, _):
                set(&self, always ? try c.decode(Int.self, forKey: k) : try c.decodeIfPresent(Int.self, forKey: k))
            case .decimal(_, let set, _):
                set(&self, always ? try c.decode(Double.self, forKey: k) : try c.decodeIfPresent(Double.self, forKey: k))
            case .flag(_, let set):
                set(&self, always ? try c.decode(Bool.self, forKey: k) : try c.decodeIfPresent(Bool.self, forKey: k) ?? false)
            case .list(_, let set):
                set(&self, always ? try c.decode([String].self, forKey: k) : try c.decodeIfPresent([String].self, forKey: k) ?? [])
            }
        }
    }
}
