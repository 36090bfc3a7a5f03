import BoomicCore
import BoomicLibrary

/// Stickers are library fields: `rating` (0–10 as MPD clients use it; Boomic keeps 0–5
/// stars, so a client's 7 is 4 stars, read back as 8), `playcount` and `favorite` (0 or 1).
/// Setting or deleting one is an `edit` transaction with the client in its provenance.
enum StickerCommands {
    static let names = ["rating", "playcount", "favorite"]

    static let all: [CommandSpec] = [
        CommandSpec("sticker", 3...6) { inv throws(MPDError) in
            let sub = inv.args[0]
            guard inv.args[1] == "song" else { throw inv.error(.argument, "unknown sticker domain") }
            switch (sub, inv.args.count) {
            case ("get", 4):
                let song = try song(&inv)
                guard let value = value(inv.args[3], of: song) else { throw inv.error(.noExist, "no such sticker") }
                inv.response.add("sticker", "\(inv.args[3])=\(value)")
            case ("list", 3):
                let song = try song(&inv)
                for name in names { if let v = value(name, of: song) { inv.response.add("sticker", "\(name)=\(v)") } }
            case ("set", 5):
                let song = try song(&inv)
                let assignment = try assignment(&inv, name: inv.args[3], value: inv.args[4])
                try commit(&inv, song: song.id, assignment)
            case ("delete", 3), ("delete", 4):
                let song = try song(&inv)
                let which = inv.args.count == 4 ? [inv.args[3]] : names
                for name in which {
                    guard let field = field(name) else { throw inv.error(.noExist, "no such sticker") }
                    if inv.args.count == 4, value(name, of: song) == nil { throw inv.error(.noExist, "no such sticker") }
                    try commit(&inv, song: song.id, FieldAssignment(field: field, value: field == .favorite ? .bool(false) : .null))
                }
            case ("find", 4), ("find", 6):
                let snapshot = inv.snapshot
                let name = inv.args[3]
                guard field(name) != nil else { return }
                guard snapshot.tree.directory(inv.args[2]) != nil else { throw inv.error(.noExist, "No such directory") }
                // MPD 0.23's operators: =, < and >. Boomic's stickers are numbers (rating,
                // playcount, favorite), so < and > compare them as numbers, as a client means it.
                var test: (String) -> Bool = { _ in true }
                if inv.args.count == 6 {
                    let wanted = inv.args[5]
                    func compare(_ value: String) -> Double? {
                        guard let a = Double(value), let b = Double(wanted) else { return nil }
                        return a - b
                    }
                    switch inv.args[4] {
                    case "=": test = { $0 == wanted }
                    case "<": test = { (compare($0) ?? 0) < 0 }
                    case ">": test = { (compare($0) ?? 0) > 0 }
                    default: throw inv.error(.argument, "bad operator")
                    }
                }
                var songs: [Song] = []
                snapshot.tree.walk(from: inv.args[2]) { _, dir in songs += snapshot.songs(in: dir) }
                for song in songs {
                    guard let v = value(name, of: song), test(v) else { continue }
                    inv.response.add("file", snapshot.tree.uri(for: song.path) ?? "")
                    inv.response.add("sticker", "\(name)=\(v)")
                }
            default:
                throw inv.error(.argument, "bad request")
            }
        },
    ]

    private static func field(_ name: String) -> SongField? {
        switch name {
        case "rating": .rating
        case "playcount": .playcount
        case "favorite": .favorite
        default: nil
        }
    }

    /// A sticker's value as clients read it; nil when the song has none.
    static func value(_ name: String, of song: Song) -> String? {
        switch name {
        case "rating": song.rating.map { String($0 * 2) }
        case "playcount": song.playcount > 0 ? String(song.playcount) : nil
        case "favorite": song.favorite ? "1" : nil
        default: nil
        }
    }

    private static func song(_ inv: inout Invocation) throws(MPDError) -> Song {
        let snapshot = inv.snapshot
        guard let path = snapshot.tree.path(for: inv.args[2]), let song = snapshot.basis.song(atPath: path) else {
            throw inv.error(.noExist, "No such song")
        }
        return song
    }

    private static func assignment(_ inv: inout Invocation, name: String, value: String) throws(MPDError) -> FieldAssignment {
        switch name {
        case "rating":
            guard let n = Int(value), (0...10).contains(n) else { throw inv.error(.argument, "rating takes 0 to 10") }
            return FieldAssignment(field: .rating, value: n == 0 ? .null : .int((n + 1) / 2))
        case "playcount":
            guard let n = Int(value), n >= 0 else { throw inv.error(.argument, "playcount takes a whole number") }
            return FieldAssignment(field: .playcount, value: .int(n))
        case "favorite":
            guard value == "0" || value == "1" else { throw inv.error(.argument, "favorite takes 0 or 1") }
            return FieldAssignment(field: .favorite, value: .bool(value == "1"))
        default:
            throw inv.error(.argument, "Boomic keeps the stickers rating, playcount and favorite")
        }
    }

    private static func commit(_ inv: inout Invocation, song: SongID, _ assignment: FieldAssignment) throws(MPDError) {
        let command = "mpd: \(inv.client.address) sticker " + inv.args.map(MPDCommandLine.quote).joined(separator: " ")
        do {
            _ = try inv.server.library.session.commit(kind: .edit, message: nil, command: command) { basis in
                let a = EditGeneration.modify(basis, songs: [song], set: [assignment])
                return a.isEmpty ? nil : (a, "mpd sticker \(inv.args[0]) \(assignment.field.rawValue)")
            }
        } catch {
            throw inv.error(.system, "\(error.localizedDescription)")
        }
        inv.server.library.refreshNow()
    }
}
