import BoomicCore
import BoomicTestSupport

/// The naive reference for `PlayQueue`: the same rules written the plainest way, to compare the
/// real queue against on random command sequences (`PlayQueueLawTests`).
///
/// Where the real queue keeps one play order and finds the current entry in it, the model keeps
/// the random round as three plain lists (played before the current entry, the current entry,
/// still to play), and without random it walks positions in the queue. It draws from a
/// `SplitMix64` of the same seed, the same draws in the same order (Fisher–Yates from the back,
/// by remainder), so a random round here is the round there only if both follow the documented
/// drawing rule.
struct QueueModel {
    struct Item: Equatable { var id: Int; var song: SongID; var prio: UInt8 }

    var items: [Item] = []
    var current: Int?
    var state = PlayQueue.State.stopped
    var starts = 0
    var history: [(entry: Int, song: SongID)] = []
    var repeatMode = PlayQueue.Repeat.off
    var single = PlayQueue.Single.off
    var consume = false
    var nextID = 1
    var rng: SplitMix64

    // The random round, when random is on: played + [current] + upcoming.
    var random = false
    var played: [Int] = []
    var upcoming: [Int] = []

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    var ids: [Int] { items.map(\.id) }
    var round: [Int] { played + (current.map { [$0] } ?? []) + upcoming }
    var playOrder: [Int] { random ? round : ids }
    func pos(_ id: Int) -> Int? { items.firstIndex { $0.id == id } }

    mutating func draw(below n: Int) -> Int { Int(rng.next() % UInt64(n)) }

    mutating func fisherYates<T>(_ xs: inout [T]) {
        guard xs.count > 1 else { return }
        var i = xs.count - 1
        while i > 0 {
            xs.swapAt(i, draw(below: i + 1))
            i -= 1
        }
    }

    /// Stable: among equal priorities the drawn order stays.
    func byPriority(_ xs: [Int]) -> [Int] {
        let prio = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0.prio) })
        var out: [Int] = []
        for p in Set(xs.map { prio[$0]! }).sorted(by: >) {
            out += xs.filter { prio[$0] == p }
        }
        return out
    }

    /// A fresh round: every entry, drawn, then by priority.
    mutating func drawnRound() -> [Int] {
        var all = ids
        fisherYates(&all)
        return all
    }

    /// Random mode: the cursor of the round moves onto `id` (in the round).
    mutating func cursor(to id: Int) {
        let r = round
        let k = r.firstIndex(of: id)!
        played = Array(r[..<k])
        current = id
        upcoming = Array(r[(k + 1)...])
    }

    /// Random mode: no current entry; all of the round is still to play, in its order.
    mutating func dropCursor() {
        upcoming = round
        played = []
        current = nil
    }

    mutating func start(_ id: Int) {
        if random { cursor(to: id) }
        current = id
        starts += 1
    }

    mutating func removeItems(_ gone: Set<Int>) {
        items.removeAll { gone.contains($0.id) }
        played.removeAll { gone.contains($0) }
        upcoming.removeAll { gone.contains($0) }
    }

    /// Nothing more to play: stopped, no current entry.
    mutating func end() {
        if random { dropCursor() }
        current = nil
        state = .stopped
    }

    /// A new round with its first entry current (when the end of a round comes round).
    mutating func wrapRound() {
        let r = byPriority(drawnRound())
        played = []
        current = r.first
        upcoming = Array(r.dropFirst())
        starts += 1
    }

    /// Moves on from `c` to what follows it in the play order, consuming `c` when consume is on.
    mutating func step(from c: Int) {
        if random {
            if consume { items.removeAll { $0.id == c } } else { played.append(c) }
            current = nil
            if !upcoming.isEmpty {
                current = upcoming.removeFirst()
                starts += 1
            } else if repeatMode != .off, !items.isEmpty {
                wrapRound()
            } else {
                end()
            }
            return
        }
        let p = pos(c)!
        var n: Int?
        if consume {
            items.remove(at: p)
            n = p < items.count ? items[p].id : nil
        } else {
            n = p + 1 < items.count ? items[p + 1].id : nil
        }
        if n == nil, repeatMode != .off { n = items.first?.id }
        if let n { current = n; starts += 1 } else { end() }
    }

    mutating func apply(_ command: QueueCommand) {
        switch command {
        case let .add(songs, place):
            guard !songs.isEmpty else { break }
            let at: Int
            switch place {
            case .end: at = items.count
            case .next: at = current.flatMap(pos).map { $0 + 1 } ?? 0
            case let .position(p):
                guard p >= 0, p <= items.count else { return }
                at = p
            }
            let new = songs.map { s -> Item in nextID += 1; return Item(id: nextID - 1, song: s, prio: 0) }
            items.insert(contentsOf: new, at: at)
            if random {
                if place == .next {
                    upcoming.insert(contentsOf: new.map(\.id), at: 0)
                } else {
                    for e in new { upcoming.insert(e.id, at: draw(below: upcoming.count + 1)) }
                }
                upcoming = byPriority(upcoming)
            }
        case let .move(r, to):
            guard !r.isEmpty, r.lowerBound >= 0, r.upperBound <= items.count, to >= 0, to + r.count <= items.count else { break }
            let moving = Array(items[r])
            let rest = items.enumerated().filter { !r.contains($0.offset) }.map(\.element)
            items = Array(rest[..<to]) + moving + Array(rest[to...])
        case let .swap(i, j):
            guard i >= 0, j >= 0, i < items.count, j < items.count else { break }
            let t = items[i]; items[i] = items[j]; items[j] = t
        case let .remove(ids):
            remove(Set(ids.map(\.rawValue)))
        case let .removePositions(r):
            guard r.lowerBound >= 0, r.upperBound <= items.count else { break }
            remove(Set(items[r].map(\.id)))
        case .clear:
            remove(Set(ids))
        case let .shuffle(r):
            let r = r ?? 0..<items.count
            guard r.lowerBound >= 0, r.upperBound <= items.count, r.count > 1 else { break }
            var part = Array(items[r])
            let lead = part.firstIndex { $0.id == current }.map { part.remove(at: $0) }
            fisherYates(&part)
            if let lead { part.insert(lead, at: 0) }
            items.replaceSubrange(r, with: part)
        case let .setPriority(p, ids):
            for i in items.indices where ids.map(\.rawValue).contains(items[i].id) { items[i].prio = p }
            if random { upcoming = byPriority(upcoming) }
        case .setRange, .refresh:
            // A range changes what of a file an entry plays, a refresh only the entries'
            // versions, never the order: the model keeps neither.
            break
        case let .setRandom(on):
            guard on != random else { break }
            random = on
            if on {
                var r = drawnRound()
                played = []
                // Stopped: nothing is current; the round starts at its first (MPD 0.23).
                if state == .stopped { current = nil }
                if let c = current {
                    r.removeAll { $0 == c }
                    upcoming = byPriority(r)
                } else {
                    upcoming = byPriority(r)
                }
            } else {
                played = []; upcoming = []
            }
        case let .setRepeat(m): repeatMode = m
        case let .setSingle(m): single = m
        case let .setConsume(on): consume = on
        case let .play(entry):
            if let id = entry?.rawValue {
                guard pos(id) != nil else { break }
                if random, id != current {
                    played.removeAll { $0 == id }
                    upcoming.removeAll { $0 == id }
                    if let c = current { played.append(c) }
                }
                state = .playing
                current = id
                starts += 1
            } else if state == .paused {
                state = .playing
            } else if state == .stopped, let first = current ?? playOrder.first {
                state = .playing
                start(first)
            }
        case .pause:
            if state == .playing { state = .paused }
        case .stop:
            state = .stopped
        case .next:
            guard let c = current else { break }
            step(from: c)
        case let .previous(elapsed):
            guard let c = current else { break }
            let order = playOrder
            let i = order.firstIndex(of: c)!
            if elapsed > 3 {
                starts += 1
            } else if i > 0 {
                start(order[i - 1])
            } else if repeatMode != .off, order.count > 1 {
                start(order.last!)
            } else {
                starts += 1
            }
        case .finished:
            guard state == .playing, let c = current else { break }
            if single != .off, repeatMode != .off {
                if consume { step(from: c) } else { starts += 1 }
            } else if single != .off {
                if single == .oneshot { single = .off }
                step(from: c)
                if state == .playing { state = .paused }
            } else if repeatMode == .one, !consume {
                starts += 1
            } else {
                step(from: c)
            }
        }
        if state == .playing, let c = current, history.last?.entry != c {
            history.append((c, items.first { $0.id == c }!.song))
        }
    }

    mutating func remove(_ gone: Set<Int>) {
        let gone = gone.intersection(ids)
        guard !gone.isEmpty else { return }
        guard let c = current, gone.contains(c) else { return removeItems(gone) }
        defer { if state == .paused { state = .stopped } }
        if random {
            let successor = upcoming.first { !gone.contains($0) }
            played.removeAll { gone.contains($0) }
            upcoming.removeAll { gone.contains($0) }
            items.removeAll { gone.contains($0.id) }
            if let successor {
                upcoming.removeFirst() // the successor is now first of what is left
                current = successor
                starts += 1
            } else if repeatMode != .off, !items.isEmpty {
                current = nil
                wrapRound()
            } else {
                current = nil
                end()
            }
            return
        }
        let p = pos(c)!
        let successor = items[(p + 1)...].first { !gone.contains($0.id) }?.id
        removeItems(gone)
        if let successor { current = successor; starts += 1 }
        else if repeatMode != .off, let first = items.first?.id { current = first; starts += 1 }
        else { end() }
    }
}
