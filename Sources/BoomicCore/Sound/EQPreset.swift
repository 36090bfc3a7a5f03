/// The graphic EQ's presets, with their slider values; Documentation/playback.md lists them, so
/// a change here is a change there.
public enum EQPreset {
    /// In the order the player's `e` key cycles through them; names are lowercase and matched
    /// case blind.
    public static let all: [(name: String, sliders: [Double])] = [
        ("flat", [0, 0, 0, 0, 0, 0]),
        ("rock", [4, 2, -2, -1, 2, 4]),
        ("pop", [-1, 2, 4, 3, 1, -1]),
        ("jazz", [3, 2, -1, 1, 2, 3]),
        ("classical", [3, 1, 0, 0, 1, 3]),
        ("bass", [6, 4, 1, 0, 0, 0]),
        ("vocal", [-2, -1, 2, 4, 3, 0]),
        ("treble", [0, 0, 0, 1, 4, 6]),
        ("dance", [5, 3, 0, -1, 2, 3]),
        ("electronic", [5, 3, 0, -2, 2, 4]),
        ("hiphop", [5, 4, 0, -1, 1, 2]),
        ("acoustic", [3, 1, 1, 2, 2, 2]),
        ("loudness", [5, 2, 0, -1, 1, 5]),
        ("spoken", [-4, -2, 2, 3, 2, -3]),
        ("bass-cut", [-6, -4, -1, 0, 0, 0]),
        ("treble-cut", [0, 0, 0, 0, -4, -6]),
    ]

    public static var names: [String] { all.map(\.name) }

    /// The preset of that name, case blind; `off` is `flat`.
    public static func named(_ name: String) -> EQSpec? {
        let key = name.lowercased()
        if key == "off" { return .flat }
        return all.first { $0.name == key }.map { EQSpec(graphic: $0.sliders) }
    }
}
