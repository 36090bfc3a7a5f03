/// The generation functions of `boomic eq save` and `eq rm`: user intent → the assertions, on
/// the latest basis. Names are unique case-blind (as playlists' are) and may not be a preset's,
/// since `--eq NAME` looks presets up first and a profile of that name could never be reached.
public enum EQProfileGeneration {
    static let kind = "EQ profile"

    /// Saves `spec` under `name`: a new profile, or the one of that name changed (and renamed
    /// to this spelling). Saving what is already there gives nothing.
    public static func save(_ name: String, spec: EQSpec, id: ListID, on basis: DataBasis) throws(ListError) -> [Assertion] {
        let valid = try ListNames.validated(name, kind: kind)
        if EQPreset.named(valid) != nil || valid.lowercased() == "off" {
            throw .badName(kind: kind, name: valid, reason: "it is a built-in preset's name (--eq looks presets up first); pick another")
        }
        let new = EQProfile(name: valid, spec: spec)
        if let (existing, old) = basis.eqProfile(named: valid) {
            return old == new ? [] : [.eqProfile(existing, EntityChange(old: old, new: new))]
        }
        return [.eqProfile(id, EntityChange(old: nil, new: new))]
    }

    public static func remove(_ name: String, on basis: DataBasis) throws(ListError) -> [Assertion] {
        let (id, old) = try find(name, in: basis)
        return [.eqProfile(id, EntityChange(old: old, new: nil))]
    }

    public static func find(_ name: String, in basis: DataBasis) throws(ListError) -> (ListID, EQProfile) {
        if let found = basis.eqProfile(named: name) { return found }
        throw .notFound(kind: "EQ profile", name: name,
                        suggestion: ListNames.suggestion(for: name, among: basis.eqProfilesByName.map(\.profile.name)))
    }
}

extension DataBasis {
    /// The saved EQ profile of that name, case-blind.
    public func eqProfile(named name: String) -> (id: ListID, profile: EQProfile)? {
        let key = ListNames.key(name)
        return eqProfiles.filter { ListNames.key($0.value.name) == key }.min { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    public var eqProfilesByName: [(id: ListID, profile: EQProfile)] {
        eqProfiles.map { ($0.key, $0.value) }.sorted { ListNames.key($0.profile.name) < ListNames.key($1.profile.name) }
    }
}
