extension PlayQueue {
    /// More than this many seconds into a song, `previous` restarts it instead of going back
    /// (as every player since the CD player does).
    public static let restartAfter: Double = 3

    /// The queue after `command`: the state machine every front drives.
    ///
    /// `version` moves by one when the entries changed (added, removed, moved, re-prioritised:
    /// those take the new version), as MPD's playlist version does; playing, pausing and the
    /// modes leave it. A command that changes nothing leaves the value exactly as it was.
    ///
    /// Complexity: O(n) in the queue's length (O(n log n) when priorities reorder a round).
    public func applying(_ command: QueueCommand) -> PlayQueue {
        var q = self
        if case let .refresh(songs) = command {
            q.refresh(songs)
            return q
        }
        q.perform(command)
        if q.state == .playing, let c = q.current, q.history.last?.entry != c, let song = q.entry(c)?.song {
            q.history.append(Played(entry: c, song: song))
        }
        q.stamp(after: self)
        return q
    }

    public mutating func apply(_ command: QueueCommand) { self = applying(command) }

    /// Moves the version when the entries changed, and stamps the entries whose position or
    /// priority changed (or that are new) with it.
    ///
    /// An entry kept its position exactly when the old queue had it at the same index, so one
    /// pass over the indices finds them without hashing (adding a song to a long queue, one by
    /// one as MPD clients do, stays a cheap pass).
    private mutating func stamp(after old: PlayQueue) {
        let stamp = old.version &+ 1
        // Most commands (next, finished, the modes) leave the entries untouched; comparing
        // arrays that still share their storage is immediate.
        let changed = entries != old.entries
        if changed {
            for i in entries.indices {
                if i < old.entries.count, old.entries[i].id == entries[i].id, old.entries[i].priority == entries[i].priority,
                   old.entries[i].range == entries[i].range { continue }
                entries[i].version = stamp
            }
        }
        version = changed ? stamp : old.version
    }

    /// Stamps the entries of `songs` with a new version, the one change `stamp` cannot see
    /// (the entries stay equal but for it).
    private mutating func refresh(_ songs: Set<SongID>) {
        let stamp = version &+ 1
        var touched = false
        for i in entries.indices where songs.contains(entries[i].song) {
            entries[i].version = stamp
            touched = true
        }
        if touched { version = stamp }
    }

    private mutating func perform(_ command: QueueCommand) {
        switch command {
        case let .add(songs, place): add(songs, at: place)
        case let .move(positions, to): move(positions, to: to)
        case let .swap(i, j):
            guard entries.indices.contains(i), entries.indices.contains(j), i != j else { return }
            entries.swapAt(i, j)
        case let .remove(ids):
            remove(Set(ids).intersection(entries.map(\.id)))
        case let .removePositions(range):
            guard range.lowerBound >= 0, range.upperBound <= entries.count else { return }
            remove(Set(entries[range].map(\.id)))
        case .clear:
            remove(Set(entries.map(\.id)))
        case let .shuffle(range):
            shuffle(range ?? 0..<entries.count)
        case let .setPriority(priority, ids):
            let chosen = Set(ids)
            for i in entries.indices where chosen.contains(entries[i].id) { entries[i].priority = priority }
            sortUpcoming()
        case let .setRange(range, id):
            guard let i = position(of: id) else { return }
            entries[i].range = range
        case let .setRandom(on):
            guard on != isRandom else { return }
            guard on else { return randomOrder = nil }
            // Playing or paused, the current entry leads the round; stopped, nothing is current
            // and `play` starts the round's first, drawn at random, as MPD 0.23 does.
            if state == .stopped { current = nil }
            newRound(first: current)
        case let .setRepeat(mode): repeatMode = mode
        case let .setSingle(mode): single = mode
        case let .setConsume(on): consume = on
        case let .play(id): play(id)
        case .pause:
            if state == .playing { state = .paused }
        case .stop:
            state = .stopped
        case .next:
            guard let c = current else { return }
            go(to: advance(from: c))
        case let .previous(elapsed):
            guard let c = current else { return }
            let order = playOrder
            let i = order.firstIndex(of: c)!
            if elapsed > Self.restartAfter {
                starts += 1
            } else if i > 0 {
                go(to: order[i - 1])
            } else if repeatMode != .off, order.count > 1 {
                go(to: order.last)
            } else {
                starts += 1
            }
        case .finished:
            finished()
        case .refresh:
            break // `applying` stamps it
        }
    }

    private mutating func finished() {
        guard state == .playing, let c = current else { return }
        if single != .off, repeatMode != .off {
            // MPD 0.23's rule: single with repeat plays the entry again (a oneshot is not used
            // up), unless consume takes it away: then playback moves on.
            if consume { go(to: advance(from: c)) } else { starts += 1 }
        } else if single != .off {
            // Without repeat, MPD 0.23 waits paused at the start of the next entry, so that the
            // play/pause key goes on; after the last, it stops.
            if single == .oneshot { single = .off }
            go(to: advance(from: c))
            if state == .playing { state = .paused }
        } else if repeatMode == .one && !consume {
            starts += 1
        } else {
            go(to: advance(from: c))
        }
    }

    private mutating func play(_ id: EntryID?) {
        guard let id else {
            switch state {
            case .playing: return
            case .paused: state = .playing
            case .stopped:
                guard let first = current ?? playOrder.first else { return }
                state = .playing
                go(to: first)
            }
            return
        }
        guard position(of: id) != nil else { return }
        if var order = randomOrder, id != current {
            // The chosen entry plays now and the round goes on after it: moved to just after
            // the current entry, so what was played stays before it and nothing is skipped.
            order.removeAll { $0 == id }
            let at = current.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            order.insert(id, at: at)
            randomOrder = order
        }
        state = .playing
        go(to: id)
    }

    /// Makes `id` the current entry from its start, keeping the state (playing plays it); nil:
    /// nothing is current and playback stops.
    private mutating func go(to id: EntryID?) {
        if let id {
            current = id
            starts += 1
        } else {
            current = nil
            state = .stopped
        }
    }

    /// The entry after `c` in the play order, consuming `c` when `consume` is on; round the end
    /// unless `repeat off` (with `random`, into a new round).
    private mutating func advance(from c: EntryID) -> EntryID? {
        let i = playOrder.firstIndex(of: c)!
        if consume { removeEntries([c]) }
        let order = playOrder
        let j = consume ? i : i + 1
        if j < order.count { return order[j] }
        guard repeatMode != .off, !entries.isEmpty else { return nil }
        if isRandom {
            newRound(first: nil)
            return randomOrder?.first
        }
        return entries.first?.id
    }

    private mutating func add(_ songs: [SongID], at place: QueueCommand.Place) {
        guard !songs.isEmpty else { return }
        let at: Int
        switch place {
        case .end: at = entries.count
        case .next: at = current.flatMap(position).map { $0 + 1 } ?? 0
        case let .position(p):
            guard (0...entries.count).contains(p) else { return }
            at = p
        }
        let added = songs.map { song -> Entry in
            defer { nextID += 1 }
            return Entry(id: EntryID(nextID), song: song, priority: 0, version: 0, range: nil)
        }
        entries.insert(contentsOf: added, at: at)
        guard var order = randomOrder else { return }
        let start = upcomingStart(in: order)
        if place == .next {
            order.insert(contentsOf: added.map(\.id), at: start)
        } else {
            // Anywhere among the entries not played yet in this round, each drawn on its own.
            for e in added { order.insert(e.id, at: start + random.index(below: order.count - start + 1)) }
        }
        randomOrder = order
        sortUpcoming()
    }

    private mutating func move(_ positions: Range<Int>, to: Int) {
        guard !positions.isEmpty, positions.lowerBound >= 0, positions.upperBound <= entries.count,
              to >= 0, to + positions.count <= entries.count, to != positions.lowerBound else { return }
        let moved = entries[positions]
        entries.removeSubrange(positions)
        entries.insert(contentsOf: moved, at: to)
    }

    private mutating func shuffle(_ range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= entries.count, range.count > 1 else { return }
        var part = Array(entries[range])
        if let c = current, let k = part.firstIndex(where: { $0.id == c }) {
            let playing = part.remove(at: k)
            random.shuffle(&part)
            part.insert(playing, at: 0)
        } else {
            random.shuffle(&part)
        }
        entries.replaceSubrange(range, with: part)
    }

    /// Removes `ids`; when the current entry is among them, the entry that would have played
    /// after it (and was not removed too) becomes current.
    private mutating func remove(_ ids: Set<EntryID>) {
        guard !ids.isEmpty else { return }
        guard let c = current, ids.contains(c) else { return removeEntries(ids) }
        let order = playOrder
        let i = order.firstIndex(of: c)!
        var successor = order[(i + 1)...].first { !ids.contains($0) }
        removeEntries(ids)
        if successor == nil, repeatMode != .off, !entries.isEmpty {
            if isRandom {
                newRound(first: nil)
                successor = randomOrder?.first
            } else {
                successor = entries.first?.id
            }
        }
        go(to: successor)
        // MPD stops when the paused entry goes: nothing paused is left to resume.
        if state == .paused { state = .stopped }
    }

    private mutating func removeEntries(_ ids: Set<EntryID>) {
        entries.removeAll { ids.contains($0.id) }
        randomOrder?.removeAll { ids.contains($0) }
    }

    /// A new random round: every entry once, in an order drawn from `random`, `first` (the
    /// current entry, when random is turned on) leading; then by priority.
    private mutating func newRound(first: EntryID?) {
        var ids = entries.map(\.id)
        random.shuffle(&ids)
        if let first, let k = ids.firstIndex(of: first) {
            ids.remove(at: k)
            ids.insert(first, at: 0)
        }
        randomOrder = ids
        sortUpcoming(from: first == nil ? 0 : 1)
    }

    /// Where the entries not played yet in the round start in `order`: after the current one.
    private func upcomingStart(in order: [EntryID]) -> Int {
        current.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
    }

    /// Puts the round's entries not played yet in order of priority, highest first, keeping
    /// their drawn order among equals (MPD's rule for `prio`).
    private mutating func sortUpcoming(from start: Int? = nil) {
        guard var order = randomOrder else { return }
        let start = start ?? upcomingStart(in: order)
        guard start < order.count else { return }
        var priority: [EntryID: UInt8] = [:]
        for e in entries { priority[e.id] = e.priority }
        let sorted = order[start...].enumerated().sorted { a, b in
            let pa = priority[a.element] ?? 0, pb = priority[b.element] ?? 0
            return pa != pb ? pa > pb : a.offset < b.offset
        }.map(\.element)
        order.replaceSubrange(start..., with: sorted)
        randomOrder = order
    }
}
