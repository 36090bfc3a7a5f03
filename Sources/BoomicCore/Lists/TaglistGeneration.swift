/// The generation functions of `boomic taglist`: user intent → the assertions, on the latest basis.
///
/// Pure like the other generations; a change that would change nothing gives no assertions, so
/// no transaction is committed.
public enum TaglistGeneration {
    /// Adds a taglist under a name no other taglist has (names fold case and accents).
    public static func add(_ taglist: Taglist, id: ListID, on basis: DataBasis) throws(ListError) -> [Assertion] {
        var t = taglist
        t.name = try ListNames.validated(t.name, kind: "taglist")
        if let (_, existing) = basis.taglist(named: t.name) { throw .exists(kind: "taglist", name: existing.name) }
        return [.taglist(id, EntityChange(old: nil, new: t))]
    }

    /// Gives the taglist new clauses and/or a new name; `nil` keeps what it has.
    public static func edit(_ name: String, clauses: [Clause]?, rename: String?, on basis: DataBasis) throws(ListError) -> [Assertion] {
        let (id, old) = try find(name, in: basis)
        var new = old
        if let clauses { new.clauses = clauses }
        if let rename {
            new.name = try ListNames.validated(rename, kind: "taglist")
            if let (other, existing) = basis.taglist(named: new.name), other != id { throw .exists(kind: "taglist", name: existing.name) }
        }
        return new == old ? [] : [.taglist(id, EntityChange(old: old, new: new))]
    }

    public static func remove(_ name: String, on basis: DataBasis) throws(ListError) -> [Assertion] {
        let (id, old) = try find(name, in: basis)
        return [.taglist(id, EntityChange(old: old, new: nil))]
    }

    public static func find(_ name: String, in basis: DataBasis) throws(ListError) -> (ListID, Taglist) {
        if let found = basis.taglist(named: name) { return found }
        throw .notFound(kind: "taglist", name: name,
                        suggestion: ListNames.suggestion(for: name, among: basis.taglistsByName.map(\.taglist.name)))
    }
}
