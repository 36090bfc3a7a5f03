import BoomicCore
import BoomicPlayback

/// The queue ("current playlist" in MPD's words): adding, removing, moving, listing.
enum QueueCommands {
    static let all: [CommandSpec] = [
        CommandSpec("add", 1...2) { inv throws(MPDError) in
            // `add /` is the whole library: never meant to work, MPD says, but some clients send
            // it, so MPD takes it so.
            try add(&inv, uri: inv.args[0] == "/" ? "" : inv.args[0])
        },
        CommandSpec("addid", 1...2) { inv throws(MPDError) in
            // One song, and one id back: a folder (or "", the whole library) is no song, as in
            // MPD, where `add` takes folders.
            let uri = inv.args[0]
            try inv.refuseURL(uri)
            let local = Invocation.isLocalFile(uri)
            guard local || inv.snapshot.song(at: uri) != nil else { throw inv.error(.noExist, "No such song") }
            let command = inv.command
            try add(&inv) { ids, response throws(MPDError) in
                guard let first = ids.first else { throw MPDError(.noExist, "No such song", command: command) }
                response.add("Id", first.rawValue)
            }
        },
        CommandSpec("delete", 0...1) { inv throws(MPDError) in
            let q = try inv.player.status.queue
            let range = inv.args.isEmpty ? 0..<q.entries.count : try inv.range(0, count: q.entries.count)
            try inv.player.perform(.removePositions(range))
        },
        CommandSpec("deleteid", 1...1) { inv throws(MPDError) in
            let e = try inv.entry(withID: 0, in: try inv.player.status.queue)
            try inv.player.perform(.remove([e.id]))
        },
        CommandSpec("move", 2...2) { inv throws(MPDError) in
            // Both read before either is checked against the queue, as MPD does.
            if !inv.args[1].hasPrefix("+"), !inv.args[1].hasPrefix("-") { _ = try inv.int(1) }
            let q = try inv.player.status.queue
            let range = try inv.range(0, count: q.entries.count, .entries)
            let to = try destination(&inv, 1, queue: q, moving: range.count)
            try inv.player.perform(.move(positions: range, to: to))
        },
        CommandSpec("moveid", 2...2) { inv throws(MPDError) in
            let q = try inv.player.status.queue
            let e = try inv.entry(withID: 0, in: q)
            let from = q.position(of: e.id)!
            let to = try destination(&inv, 1, queue: q, moving: 1)
            try inv.player.perform(.move(positions: from..<(from + 1), to: to))
        },
        CommandSpec("swap", 2...2) { inv throws(MPDError) in
            // Both read before either is looked up, as MPD does.
            let i = try inv.unsigned(0), j = try inv.unsigned(1)
            let q = try inv.player.status.queue
            guard i < q.entries.count, j < q.entries.count else { throw inv.error(.argument, "Bad song index") }
            try inv.player.perform(.swap(i, j))
        },
        CommandSpec("swapid", 2...2) { inv throws(MPDError) in
            let q = try inv.player.status.queue
            let a = try inv.entry(withID: 0, in: q), b = try inv.entry(withID: 1, in: q)
            try inv.player.perform(.swap(q.position(of: a.id)!, q.position(of: b.id)!))
        },
        CommandSpec("clear") { inv throws(MPDError) in try inv.player.perform(.clear) },
        CommandSpec("shuffle", 0...1) { inv throws(MPDError) in
            let q = try inv.player.status.queue
            try inv.player.perform(.shuffle(inv.args.isEmpty ? nil : try inv.range(0, count: q.entries.count)))
        },
        CommandSpec("playlistinfo", 0...1) { inv throws(MPDError) in
            let q = try inv.player.status.queue
            let range = inv.args.isEmpty ? 0..<q.entries.count : try inv.range(0, count: q.entries.count)
            inv.response.write(ItemLines.queue(q, Array(range), snapshot: inv.snapshot, tags: inv.client.tags), upTo: LongAnswers.slice)
        },
        CommandSpec("playlist") { inv throws(MPDError) in
            let q = try inv.player.status.queue
            let snapshot = inv.snapshot
            for (p, e) in q.entries.enumerated() {
                let uri = snapshot.basis[e.song].flatMap { snapshot.tree.uri(for: $0.uriPath) } ?? ""
                // MPD writes `0:file: PATH`, with no space after the position.
                inv.response.add("\(p):file", uri)
            }
        },
        CommandSpec("playlistid", 0...1) { inv throws(MPDError) in
            let q = try inv.player.status.queue
            let snapshot = inv.snapshot
            if inv.args.isEmpty {
                for (p, e) in q.entries.enumerated() { inv.add(entry: e, position: p, snapshot: snapshot) }
            } else {
                let e = try inv.entry(withID: 0, in: q)
                inv.add(entry: e, position: q.position(of: e.id)!, snapshot: snapshot)
            }
        },
        CommandSpec("plchanges", 1...2) { inv throws(MPDError) in
            let q = try inv.player.status.queue
            let changed = try changedPositions(inv, in: q)
            inv.response.write(ItemLines.queue(q, changed, snapshot: inv.snapshot, tags: inv.client.tags), upTo: LongAnswers.slice)
        },
        CommandSpec("plchangesposid", 1...2) { inv throws(MPDError) in
            let q = try inv.player.status.queue
            for p in try changedPositions(inv, in: q) {
                inv.response.add("cpos", p)
                inv.response.add("Id", q.entries[p].id.rawValue)
            }
        },
        CommandSpec("playlistfind", 1...Int.max) { inv throws(MPDError) in try find(&inv, foldCase: false) },
        CommandSpec("playlistsearch", 1...Int.max) { inv throws(MPDError) in try find(&inv, foldCase: true) },
        CommandSpec("prio", 2...Int.max) { inv throws(MPDError) in
            let q = try inv.player.status.queue
            let prio = try priority(&inv)
            var ids: [PlayQueue.EntryID] = []
            for i in 1..<inv.args.count {
                for p in try inv.range(i, count: q.entries.count) { ids.append(q.entries[p].id) }
            }
            try inv.player.perform(.setPriority(prio, ids))
        },
        CommandSpec("prioid", 2...Int.max) { inv throws(MPDError) in
            let q = try inv.player.status.queue
            let prio = try priority(&inv)
            var ids: [PlayQueue.EntryID] = []
            for i in 1..<inv.args.count { ids.append(try inv.entry(withID: i, in: q).id) }
            try inv.player.perform(.setPriority(prio, ids))
        },
        // The entry plays that part of its file: checked as MPD checks it, in the same order;
        // `START:` plays to the end, `:` the whole song again.
        CommandSpec("rangeid", 2...2) { inv throws(MPDError) in
            _ = try inv.unsigned(0)
            guard let range = TimeRange.parse(inv.args[1]) else { throw inv.error(.argument, "Bad range") }
            let q = try inv.player.status.queue
            let e = try inv.entry(withID: 0, in: q)
            if q.state != .stopped, q.current == e.id { throw inv.error(.permission, "Cannot edit the current song") }
            if let duration = inv.snapshot.basis[e.song]?.duration, Double(range.start) > (duration * 1000).rounded(.down) {
                throw inv.error(.argument, "Invalid start offset")
            }
            let part = range.start == 0 && range.end == 0 ? nil
                : PlayRange(start: Double(range.start) / 1000, end: range.end == 0 ? nil : Double(range.end) / 1000)
            try inv.player.perform(.setRange(part, e.id))
        },
        // MPD edits the tags of a queued stream only; every song Boomic queues is a local file,
        // refused as MPD refuses one, after the same checks in the same order.
        CommandSpec("addtagid", 3...3) { inv throws(MPDError) in try refuseTagEdit(&inv) },
        CommandSpec("cleartagid", 1...2) { inv throws(MPDError) in try refuseTagEdit(&inv) },
    ]

    /// The positions `plchanges VERSION [START:END]` names, as MPD 0.23 reads it: the entries
    /// changed since VERSION, or every entry when VERSION is newer than the queue's (a client
    /// that saw another server, or this one before a restart, must not keep a stale queue);
    /// VERSION as `strtoul` reads it (so `-1` is the largest), the range cut to the queue.
    private static func changedPositions(_ inv: Invocation, in q: PlayQueue) throws(MPDError) -> [Int] {
        let since = UInt32(truncatingIfNeeded: try inv.int(0))
        let window = inv.args.count > 1 ? try inv.range(1, count: q.entries.count, .clipped) : 0..<q.entries.count
        let all = UInt64(since) > q.version + 1
        return window.filter { all || q.entries[$0].version + 1 > UInt64(since) }
    }

    private static func refuseTagEdit(_ inv: inout Invocation) throws(MPDError) {
        let id = try inv.unsigned(0)
        if inv.args.count > 1, MPDTag(name: inv.args[1]) == nil, !MPDTag.isUnkeptMPDName(inv.args[1]) {
            throw inv.error(.argument, "Unknown tag type: \(inv.args[1])")
        }
        guard try inv.player.status.queue.entry(PlayQueue.EntryID(id)) != nil else { throw inv.error(.noExist, "No such song") }
        throw inv.error(.permission, "Cannot edit tags of local file")
    }

    /// Adds a file or a whole directory, at the end or at a position (`N`, `+N` after the
    /// current song, `-N` before it); `answer` gets the new entries' ids.
    static func add(_ inv: inout Invocation, uri: String? = nil,
                    answer: @escaping @Sendable ([PlayQueue.EntryID], inout MPDResponse) throws(MPDError) -> Void = { _, _ in }) throws(MPDError) {
        let snapshot = inv.snapshot
        let songs = try songs(at: uri ?? inv.args[0], snapshot: snapshot, inv: inv)
        let before = try inv.player.status.queue
        let place = inv.args.count > 1 ? try position(inv.args[1], queue: before, inv: inv) : .end
        let nextID = before.nextID
        try inv.perform([.queue(.add(songs.map(\.id), at: place))]) { after, response throws(MPDError) in
            try answer(after.queue.entries.map(\.id).filter { $0.rawValue >= nextID }, &response)
        }
    }

    /// The songs a client's path names: one file, or every song under a directory.
    ///
    /// An absolute path (or `file://`) is a local file to MPD: refused to a TCP client
    /// ("Access denied"), and to a client on the local socket the library's song at that path,
    /// looked up in the library, never opened.
    static func songs(at uri: String, snapshot: ServerLibrary.Snapshot, inv: Invocation) throws(MPDError) -> [Song] {
        let tree = snapshot.tree
        try inv.refuseURL(uri)
        if Invocation.isLocalFile(uri) {
            guard inv.client.isLocal else { throw inv.error(.permission, "Access denied") }
            let path = uri.hasPrefix("file://") ? String(uri.dropFirst(7)) : uri
            let found = snapshot.basis.songs(atURIPath: path).filter { !$0.missing && tree.contains($0) }
            guard !found.isEmpty else { throw inv.error(.noExist, "No such song") }
            return found
        }
        if let song = snapshot.song(at: uri) {
            return [song]
        }
        guard tree.directory(uri) != nil, tree.path(for: uri) != nil || uri.isEmpty else {
            throw inv.error(.noExist, "No such directory")
        }
        var songs: [Song] = []
        tree.walk(from: uri) { _, dir in songs += snapshot.songs(in: dir) }
        return songs
    }

    static func position(_ text: String, queue: PlayQueue, inv: Invocation) throws(MPDError) -> QueueCommand.Place {
        let current = queue.current.flatMap(queue.position(of:))
        if text.hasPrefix("+") || text.hasPrefix("-") {
            guard let n = Int(text.dropFirst()), n >= 0 else { throw inv.error(.argument, "Integer expected: \(text)") }
            guard let current else { throw inv.error(.playerSync, "No current song") }
            let p = text.hasPrefix("+") ? current + 1 + n : current - n
            guard (0...queue.entries.count).contains(p) else { throw inv.error(.argument, "Number too large: \(n)") }
            return .position(p)
        }
        let p = try inv.integer(text)
        guard (0...queue.entries.count).contains(p) else { throw inv.error(.argument, "Number too large: \(text)") }
        return .position(p)
    }

    private static func destination(_ inv: inout Invocation, _ i: Int, queue: PlayQueue, moving: Int) throws(MPDError) -> Int {
        let limit = queue.entries.count - moving
        let text = inv.args[i]
        if text.hasPrefix("+") || text.hasPrefix("-") {
            guard case let .position(p) = try position(text, queue: queue, inv: inv), p <= limit else {
                throw inv.error(.argument, "Number too large: \(text.dropFirst())")
            }
            return p
        }
        let to = try inv.int(i)
        guard (0...limit).contains(to) else { throw inv.error(.argument, "Number too large: \(text)") }
        return to
    }

    private static func priority(_ inv: inout Invocation) throws(MPDError) -> UInt8 {
        let n = try inv.int(0)
        guard (0...255).contains(n) else { throw inv.error(.argument, "Number too large: \(inv.args[0])") }
        return UInt8(n)
    }

    private static func find(_ inv: inout Invocation, foldCase: Bool) throws(MPDError) {
        let filter = try MPDFilter.parse(inv.args[...], substrings: foldCase)
        let q = try inv.player.status.queue
        let snapshot = inv.snapshot
        let query = try filter.removingPriority().query(foldCase: foldCase, absolutePath: snapshot.tree.path(for:))
        let matcher = QueryMatcher(query)
        let minimum = filter.minimumPriority
        let found = q.entries.enumerated().filter { _, e in
            e.priority >= minimum && snapshot.basis[e.song].map(matcher.matches) == true
        }
        if matcher.stoppedRegex != nil { throw inv.error(.argument, Selection.regexTooSlow) }
        for (p, e) in found { inv.add(entry: e, position: p, snapshot: snapshot) }
    }
}

extension MPDFilter {
    /// The filter with its `prio` terms taken out (they select queue entries, checked apart).
    func removingPriority() -> MPDFilter {
        switch self {
        case .priority: return .and([])
        case let .and(items): return .and(items.map { $0.removingPriority() })
        default: return self
        }
    }

    /// The least priority a `prio >=` term asks for (0 without one).
    var minimumPriority: UInt8 {
        switch self {
        case let .priority(n): return UInt8(clamping: n)
        case let .and(items): return items.map(\.minimumPriority).max() ?? 0
        default: return 0
        }
    }
}
