import BoomicCore
import BoomicLibrary

/// Stickers are library fields, by `MPDSticker`'s mapping (`rating`, `playcount` and `favorite`
/// are Boomic's own fields, any other name the client's sticker). Setting or deleting one is an
/// `edit` transaction with the client in its provenance, so `boomic undo` takes it back.
enum StickerCommands {

    static let all: [CommandSpec] = [
        CommandSpec("sticker", 3...6) { inv throws(MPDError) in
            let sub = inv.args[0]
            guard inv.args[1] == "song" else { throw inv.error(.argument, "unknown sticker domain") }
            switch (sub, inv.args.count) {
            case ("get", 4):
                let song = try song(&inv)
                guard let value = MPDSticker.value(inv.args[3], of: song) else { throw inv.error(.noExist, "no such sticker") }
                inv.response.add("sticker", "\(inv.args[3])=\(value)")
            case ("list", 3):
                let song = try song(&inv)
                for (name, value) in MPDSticker.stickers(of: song) { inv.response.add("sticker", "\(name)=\(value)") }
            case ("set", 5):
                let song = try song(&inv)
                let assignment = try assignment(&inv, song: song, name: inv.args[3], value: inv.args[4])
                try commit(&inv, song: song.id, [assignment], label: inv.args[3])
            case ("delete", 3):
                let song = try song(&inv)
                guard !MPDSticker.stickers(of: song).isEmpty else { throw inv.error(.noExist, "no such sticker") }
                try commit(&inv, song: song.id, MPDSticker.fieldNames.compactMap(MPDSticker.field).map(MPDSticker.cleared) + [FieldAssignment(field: .stickers, value: .null)],
                           label: "all")
            case ("delete", 4):
                let song = try song(&inv)
                let name = inv.args[3]
                guard MPDSticker.value(name, of: song) != nil || song.sticker(name) != nil else { throw inv.error(.noExist, "no such sticker") }
                let assignment = MPDSticker.field(name).map(MPDSticker.cleared) ?? FieldAssignment(field: .stickers, value: .strings(song.stickers.filter {
                    !$0.hasPrefix(name + "=")
                }))
                try commit(&inv, song: song.id, [assignment], label: name)
            case ("find", 4), ("find", 6):
                let snapshot = inv.snapshot
                let name = inv.args[3]
                // MPD looks the stickers up by the path's prefix: a folder that is not there has none.
                guard snapshot.tree.directory(inv.args[2]) != nil else { return }
                var test: (String) -> Bool = { _ in true }
                if inv.args.count == 6 {
                    let wanted = inv.args[5]
                    switch inv.args[4] {
                    case "=": test = { $0 == wanted }
                    case "<": test = { order($0, wanted) < 0 }
                    case ">": test = { order($0, wanted) > 0 }
                    default: throw inv.error(.argument, "bad operator")
                    }
                }
                var songs: [Song] = []
                snapshot.tree.walk(from: inv.args[2]) { _, dir in songs += snapshot.songs(in: dir) }
                for song in songs {
                    guard let v = MPDSticker.value(name, of: song), test(v) else { continue }
                    inv.response.add("file", snapshot.tree.uri(for: song.uriPath) ?? "")
                    inv.response.add("sticker", "\(name)=\(v)")
                }
            default:
                throw inv.error(.argument, "bad request")
            }
        },
    ]

    /// How `sticker find … < / >` orders two values: as numbers when both are (a rating, a
    /// play count, a time stamp, as a client means them), else by their bytes. MPD 0.23 always
    /// compares the text, so there "3" > "20".
    static func order(_ a: String, _ b: String) -> Int {
        if let x = Double(a), let y = Double(b) { return x < y ? -1 : x > y ? 1 : 0 }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : a == b ? 0 : 1
    }

    private static func song(_ inv: inout Invocation) throws(MPDError) -> Song {
        let snapshot = inv.snapshot
        // Found in its directory of the tree: the basis's index of every path would be built on
        // the first sticker a client sets (94 ms at 50,000 songs, on the event loop).
        guard let song = snapshot.song(at: inv.args[2]) else {
            throw inv.error(.noExist, "No such song")
        }
        return song
    }

    private static func assignment(_ inv: inout Invocation, song: Song, name: String, value: String) throws(MPDError) -> FieldAssignment {
        do {
            switch try MPDSticker.meaning(name: name, value: value) {
            case .field(let assignment): return assignment
            case .own(let name, let value):
                return FieldAssignment(field: .stickers, value: .strings(Song.normalizedStickers(song.stickers + [name + "=" + value])))
            }
        } catch {
            throw inv.error(.argument, error.description)
        }
    }

    /// One `edit` transaction, committed off the event loop (`Invocation.blocking`): the write
    /// lock may be another process's for seconds (a `boomic import`), and the loop's other
    /// clients are not kept waiting for it. Past `ServerContext.lockWait` the client gets an ACK
    /// and nothing is committed.
    private static func commit(_ inv: inout Invocation, song: SongID, _ assignments: [FieldAssignment], label: String) throws(MPDError) {
        let command = "mpd: \(inv.client.address) sticker " + inv.args.map(MPDCommandLine.quote).joined(separator: " ")
        let name = "mpd sticker \(inv.args[0]) \(label)", library = inv.server.library
        let failed = inv.error(.system, "")
        inv.blocking = { () throws(MPDError) in
            do {
                _ = try library.session.commit(kind: .edit, message: nil, command: command, lockWait: ServerContext.lockWait) { basis in
                    let a = EditGeneration.modify(basis, songs: [song], set: assignments)
                    return a.isEmpty ? nil : (a, name)
                }
            } catch {
                var e = failed
                e.message = "\(error.localizedDescription)"
                throw e
            }
            library.refreshNow()
        }
    }
}
