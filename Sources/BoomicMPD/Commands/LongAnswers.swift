import BoomicCore

/// How much of a long answer is made before the connection takes over (`MPDResponse.rest`),
/// and how much at a time after: the connection's slice of a client's answer.
enum LongAnswers {
    static let slice = 64 * 1024
}

/// `listall` and `listallinfo` from a folder down, made as the client reads them: the walk's
/// folders in its order, and how far into the current one the answer is.
struct TreeLines: AnswerRest {
    private let folders: [(path: String, contents: MusicTree.Directory)]
    private let tree: MusicTree
    private let tags: MPDTagSet
    private let info: Bool
    private var folder = 0
    /// The next song of the current folder; -1 while its `directory` line is still to come.
    private var song = -1

    init(walking tree: MusicTree, from uri: String, tags: MPDTagSet, info: Bool) {
        var folders: [(String, MusicTree.Directory)] = []
        tree.walk(from: uri) { folders.append(($0, $1)) }
        self.folders = folders
        self.tree = tree
        self.tags = tags
        self.info = info
    }

    mutating func write(into response: inout MPDResponse, atLeast: Int) -> Bool {
        let start = response.count
        while folder < folders.count {
            let (dir, contents) = folders[folder]
            if song < 0 {
                // The folder asked for comes first too, as MPD prints it (not the root).
                if !dir.isEmpty {
                    response.add("directory", dir)
                    if info { DatabaseCommands.addModified(&response, contents) }
                }
                song = 0
            }
            while song < contents.songs.count {
                if response.count - start >= atLeast { return false }
                let s = contents.songs[song]
                if info { response.add(song: s, in: tree, tags: tags) } else { response.add(file: s, in: tree) }
                song += 1
            }
            DatabaseCommands.addPlaylists(&response, contents, prefix: dir.isEmpty ? "" : dir + "/", modified: info)
            folder += 1
            song = -1
        }
        return true
    }
}

/// A list printed item by item as the client reads it: songs found (`find`, `search`), queue
/// entries (`playlistinfo`, `plchanges`: a queue of the whole library is as long as
/// `listallinfo`), a stored playlist's songs (`listplaylistinfo`: a taglist may hold the whole
/// library).
struct ItemLines<Item: Sendable>: AnswerRest {
    private let items: [Item]
    /// Writes one item's lines.
    private let writeItem: @Sendable (Item, inout MPDResponse) -> Void
    private var next = 0

    init(_ items: [Item], writeItem: @escaping @Sendable (Item, inout MPDResponse) -> Void) {
        self.items = items
        self.writeItem = writeItem
    }

    mutating func write(into response: inout MPDResponse, atLeast: Int) -> Bool {
        let start = response.count
        while next < items.count {
            if response.count - start >= atLeast { return false }
            writeItem(items[next], &response)
            next += 1
        }
        return true
    }
}

extension ItemLines<Song> {
    static func songs(_ songs: [Song], tree: MusicTree, tags: MPDTagSet) -> Self {
        Self(songs) { song, response in response.add(song: song, in: tree, tags: tags) }
    }
}

extension ItemLines<(uri: String, song: Song?)> {
    /// An entry that is not in the library is its path alone, as in MPD.
    static func playlist(_ entries: some Sequence<(uri: String, song: Song?)>, tags: MPDTagSet) -> Self {
        Self(Array(entries)) { entry, response in
            if let song = entry.song { response.add(song: song, uri: entry.uri, tags: tags) } else { response.add("file", entry.uri) }
        }
    }
}

extension ItemLines<Int> {
    /// The queue's entries at `positions`.
    static func queue(_ queue: PlayQueue, _ positions: [Int], snapshot: ServerLibrary.Snapshot, tags: MPDTagSet) -> Self {
        Self(positions) { p, response in response.add(entry: queue.entries[p], position: p, snapshot: snapshot, tags: tags) }
    }
}

extension MPDResponse {
    /// A queue entry: the song, then its position and id (and priority when set).
    mutating func add(entry: PlayQueue.Entry, position: Int, snapshot: ServerLibrary.Snapshot, tags: MPDTagSet) {
        if let song = snapshot.basis[entry.song], let uri = snapshot.tree.uri(for: song.uriPath) {
            if let range = entry.range { add(song: song, uri: uri, tags: tags, range: range) } else { add(song: song, uri: uri, tags: tags) }
        } else {
            add("file", "(removed from the library)")
        }
        add("Pos", position)
        add("Id", entry.id.rawValue)
        if entry.priority > 0 { add("Prio", entry.priority) }
    }
}
