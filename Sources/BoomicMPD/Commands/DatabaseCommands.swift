import BoomicCore
import Foundation

/// Browsing and searching the library: `lsinfo`, `listall…`, `find`, `search`, `list`, `count`.
enum DatabaseCommands {
    static let all: [CommandSpec] = [
        CommandSpec("lsinfo", 0...1) { inv throws(MPDError) in
            let snapshot = inv.snapshot
            // "/" is the root, as MPD reads it for old clients.
            let uri = inv.args.first.map { $0 == "/" ? "" : $0 } ?? ""
            try inv.refuseURL(uri)
            // An absolute path is a local file to MPD (`QueueCommands.songs(at:)`): refused over
            // TCP; on the local socket, the library's song there.
            if Invocation.isLocalFile(uri) {
                let song = try QueueCommands.songs(at: uri, snapshot: snapshot, inv: inv)[0]
                inv.response.add(song: song, uri: song.path, tags: inv.client.tags)
                return
            }
            if let song = snapshot.song(at: uri) {
                inv.response.add(song: song, uri: uri, tags: inv.client.tags)
                return
            }
            guard let dir = snapshot.tree.directory(uri), uri.isEmpty || snapshot.tree.path(for: uri) != nil else {
                throw inv.error(.noExist, "No such directory")
            }
            let prefix = uri.isEmpty ? "" : uri + "/"
            // Songs, playlist files, then folders: MPD's order within a directory.
            for song in snapshot.songs(in: dir) {
                inv.response.add(song: song, in: snapshot.tree, tags: inv.client.tags)
            }
            addPlaylists(&inv.response, dir, prefix: prefix, modified: true)
            for name in dir.directories {
                inv.response.add("directory", prefix + name)
                addModified(&inv.response, snapshot.tree.directory(prefix + name))
            }
            if uri.isEmpty { StoredPlaylistCommands.addPlaylists(&inv) }
        },
        CommandSpec("listall", 0...1) { inv throws(MPDError) in try walk(&inv, info: false) },
        CommandSpec("listallinfo", 0...1) { inv throws(MPDError) in try walk(&inv, info: true) },
        CommandSpec("listfiles", 0...1) { inv throws(MPDError) in
            let snapshot = inv.snapshot
            let uri = inv.args.first ?? ""
            // An absolute path is a folder of the file system to MPD: refused over TCP, and never
            // opened here (only the library's index is read), so no such directory on the socket.
            if Invocation.isLocalFile(uri) {
                throw inv.client.isLocal ? inv.error(.noExist, "No such directory") : inv.error(.permission, "Access denied")
            }
            guard let dir = snapshot.tree.directory(uri), uri.isEmpty || snapshot.tree.path(for: uri) != nil else {
                throw inv.error(.noExist, "No such directory")
            }
            let prefix = uri.isEmpty ? "" : uri + "/"
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
            // MPD 0.23 takes one group here; a second `group TYPE` is read as a filter pair.
            guard selection.groups.count <= 1 else { throw inv.error(.argument, "Unknown filter type") }
            if selection.filter == nil, let group = selection.groups.first {
                countAll(&inv, group: group)
                return
            }
            let songs = try selection.songs(in: inv.snapshot, foldCase: false, inv: inv, ordered: false)
            guard let group = selection.groups.first else {
                inv.response.add("songs", songs.count)
                inv.response.add("playtime", Int(songs.reduce(0) { $0 + ($1.duration ?? 0) }))
                return
            }
            var counts: [ValueKey: (songs: Int, time: Double)] = [:]
            for song in songs {
                let time = song.duration ?? 0
                MPDResponse.forEachValue(of: group, in: song, orEmpty: true) { value in
                    counts[ValueKey(value), default: (0, 0)].songs += 1
                    counts[ValueKey(value), default: (0, 0)].time += time
                }
            }
            for (key, (n, time)) in counts.sorted(by: { $0.key < $1.key }) {
                inv.response.add(group.name, key.value)
                inv.response.add("songs", n)
                inv.response.add("playtime", Int(time))
            }
        },
        CommandSpec("list", 1...Int.max) { inv throws(MPDError) in
            let typeName = inv.args[0]
            let isFile = ["file", "filename"].contains(typeName.lowercased())
            let level = TagLevel(name: typeName)
            guard isFile || level != nil else { throw inv.error(.argument, "Unknown tag type: \(typeName)") }
            var selection: Selection
            if inv.args.count == 2, !isFile, level != TagLevel(.album), !inv.args[1].hasPrefix("(") {
                // One word after the tag is the old `list album ARTIST`, for Album only.
                throw inv.error(.argument, "should be \"Album\" for 3 arguments")
            }
            if inv.args.count == 2, level == TagLevel(.album), !inv.args[1].hasPrefix("(") {
                // The old `list album ARTIST`.
                selection = try Selection(Invocation(server: inv.server, client: inv.client, command: inv.command,
                                                     args: ["artist", inv.args[1]]),
                                          from: 0, keywords: [], substrings: false)
            } else {
                selection = try Selection(inv, from: 1, keywords: ["group"], substrings: false, filterRequired: false)
            }
            // As many groups as the client asks for, as in MPD (M.A.L.P. asks for four).
            if let level, Set((selection.groups + [level]).map(\.name)).count != selection.groups.count + 1 {
                throw inv.error(.argument, "Conflicting group")
            }
            let snapshot = inv.snapshot
            if let level, selection.filter == nil,
               listAll(&inv.response, levels: selection.groups.reversed() + [level], indexes: snapshot.indexes) {
                return
            }
            let songs = try selection.songs(in: snapshot, foldCase: false, inv: inv, ordered: isFile)
            if isFile {
                for song in songs { inv.response.add("file", snapshot.tree.uri(for: song.uriPath) ?? "") }
                return
            }
            // Every distinct path of values as a tree, one level a tag, each song's values put
            // in place as they are read; then printed depth first in byte order, a value when
            // the walk enters it. The last group is the outermost, as MPD nests them (`list
            // genre group artist group album` prints Album, then Artist, then Genre).
            let levels = selection.groups.reversed() + [level!]
            let root = ValueNode()
            for song in songs { root.add(song, levels[...]) }
            root.print(into: &inv.response, levels[...])
        },
    ]

    /// `list TAG [group …]` over the whole library, from the snapshot's columns: each song's
    /// path of value numbers is one number (mixed radix, outermost level first, so numbers
    /// sort as the paths do), the distinct ones sorted and printed as `ValueNode` would.
    /// False when the paths do not fit 64 bits (left to `ValueNode`).
    private static func listAll(_ response: inout MPDResponse, levels: [TagLevel], indexes: TagIndexes) -> Bool {
        let columns = indexes.columns(for: levels)
        if columns.count == 1 {
            // `list artist`: the column's values are the answer.
            for value in columns[0].values { response.add(levels[0].name, value) }
            return true
        }
        var radix: [UInt64] = []
        var room: UInt64 = 1
        for column in columns {
            let r = UInt64(max(column.values.count, 1))
            let (product, overflow) = room.multipliedReportingOverflow(by: r)
            guard !overflow else { return false }
            room = product
            radix.append(r)
        }
        var paths: Set<UInt64> = []
        var previous: UInt64?
        func visit(_ song: Int, _ level: Int, _ path: UInt64) {
            guard level < columns.count else {
                // Songs come folder by folder: the same path as the last song's is common.
                if path != previous { paths.insert(path); previous = path }
                return
            }
            for n in columns[level].numbers(of: song) { visit(song, level + 1, path * radix[level] + UInt64(n)) }
        }
        for song in 0..<columns[0].songCount { visit(song, 0, 0) }
        var shown = [UInt32](repeating: .max, count: columns.count)
        var digits = shown
        let last = columns.count - 1
        for path in paths.sorted() {
            var rest = path
            for level in stride(from: last, through: 0, by: -1) {
                digits[level] = UInt32(rest % radix[level])
                rest /= radix[level]
            }
            // Print from the outermost level that changed, as a walk of the tree enters
            // each value.
            guard let changed = (0...last).first(where: { digits[$0] != shown[$0] }) else { continue }
            for level in changed...last {
                response.add(levels[level].name, columns[level].values[Int(digits[level])])
                shown[level] = digits[level]
            }
        }
        return true
    }

    /// `count group TAG` over the whole library, from the snapshot's column.
    private static func countAll(_ inv: inout Invocation, group: TagLevel) {
        let column = inv.snapshot.indexes.column(group)
        let seconds = inv.snapshot.indexes.songDurations()
        var songs = [Int](repeating: 0, count: column.values.count)
        var time = [Double](repeating: 0, count: column.values.count)
        for song in 0..<column.songCount {
            for n in column.numbers(of: song) {
                songs[Int(n)] += 1
                time[Int(n)] += seconds[song]
            }
        }
        for (n, value) in column.values.enumerated() {
            inv.response.add(group.name, value)
            inv.response.add("songs", songs[n])
            inv.response.add("playtime", Int(time[n]))
        }
    }

    /// One level of `list … group`: the values met under the path to it.
    private final class ValueNode {
        var children: [ValueKey: ValueNode] = [:]
        /// The child last gone to: songs come folder by folder, so the next one mostly has the
        /// same album, album artist, genre (and the same string, shared since the checkpoint
        /// was read), and comparing it is cheaper than hashing it.
        var last: (value: String, node: ValueNode)?

        func add(_ song: Song, _ levels: ArraySlice<TagLevel>) {
            guard let level = levels.first else { return }
            MPDResponse.forEachValue(of: level, in: song, orEmpty: true) { value in
                let child: ValueNode
                if let last, last.value.sameBytes(as: value) {
                    child = last.node
                } else if let known = children[ValueKey(value)] {
                    child = known
                } else {
                    child = ValueNode()
                    children[ValueKey(value)] = child
                }
                last = (value, child)
                child.add(song, levels.dropFirst())
            }
        }

        /// Every level prints "" for songs without the tag, as MPD 0.23 does (`list genre`
        /// answers `Genre: ` when some song has no genre).
        func print(into response: inout MPDResponse, _ levels: ArraySlice<TagLevel>) {
            guard let level = levels.first else { return }
            for key in children.keys.sorted(by: { $0.value.utf8.lexicographicallyPrecedes($1.value.utf8) }) {
                response.add(level.name, key.value)
                children[key]!.print(into: &response, levels.dropFirst())
            }
        }
    }

    private static func walk(_ inv: inout Invocation, info: Bool) throws(MPDError) {
        let snapshot = inv.snapshot
        // "/" is the root, as MPD reads it.
        let uri = inv.args.first.map { $0 == "/" ? "" : $0 } ?? ""
        if let song = snapshot.song(at: uri) {
            if info { inv.response.add(song: song, uri: uri, tags: inv.client.tags) } else { inv.response.add("file", uri) }
            return
        }
        guard snapshot.tree.directory(uri) != nil, uri.isEmpty || snapshot.tree.path(for: uri) != nil else {
            throw inv.error(.noExist, "No such directory")
        }
        inv.response.write(TreeLines(walking: snapshot.tree, from: uri, tags: inv.client.tags, info: info),
                           upTo: LongAnswers.slice)
    }

    /// A directory's playlist files, as MPD lists them after its songs (with their
    /// `Last-Modified` in `lsinfo` and `listallinfo`).
    static func addPlaylists(_ response: inout MPDResponse, _ dir: MusicTree.Directory, prefix: String, modified: Bool) {
        for list in dir.playlists {
            response.add("playlist", prefix + list.name)
            if modified { response.add("Last-Modified", MPDResponse.timeStamp(seconds: list.modified)) }
        }
    }

    /// A directory's `Last-Modified`, as MPD prints it after `directory:` in `lsinfo`,
    /// `listallinfo` and `listfiles` (not in `listall`).
    static func addModified(_ response: inout MPDResponse, _ dir: MusicTree.Directory?) {
        guard let dir, dir.modified > 0 else { return }
        response.add("Last-Modified", MPDResponse.timeStamp(seconds: dir.modified))
    }

    private static func print(_ inv: inout Invocation, foldCase: Bool) throws(MPDError) {
        let selection = try Selection(inv, from: 0, keywords: ["sort", "window"], substrings: foldCase)
        let snapshot = inv.snapshot
        let songs = try selection.songs(in: snapshot, foldCase: foldCase, inv: inv)
        inv.response.write(ItemLines.songs(songs, tree: snapshot.tree, tags: inv.client.tags), upTo: LongAnswers.slice)
    }

    private static func add(_ inv: inout Invocation, foldCase: Bool) throws(MPDError) {
        let selection = try Selection(inv, from: 0, keywords: ["sort", "window", "position"], substrings: foldCase)
        let songs = try selection.songs(in: inv.snapshot, foldCase: foldCase, inv: inv)
        let q = try inv.player.status.queue
        let place = try selection.position.map { p throws(MPDError) in try QueueCommands.position(p, queue: q, inv: inv) } ?? .end
        try inv.player.perform(.add(songs.map(\.id), at: place))
    }
}
