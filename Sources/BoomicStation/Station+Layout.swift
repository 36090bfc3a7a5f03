import BoomicSystem
import Foundation

/// `player/rooms.json`: the rooms, their outputs and the outputs switched off, as a restarted
/// server puts them back.
extension Station {
    static func layoutPath(_ location: String) -> String { location + "/player/rooms.json" }

    static func loadLayout(_ location: String) -> [Layout] {
        guard let data = FileManager.default.contents(atPath: layoutPath(location)),
              let list = try? JSONDecoder().decode([Layout].self, from: data) else { return [] }
        return list
    }

    /// Keeps which room has which output, and which are switched off, for the next start.
    func saveLayout() {
        guard keepsLayout else { return }
        let list = names.map { name in
            let mine = outputs(of: name)
            let off = mine.filter { !switches[$0.id].isOn }.map(\.name)
            return Layout(name: name, outputs: mine.map(\.name), disabled: off.isEmpty ? nil : off)
        }
        guard let data = try? JSONEncoder().encode(list) else { return }
        try? AtomicFile.write(data, to: Self.layoutPath(library.session.location))
    }

    struct Layout: Codable {
        var name: String
        var outputs: [String]
        /// Its outputs switched off (absent in files from before outputs could be).
        var disabled: [String]?
    }
}
