import BoomicCore
import BoomicLibrary
import Foundation

/// Stored playlists are Boomic's playlists: each change a transaction (provenance
/// `mpd: ADDRESS COMMAND`), so a client's edit can be undone like any other. Taglists show as
/// read-only playlists named `taglist: NAME`, always current; `load` takes their songs as they
/// are now.
enum StoredPlaylistCommands {
    static let all: [CommandSpec] = [
        CommandSpec("listplaylists") { inv throws(MPDError) in
            addPlaylists(&inv)
            for (id, list) in inv.snapshot.basis.taglistsByName {
                inv.response.add("playlist", ListNames.taglistPrefix + list.name)
                inv.response.add("Last-Modified", stamp(id, inv))
            }
        },
        // The optional range is MPD 0.24's (`listplaylist NAME 10:20`), taken as `load` takes it.
        CommandSpec("listplaylist", 1...2) { inv throws(MPDError) in
            let answer: @Sendable (ArraySlice<(uri: String, song: Song?)>) -> MPDResponse = { listed in
                var response = MPDResponse()
                for entry in listed { response.add("file", entry.uri) }
                return response
            }
            if let read = try fileReader(inv) {
                inv.reading = { () throws(MPDError) in answer(try read()) }
                return
            }
            inv.response = answer(try windowed(entries(of: inv.args[0], inv: inv, snapshot: inv.snapshot), inv))
        },
        // An entry of a playlist file that is not in the library is its path alone, as in MPD.
        CommandSpec("listplaylistinfo", 1...2) { inv throws(MPDError) in
            let tags = inv.client.tags
            let answer: @Sendable (ArraySlice<(uri: String, song: Song?)>) -> MPDResponse = { listed in
                var response = MPDResponse()
                response.write(ItemLines.playlist(listed, tags: tags), upTo: LongAnswers.slice)
                return response
            }
            if let read = try fileReader(inv) {
                inv.reading = { () throws(MPDError) in answer(try read()) }
                return
            }
            inv.response = answer(try windowed(entries(of: inv.args[0], inv: inv, snapshot: inv.snapshot), inv))
        },
        CommandSpec("load", 1...3) { inv throws(MPDError) in
            if let read = try fileReader(inv) {
                // A playlist file is read off the loop, and its songs added there.
                let player = try inv.player
                let place = inv.args.count > 2 ? try QueueCommands.position(inv.args[2], queue: player.status.queue, inv: inv) : .end
                let add = adder(at: place, to: player, inv: inv)
                inv.reading = { () throws(MPDError) in
                    try add(try read().compactMap(\.song))
                    return MPDResponse()
                }
                return
            }
            let songs = try windowed(songs(of: inv.args[0], inv: inv, snapshot: inv.snapshot), inv)
            let q = try inv.player.status.queue
            let place = inv.args.count > 2 ? try QueueCommands.position(inv.args[2], queue: q, inv: inv) : .end
            try inv.player.perform(.add(songs.map(\.id), at: place))
        },
        CommandSpec("save", 1...2) { inv throws(MPDError) in
            let name = inv.args[0]
            let mode = inv.args.count > 1 ? inv.args[1] : "create"
            let q = try inv.player.status.queue
            let ids = q.entries.map(\.song)
            try writable(name, inv: inv)
            try valid(name, inv: inv)
            try commit(&inv, label: "save \(name)") { basis throws(ListError) in
                switch mode {
                case "create": return try PlaylistGeneration.create(name, songs: ids, id: ListID(UUID()), on: basis)
                case "replace":
                    return basis.playlist(named: name) == nil
                        ? try PlaylistGeneration.create(name, songs: ids, id: ListID(UUID()), on: basis)
                        : try PlaylistGeneration.replace(name, songs: ids, on: basis)
                case "append":
                    return basis.playlist(named: name) == nil
                        ? try PlaylistGeneration.create(name, songs: ids, id: ListID(UUID()), on: basis)
                        : try PlaylistGeneration.add(name, songs: ids, on: basis)
                default: throw ListError.badName(kind: "mode", name: mode, reason: "create, append or replace")
                }
            }
        },
        CommandSpec("playlistadd", 2...3) { inv throws(MPDError) in
            let name = inv.args[0]
            try writable(name, inv: inv)
            // `/` is the whole library, as to `add`.
            let uri = inv.args[1] == "/" ? "" : inv.args[1]
            // MPD looks a path for a TCP client up in its database, where an absolute one is no
            // directory (a `file://` URL is a local file, and refused as `add` refuses it).
            if uri.hasPrefix("/"), !inv.client.isLocal { throw inv.error(.noExist, "No such directory") }
            let ids = try QueueCommands.songs(at: uri, snapshot: inv.snapshot, inv: inv).map(\.id)
            let position = inv.args.count > 2 ? try inv.unsigned(2) + 1 : nil
            try valid(name, inv: inv)
            try commit(&inv, label: "playlistadd \(name) \(inv.args[1])", badPosition: "Bad position") { basis throws(ListError) in
                basis.playlist(named: name) == nil
                    ? try PlaylistGeneration.create(name, songs: ids, id: ListID(UUID()), on: basis)
                    : try PlaylistGeneration.add(name, songs: ids, at: position, on: basis)
            }
        },
        CommandSpec("searchaddpl", 2...Int.max) { inv throws(MPDError) in
            let name = inv.args[0]
            try writable(name, inv: inv)
            let selection = try Selection(inv, from: 1, keywords: ["sort", "window", "position"], substrings: true)
            let ids = try selection.songs(in: inv.snapshot, foldCase: true, inv: inv).map(\.id)
            try valid(name, inv: inv)
            try commit(&inv, label: "searchaddpl \(name)") { basis throws(ListError) in
                basis.playlist(named: name) == nil
                    ? try PlaylistGeneration.create(name, songs: ids, id: ListID(UUID()), on: basis)
                    : try PlaylistGeneration.add(name, songs: ids, on: basis)
            }
        },
        CommandSpec("playlistclear", 1...1) { inv throws(MPDError) in
            let name = inv.args[0]
            try writable(name, inv: inv)
            try commit(&inv, label: "playlistclear \(name)") { basis throws(ListError) in
                try PlaylistGeneration.replace(name, songs: [], on: basis)
            }
        },
        CommandSpec("playlistdelete", 2...2) { inv throws(MPDError) in
            let name = inv.args[0]
            try writable(name, inv: inv)
            let count = inv.snapshot.basis.playlist(named: name)?.playlist.songs.count ?? 0
            let range = try inv.range(1, count: count)
            try commit(&inv, label: "playlistdelete \(name) \(inv.args[1])") { basis throws(ListError) in
                try PlaylistGeneration.remove(name, positions: range.map { $0 + 1 }, on: basis)
            }
        },
        CommandSpec("playlistmove", 3...3) { inv throws(MPDError) in
            let name = inv.args[0]
            try writable(name, inv: inv)
            let from = try inv.unsigned(1) + 1, to = try inv.unsigned(2) + 1
            try commit(&inv, label: "playlistmove \(name) \(from - 1) \(to - 1)", badPosition: "Bad range") { basis throws(ListError) in
                try PlaylistGeneration.move(name, from: from, to: to, on: basis)
            }
        },
        CommandSpec("rename", 2...2) { inv throws(MPDError) in
            let (name, new) = (inv.args[0], inv.args[1])
            try writable(name, inv: inv)
            try writable(new, inv: inv)
            try valid(new, inv: inv)
            try commit(&inv, label: "rename \(name) \(new)", exists: "Playlist exists already") { basis throws(ListError) in
                try PlaylistGeneration.rename(name, to: new, on: basis)
            }
        },
        CommandSpec("rm", 1...1) { inv throws(MPDError) in
            let name = inv.args[0]
            try writable(name, inv: inv)
            try valid(name, inv: inv)  // MPD checks the name before it looks for the list
            try commit(&inv, label: "rm \(name)") { basis throws(ListError) in try PlaylistGeneration.delete(name, on: basis) }
        },
    ]

    /// `items` cut to the range in the second argument, when there is one.
    private static func windowed<T>(_ items: [T], _ inv: Invocation) throws(MPDError) -> ArraySlice<T> {
        inv.args.count > 1 ? items[try inv.range(1, count: items.count, .clipped)] : items[...]
    }

    /// What a playlist file in the music folders (not a library playlist or taglist of that
    /// name) holds, in the range asked for: a reader to run off the event loop
    /// (`Invocation.reading`), since it reads the file; nil for any other name.
    private static func fileReader(_ inv: Invocation) throws(MPDError) -> (@Sendable () throws(MPDError) -> ArraySlice<(uri: String, song: Song?)>)? {
        let snapshot = inv.snapshot, name = inv.args[0], basis = snapshot.basis
        guard basis.playlist(named: name) == nil, taglistName(name).flatMap({ basis.taglist(named: $0) }) == nil,
              snapshot.tree.path(for: name) != nil, let file = snapshot.tree.playlist(at: name) else { return nil }
        // Parsed now, cut to the file's length once it is read (as `windowed` cuts it).
        let range = inv.args.count > 1 && inv.args[1] != "-1" ? try inv.range(inv.args[1]) : nil
        let missing = inv.error(.noExist, "No such playlist")
        return { () throws(MPDError) in
            guard let uris = file.uris(in: snapshot.tree, exists: { snapshot.song(at: $0) != nil }) else { throw missing }
            let entries = uris.map { (uri: $0, song: snapshot.song(at: $0)) }
            return range.map { entries[min($0.lowerBound, entries.count)..<min($0.upperBound, entries.count)] } ?? entries[...]
        }
    }

    /// Adds songs to a player's queue from work off the loop.
    private static func adder(at place: QueueCommand.Place, to player: ServerPlayer, inv: Invocation) -> @Sendable ([Song]) throws(MPDError) -> Void {
        let replaced = inv.error(.system, "the room's player was replaced meanwhile; try again")
        return { songs throws(MPDError) in
            do throws(MPDError) { try player.perform(.add(songs.map(\.id), at: place)) } catch {
                throw error.isRoomRestarting ? replaced : error
            }
        }
    }

    /// A playlist's songs, a taglist's as it selects now, or those of a playlist file in the
    /// music folders (its path, as `lsinfo` lists it) that are in the library.
    static func songs(of name: String, inv: Invocation, snapshot: ServerLibrary.Snapshot) throws(MPDError) -> [Song] {
        try entries(of: name, inv: inv, snapshot: snapshot).compactMap(\.song)
    }

    /// `songs(of:)` with each song's client path; a playlist file's entries that are not in the
    /// library come with no song.
    static func entries(of name: String, inv: Invocation, snapshot: ServerLibrary.Snapshot) throws(MPDError) -> [(uri: String, song: Song?)] {
        let basis = snapshot.basis
        func listed(_ songs: [Song]) -> [(uri: String, song: Song?)] { songs.map { (snapshot.tree.uri(for: $0.uriPath) ?? $0.uriPath, $0) } }
        if let (_, list) = basis.playlist(named: name) { return listed(list.songs.compactMap { basis[$0] }) }
        if let taglist = taglistName(name), let (_, list) = basis.taglist(named: taglist) { return listed(basis.songs(in: list)) }
        if snapshot.tree.path(for: name) != nil, let file = snapshot.tree.playlist(at: name),
           let uris = file.uris(in: snapshot.tree, exists: { snapshot.song(at: $0) != nil }) {
            return uris.map { ($0, snapshot.song(at: $0)) }
        }
        // A playlist file named by its path on the file system: never opened here, and not
        // for a TCP client to name at all, as in MPD.
        try inv.refuseLocalFileOverTCP(name)
        throw inv.error(.noExist, "No such playlist")
    }

    private static func taglistName(_ name: String) -> String? {
        let prefix = ListNames.taglistPrefix.trimmingCharacters(in: .whitespaces)
        guard name.lowercased().hasPrefix(prefix) else { return nil }
        return name.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
    }

    /// Taglists are rules, not lists: a client cannot edit them.
    private static func writable(_ name: String, inv: Invocation) throws(MPDError) {
        if taglistName(name) != nil {
            throw inv.error(.permission, "taglists are read-only here; change them with 'boomic taglist'")
        }
    }

    /// The library's playlists, each with its `Last-Modified`, as MPD lists stored playlists
    /// in `listplaylists` and at the end of `lsinfo` of the root.
    static func addPlaylists(_ inv: inout Invocation) {
        for (id, list) in inv.snapshot.basis.playlistsByName {
            inv.response.add("playlist", list.name)
            inv.response.add("Last-Modified", stamp(id, inv))
        }
    }

    private static func stamp(_ id: ListID, _ inv: Invocation) -> String {
        let when = inv.server.library.listStamp(id, started: inv.server.started)
        return MPDResponse.timeStamp(seconds: Int(when.timeIntervalSince1970))
    }

    /// A name MPD takes for a new stored playlist: not empty, no `/` and no line break (it
    /// names a file there). Existing Boomic playlists named otherwise are still listed, loaded
    /// and removed.
    private static func valid(_ name: String, inv: Invocation) throws(MPDError) {
        guard !name.isEmpty, !name.contains(where: { $0 == "/" || $0.isNewline }) else {
            throw inv.error(.argument, "Bad playlist name")
        }
    }

    /// One transaction, named after the client and its command; idle clients hear `stored_playlist`.
    /// `badPosition` and `exists` are MPD's texts for a position outside the playlist and a
    /// name taken, which differ by command.
    ///
    /// Committed off the event loop (`Invocation.blocking`), as stickers are: past
    /// `ServerContext.lockWait` for the write lock, an ACK and nothing committed.
    private static func commit(_ inv: inout Invocation, label: String, badPosition: String = "Bad song index",
                               exists: String = "Playlist already exists",
                               _ generate: @escaping @Sendable (DataBasis) throws(ListError) -> [Assertion]) throws(MPDError) {
        let command = "mpd: \(inv.client.address) \(inv.command) " + inv.args.map(MPDCommandLine.quote).joined(separator: " ")
        let library = inv.server.library, name = inv.command
        inv.blocking = { () throws(MPDError) in
            do {
                _ = try library.session.commit(kind: .playlist, message: nil, command: command, lockWait: ServerContext.lockWait) { basis in
                    let a = try generate(basis)
                    return a.isEmpty ? nil : (a, "mpd " + label)
                }
            } catch let error as ListError {
                switch error {
                case .notFound: throw MPDError(.noExist, "No such playlist", command: name)
                case .exists: throw MPDError(.exist, exists, command: name)
                case .badPosition: throw MPDError(.argument, badPosition, command: name)
                case .badName: throw MPDError(.argument, error.message, command: name)
                }
            } catch {
                throw MPDError(.system, "\(error.localizedDescription)", command: name)
            }
            library.refreshNow()
        }
    }
}
