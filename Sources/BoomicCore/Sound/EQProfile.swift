/// A named equalizer setting the user saved (`boomic eq save NAME SPEC`): a library entity like
/// a playlist, so saving, changing and removing one are transactions that history shows and
/// undo takes back. The spec is kept parsed (bands, preamp, or a GraphicEQ curve's points), so a
/// profile made from an AutoEq file outlives the file.
public struct EQProfile: Hashable, Sendable, Codable, NamedList {
    public var name: String
    public var spec: EQSpec

    public init(name: String, spec: EQSpec) {
        self.name = name
        self.spec = spec
    }
}
