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

/// Songs found (`find`, `search`), printed as the client reads them.
struct SongLines: AnswerRest {
    private let songs: [Song]
    private let tree: MusicTree
    private let tags: MPDTagSet
    private var next = 0

    init(_ songs: [Song], tree: MusicTree, tags: MPDTagSet) {
        self.songs = songs
        self.tree = tree
        self.tags = tags
    }

    mutating func write(into response: inout MPDResponse, atLeast: Int) -> Bool {
        let start = response.count
        while next < songs.count {
            if response.count - start >= atLeast { return false }
            response.add(song: songs[next], in: tree, tags: tags)
            next += 1
        }
        return true
    }
}

/// A stored playlist's songs (`listplaylistinfo`), printed as the client reads them: a taglist
/// (`taglist: NAME`) may hold the whole library. An entry that is not in the library is its
/// path alone, as in MPD.
struct PlaylistLines: AnswerRest {
    private let entries: ArraySlice<(uri: String, song: Song?)>
    private let tags: MPDTagSet
    private var next: Int

    init(_ entries: ArraySlice<(uri: String, song: Song?)>, tags: MPDTagSet) {
        self.entries = entries
        self.tags = tags
        next = entries.startIndex
    }

    mutating func write(into response: inout MPDResponse, atLeast: Int) -> Bool {
        let start = response.count
        while next < entries.endIndex {
            if response.count - start >= atLeast { return false }
            let entry = entries[next]
            if let song = entry.song { response.add(song: song, uri: entry.uri, tags: tags) } else { response.add("file", entry.uri) }
            next += 1
        }
        return true
    }
}

/// Queue entries (`playlistinfo`, `plchanges`), printed as the client reads them: a queue of
/// the whole library is as long as `listallinfo`.
struct EntryLines: AnswerRest {
    private let queue: PlayQueue
    private let positions: [Int]
    private let snapshot: ServerLibrary.Snapshot
    private let tags: MPDTagSet
    private var next = 0

    init(_ queue: PlayQueue, _ positions: [Int], snapshot: ServerLibrary.Snapshot, tags: MPDTagSet) {
        self.queue = queue
        self.positions = positions
        self.snapshot = snapshot
        self.tags = tags
    }

    mutating func write(into response: inout MPDResponse, atLeast: Int) -> Bool {
        let start = response.count
        while next < positions.count {
            if response.count - start >= atLeast { return false }
            let p = positions[next]
            response.add(entry: queue.entries[p], position: p, snapshot: snapshot, tags: tags)
            next += 1
        }
        return true
    }
}

extension MPDResponse {
    /// A queue entry: the song, then its position and id (and priority when set).
    mutating func add(entry: PlayQueue.Entry, position: Int, snapshot: ServerLibrary.Snapshot, tags: MPDTagSet) {
        if let song = snapshot.basis[entry.song], let uri = snapshot.tree.uri(for: song.path) {
            add(song: song, uri: uri, tags: tags)
        } else {
            add("file", "(removed from the library)")
        }
        add("Pos", position)
        add("Id", entry.id.rawValue)
        if entry.priority > 0 { add("Prio", entry.priority) }
    }
}
