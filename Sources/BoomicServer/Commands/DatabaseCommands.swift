import BoomicCore
import Foundation

/// Browsing and searching the library: `lsinfo`, `listall…`, `find`, `search`, `list`, `count`.
enum DatabaseCommands {
    static let all: [CommandSpec] = [
        CommandSpec("lsinfo", 0...1) { inv throws(MPDError) in
            let snapshot = inv.snapshot
            let uri = inv.args.first ?? ""
            if let song = snapshot.song(at: uri) {
                inv.response.add(song: song, uri: uri, tags: inv.client.tags)
                return
            }
            guard let dir = snapshot.tree.directory(uri), uri.isEmpty || snapshot.tree.path(for: uri) != nil else {
                throw inv.error(.noExist, "No such directory")
            }
            let prefix = uri.isEmpty ? "" : (uri.hasSuffix("/") ? uri : uri + "/")
            for name in dir.directories {
                inv.response.add("directory", prefix + name)
                addModified(&inv.response, snapshot.tree.directory(prefix + name))
            }
            for song in snapshot.songs(in: dir) {
                inv.response.add(song: song, in: snapshot.tree, tags: inv.client.tags)
            }
            if uri.isEmpty {
                for (_, list) in snapshot.basis.playlistsByName { inv.response.add("playlist", list.name) }
            }
        },
        CommandSpec("listall", 0...1) { inv throws(MPDError) in try walk(&inv, info: false) },
        CommandSpec("listallinfo", 0...1) { inv throws(MPDError) in try walk(&inv, info: true) },
        CommandSpec("listfiles", 0...1) { inv throws(MPDError) in
            let snapshot = inv.snapshot
            let uri = inv.args.first ?? ""
            guard let dir = snapshot.tree.directory(uri), uri.isEmpty || snapshot.tree.path(for: uri) != nil else {
                throw inv.error(.noExist, "No such directory")
            }
            let prefix = uri.isEmpty ? "" : (uri.hasSuffix("/") ? uri : uri + "/")
            for name in dir.directories {
                inv.response.add("directory", name)
                addModified(&inv.response, snapshot.tree.directory(prefix + name))
            }
            for song in snapshot.songs(in: dir) {
                inv.response.add("file", (song.path as NSString).lastPathComponent)
                inv.response.add("size", song.size)
                inv.response.add("Last-Modified", MPDResponse.timeStamp(nanoseconds: song.mtime))
            }
        },
        CommandSpec("find", 1...Int.max) { inv throws(MPDError) in try print(&inv, foldCase: false) },
        CommandSpec("search", 1...Int.max) { inv throws(MPDError) in try print(&inv, foldCase: true) },
        CommandSpec("findadd", 1...Int.max) { inv throws(MPDError) in try add(&inv, foldCase: false) },
        CommandSpec("searchadd", 1...Int.max) { inv throws(MPDError) in try add(&inv, foldCase: true) },
        CommandSpec("count", 1...Int.max) { inv throws(MPDError) in
            let selection = try Selection(inv, from: 0, keywords: ["group"], substrings: false, filterRequired: false)
            let songs = try selection.songs(in: inv.snapshot, foldCase: false, inv: inv, ordered: false)
            guard let group = selection.groups.first else {
                inv.response.add("songs", songs.count)
                inv.response.add("playtime", Int(songs.reduce(0) { $0 + ($1.duration ?? 0) }))
                return
            }
            var counts: [String: (songs: Int, time: Double)] = [:]
            for song in songs {
                let time = song.duration ?? 0
                MPDResponse.forEachValue(of: group, in: song, orEmpty: true) { value in
                    counts[value, default: (0, 0)].songs += 1
                    counts[value, default: (0, 0)].time += time
                }
            }
            for (value, (n, time)) in counts.sorted(by: { $0.key < $1.key }) {
                inv.response.add(group.rawValue, value)
                inv.response.add("songs", n)
                inv.response.add("playtime", Int(time))
            }
        },
        CommandSpec("list", 1...Int.max) { inv throws(MPDError) in
            let typeName = inv.args[0]
            let isFile = typeName.lowercased() == "file"
            let tag = MPDTag(name: typeName)
            if tag == nil && MPDTag.isUnkeptMPDName(typeName) { return }
            guard isFile || tag != nil else { throw inv.error(.argument, "Unknown tag type: \(typeName)") }
            var selection: Selection
            if inv.args.count == 2, tag == .album, !inv.args[1].hasPrefix("(") {
                // The old `list album ARTIST`.
                selection = try Selection(Invocation(server: inv.server, client: inv.client, command: inv.command,
                                                     args: ["artist", inv.args[1]]),
                                          from: 0, keywords: [], substrings: false)
            } else {
                selection = try Selection(inv, from: 1, keywords: ["group"], substrings: false, filterRequired: false)
            }
            let snapshot = inv.snapshot
            if let tag, selection.filter == nil, selection.groups.isEmpty {
                // The whole library's values: the index's keys.
                for v in snapshot.indexes.sortedValues(tag) { inv.response.add(tag.rawValue, v) }
                return
            }
            let songs = try selection.songs(in: snapshot, foldCase: false, inv: inv, ordered: isFile)
            if isFile {
                for song in songs { inv.response.add("file", snapshot.tree.uri(for: song.path) ?? "") }
                return
            }
            try list(&inv, tag: tag!, groups: selection.groups, songs: songs)
        },
    ]

    /// `list TAG group A group B`: the groups' values, each followed by what is under it.
    private static func list(_ inv: inout Invocation, tag: MPDTag, groups: [MPDTag], songs: [Song]) throws(MPDError) {
        guard groups.count <= 2 else { throw inv.error(.argument, "Too many groups") }
        if groups.isEmpty {
            // The common case (`list artist`, `list album`): one set of values, sorted.
            var values: Set<String> = []
            for song in songs { values.formUnion(MPDResponse.values(of: tag, in: song)) }
            for v in values.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) { inv.response.add(tag.rawValue, v) }
            return
        }
        // Every distinct path of values as a tree, one level a tag, each song's values put
        // in place as they are read (no array a song; a set of rows hashed whole, and an array
        // for each song's values, made `list album group albumartist` 9× MPD's time); then
        // printed depth first in byte order, a value when the walk enters it.
        // The last group is the outermost, as MPD nests them (`list genre group artist group
        // album` prints Album, then Artist, then Genre).
        let levels = groups.reversed() + [tag]
        let root = ValueNode()
        for song in songs { root.add(song, levels[...]) }
        root.print(into: &inv.response, levels[...])
    }

    /// One level of `list … group`: the values met under the path to it.
    private final class ValueNode {
        var children: [String: ValueNode] = [:]
        /// The child last gone to: songs come folder by folder, so the next one mostly has the
        /// same album, album artist, genre (and the same string, shared since the checkpoint
        /// was read), and comparing it is cheaper than hashing it.
        var last: (value: String, node: ValueNode)?

        func add(_ song: Song, _ levels: ArraySlice<MPDTag>) {
            guard let level = levels.first else { return }
            MPDResponse.forEachValue(of: level, in: song, orEmpty: true) { value in
                let child: ValueNode
                if let last, last.value == value {
                    child = last.node
                } else if let known = children[value] {
                    child = known
                } else {
                    child = ValueNode()
                    children[value] = child
                }
                last = (value, child)
                child.add(song, levels.dropFirst())
            }
        }

        func print(into response: inout MPDResponse, _ levels: ArraySlice<MPDTag>) {
            guard let level = levels.first else { return }
            let last = levels.count == 1
            for value in children.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                // The tag itself is listed only when it has a value (MPD skips empty ones).
                if !(last && value.isEmpty) { response.add(level.rawValue, value) }
                children[value]!.print(into: &response, levels.dropFirst())
            }
        }
    }

    private static func walk(_ inv: inout Invocation, info: Bool) throws(MPDError) {
        let snapshot = inv.snapshot
        let uri = inv.args.first ?? ""
        if let song = snapshot.song(at: uri) {
            if info { inv.response.add(song: song, uri: uri, tags: inv.client.tags) } else { inv.response.add("file", uri) }
            return
        }
        guard snapshot.tree.directory(uri) != nil, uri.isEmpty || snapshot.tree.path(for: uri) != nil else {
            throw inv.error(.noExist, "No such directory")
        }
        var response = inv.response
        let tags = inv.client.tags
        snapshot.tree.walk(from: uri) { dir, contents in
            // The folder asked for comes first too, as MPD prints it (not the root).
            if !dir.isEmpty {
                response.add("directory", dir)
                if info { addModified(&response, contents) }
            }
            for song in snapshot.songs(in: contents) {
                if info { response.add(song: song, in: snapshot.tree, tags: tags) } else { response.add(file: song, in: snapshot.tree) }
            }
        }
        inv.response = response
    }

    /// A directory's `Last-Modified`, as MPD prints it after `directory:` in `lsinfo`,
    /// `listallinfo` and `listfiles` (not in `listall`).
    private static func addModified(_ response: inout MPDResponse, _ dir: MusicTree.Directory?) {
        guard let dir, dir.modified > 0 else { return }
        response.add("Last-Modified", MPDResponse.timeStamp(seconds: dir.modified))
    }

    private static func print(_ inv: inout Invocation, foldCase: Bool) throws(MPDError) {
        let selection = try Selection(inv, from: 0, keywords: ["sort", "window"], substrings: foldCase)
        let snapshot = inv.snapshot
        for song in try selection.songs(in: snapshot, foldCase: foldCase, inv: inv) {
            inv.response.add(song: song, in: snapshot.tree, tags: inv.client.tags)
        }
    }

    private static func add(_ inv: inout Invocation, foldCase: Bool) throws(MPDError) {
        let selection = try Selection(inv, from: 0, keywords: ["sort", "window", "position"], substrings: foldCase)
        let songs = try selection.songs(in: inv.snapshot, foldCase: foldCase, inv: inv)
        let q = inv.player.status.queue
        let place = try selection.position.map { p throws(MPDError) in try QueueCommands.position(p, queue: q, inv: inv) } ?? .end
        inv.player.perform(.add(songs.map(\.id), at: place))
    }
}
