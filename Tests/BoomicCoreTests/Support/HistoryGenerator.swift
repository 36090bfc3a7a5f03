import BoomicTestSupport
import Foundation
@testable import BoomicCore

/// Generates random histories the way the product makes them: each transaction is generated on
/// the basis it applies to, by the same generation functions the commands call.
///
/// Imports scan a simulated disk that changes between scans (new, changed, touched, moved, copied,
/// deleted and restored files, some unreadable, some outside the walked roots); edits pick songs
/// at random or by a query; the player records plays, skips and bookmarks; undo, redo and
/// rollback go back to earlier bases.
struct HistoryGenerator {
    private var rng: SplitMix64
    private(set) var history: History
    /// The music folders as they are now: path → what reading the file would give.
    private var disk: [String: FileFacts] = [:]
    /// Files deleted from disk, which may come back at their old path or somewhere else.
    private var deleted: [String: FileFacts] = [:]
    private var songIDs: CountingIDSource
    private var listIDs: CountingIDSource
    private var fileCounter = 0
    private var fingerprintCounter = 0
    /// Nanoseconds, always moving forward, for file modification times.
    private var clock = 1_700_000_000_000_000_000

    static let maxFiles = 40

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        history = History(seed: seed)
        // Few salts, so that histories share song ids and bases of different histories disagree
        // about the same song (what `diff` between histories must cope with).
        songIDs = CountingIDSource(seed: seed % 3)
        listIDs = CountingIDSource(seed: 1_000 + seed % 3)
    }

    /// A history of 1–30 transactions.
    static func history(seed: UInt64) -> History {
        var g = HistoryGenerator(seed: seed)
        let length = Int.random(in: 1...30, using: &g.rng)
        var attempts = 0
        while g.history.seq < length && attempts < length * 6 {
            g.step()
            attempts += 1
        }
        return g.history
    }

    /// One user action; most commit one transaction, a no-op commits nothing.
    mutating func step() {
        if history.head.isEmpty && rng.chance(0.85) { return scan() }
        // Redo is only possible right after an undo: take the chance often enough to test it.
        if history.stack.redoPlan() != nil && rng.chance(0.35) { history.redo(); return }
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<15: scan()
        case 15..<19: play()
        case 19..<35: modify()
        case 35..<40: annotate()
        case 40..<47: tag()
        case 47..<55: taglist()
        case 55..<60: playlist()
        case 60..<65: eqProfile()
        case 65..<69: remove()
        case 69..<77: rollback()
        case 77..<90: history.undo(Int.random(in: 1...3, using: &rng))
        default: history.redo()
        }
    }

    // MARK: Import

    private mutating func scan() {
        changeDisk()
        let roots = rng.chance(0.8) ? ["/music"] : ["/music", "/other"]
        let listed = disk.keys.sorted()
            .filter { p in roots.contains { p.hasPrefix($0 + "/") } }
            .map { p in ListedFile(path: p, size: disk[p]!.size, mtime: disk[p]!.mtime) }
        let toRead = ImportGeneration.filesToRead(in: history.head, listed: listed)
        // Now and then a file can't be read (corrupt, locked): listed but not read.
        let read = toRead.filter { _ in !rng.chance(0.05) }.map { disk[$0.path]! }
        let plan = ImportGeneration.plan(basis: history.head, roots: roots, listed: listed, read: read,
                                         now: 1_800_000_000 + Double(history.seq), ids: &songIDs)
        history.commit(plan.assertions, kind: .import, label: "import \(roots.joined(separator: " "))")
    }

    private mutating func changeDisk() {
        if disk.isEmpty || rng.chance(0.6) {
            for _ in 0..<Int.random(in: 1...8, using: &rng) where disk.count < Self.maxFiles {
                let f = newFile(under: rng.chance(0.9) ? "/music" : "/other")
                disk[f.path] = f
            }
        }
        if rng.chance(0.3) {  // retagged in another program
            for p in rng.subset(of: disk.keys.sorted(), max: 3) {
                var f = disk[p]!
                retag(&f)
                f.size += Int.random(in: -500...500, using: &rng)
                f.mtime = tick()
                disk[p] = f
            }
        }
        if rng.chance(0.15) {  // touched: newer mtime, same contents
            for p in rng.subset(of: disk.keys.sorted(), max: 2) { disk[p]!.mtime = tick() }
        }
        if rng.chance(0.2) {  // moved or renamed: same audio at a new path
            for p in rng.subset(of: disk.keys.sorted(), max: 2) {
                var f = disk.removeValue(forKey: p)!
                f.path = newPath(under: rng.chance(0.9) ? "/music" : "/other", title: f.title)
                if rng.chance(0.3) { f.mtime = tick() }
                disk[f.path] = f
            }
        }
        if rng.chance(0.15), disk.count >= 2 {
            // Renamed onto each other's paths: a swap, or a chain (renumbering tracks: 2→3, then 1→2).
            let pair = rng.subset(of: disk.keys.sorted(), max: 2).shuffled(using: &rng)
            if pair.count == 2 {
                var first = disk.removeValue(forKey: pair[0])!, second = disk.removeValue(forKey: pair[1])!
                second.path = rng.chance(0.5) ? pair[0] : newPath(under: "/music", title: second.title)
                first.path = pair[1]
                disk[first.path] = first
                disk[second.path] = second
            }
        }
        if rng.chance(0.05), disk.count < Self.maxFiles, let p = disk.keys.sorted().randomElement(using: &rng) {
            var copy = disk[p]!  // a copy: same fingerprint, and the original is still there
            copy.path = newPath(under: "/music", title: copy.title)
            disk[copy.path] = copy
        }
        if rng.chance(0.2) {  // deleted or unmounted
            for p in rng.subset(of: disk.keys.sorted(), max: 2) { deleted[p] = disk.removeValue(forKey: p) }
        }
        if rng.chance(0.25) {  // coming back, where it was or somewhere else
            for p in rng.subset(of: deleted.keys.sorted(), max: 2) where disk.count < Self.maxFiles {
                var f = deleted.removeValue(forKey: p)!
                if rng.chance(0.3) { f.path = newPath(under: "/music", title: f.title) }
                if disk[f.path] == nil { disk[f.path] = f }
            }
        }
    }

    private mutating func tick() -> Int {
        clock += Int.random(in: 1...5_000_000_000, using: &rng)
        return clock
    }

    private mutating func newPath(under root: String, title: String?) -> String {
        fileCounter += 1
        let dir = rng.pick(Samples.artists)
        return "\(root)/\(dir)/\(fileCounter) \(title ?? "untitled").\(rng.pick(Samples.formats))"
    }

    private mutating func newFile(under root: String) -> FileFacts {
        let title: String? = rng.chance(0.9) ? rng.pick(Samples.titles) : nil
        var f = FileFacts(path: newPath(under: root, title: title), size: Int.random(in: 100_000...60_000_000, using: &rng),
                          mtime: tick())
        if rng.chance(0.9) {
            fingerprintCounter += 1
            f.fingerprint = String(format: "fp%06x", fingerprintCounter)
        }
        retag(&f)
        f.title = title
        f.duration = Double(Int.random(in: 60...1_200, using: &rng)) / 4
        f.samplerate = rng.pick([44_100, 48_000, 96_000])
        f.bitdepth = rng.chance(0.7) ? rng.pick([16, 24]) : nil
        f.channels = 2
        f.bitrate = Int.random(in: 128...1_411, using: &rng)
        f.format = String(f.path.split(separator: ".").last!)
        return f
    }

    /// New tag values, as another tagger would write them.
    private mutating func retag(_ f: inout FileFacts) {
        f.title = rng.chance(0.9) ? rng.pick(Samples.titles) : nil
        f.artists = rng.chance(0.9) ? rng.subset(of: Samples.artists, max: rng.chance(0.8) ? 1 : 3) : []
        // Picard's and beets' ARTIST credit beside the list in ARTISTS.
        f.artistCredit = !f.artists.isEmpty && rng.chance(0.25) ? rng.pick(Samples.artistCredits) : nil
        f.album = rng.chance(0.8) ? rng.pick(Samples.albums) : nil
        f.albumartist = rng.chance(0.3) ? rng.pick(Samples.artists) : nil
        // Sort names, made from what was drawn (drawing more would change every seed's history).
        f.artistSort = f.artistCredit.map { $0 + ", The" }
        f.albumSort = f.albumartist == nil ? nil : f.album.map { $0 + ", The" }
        f.compilation = rng.chance(0.1)
        f.track = rng.chance(0.9) ? Int.random(in: 1...12, using: &rng) : nil
        f.tracktotal = rng.chance(0.5) ? 12 : nil
        f.disc = rng.chance(0.3) ? Int.random(in: 1...2, using: &rng) : nil
        f.year = rng.chance(0.8) ? Int.random(in: 1955...2025, using: &rng) : nil
        f.date = rng.chance(0.1) ? rng.pick(Samples.dates) : nil
        f.genre = rng.chance(0.7) ? rng.pick(Samples.genres) : nil
        f.composer = rng.chance(0.2) ? rng.pick(Samples.composers) : nil
        f.comment = rng.chance(0.2) ? rng.pick(Samples.comments) : nil
        f.replaygainTrackGain = rng.chance(0.3) ? Double(Int.random(in: -150...50, using: &rng)) / 10 : nil
        f.replaygainTrackPeak = rng.chance(0.2) ? Double(Int.random(in: 1...1_000, using: &rng)) / 1_000 : nil
        f.mbTrackID = rng.chance(0.1) ? "mb-\(Int.random(in: 1...99, using: &rng))" : nil
        f.art = rng.chance(0.2) ? "art\(Int.random(in: 1...5, using: &rng))" : nil
    }

    // MARK: Edits

    /// The songs a command acts on: a random handful, or (as the CLI does) those matching a query.
    private mutating func chooseSongs() -> [SongID] {
        let ids = history.head.songs.keys.sorted()
        guard !ids.isEmpty else { return [] }
        if rng.chance(0.3) {
            let query = rng.chance(0.1) ? rng.pick([["mood:happy"], ["^bpm:100..140"], ["mood+"]])
                : rng.pick([["artist:\(rng.pick(Samples.artists))"], ["artist:feat"], ["album:blue"], ["genre:jazz"],
                            ["year:1960..1999"], ["#jazz"], ["^genre:pop"], ["#instruments:"]])
            // A user field no song has is an unknown field: that query selects nothing.
            guard let parsed = try? QueryParser.parse(query, userFields: history.head.userFieldNames) else { return [] }
            return (try? history.head.songs(matching: parsed))?.map(\.id) ?? []
        }
        return rng.subset(of: ids, max: max(1, ids.count / 3))
    }

    private mutating func modify() {
        let ids = chooseSongs()
        let assignments = (0..<Int.random(in: 1...3, using: &rng)).map { _ in randomAssignment() }
        let label = "modify " + assignments.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        // As `EditFlow.modify` commits it: a rename carries its album's or artist's annotation.
        history.commit(AnnotationGeneration.carried(EditGeneration.modify(history.head, songs: ids, set: assignments), on: history.head),
                       kind: .edit, label: label)
    }

    /// Stars, unstars or rates songs, or the albums and artists of songs (by name or by
    /// MusicBrainz id), as the API's annotation calls do.
    private mutating func annotate() {
        let head = history.head
        let ids = chooseSongs()
        let songs = ids.compactMap { head[$0] }
        var keys = songs.compactMap(AnnotationKey.album(of:))
        keys += songs.compactMap { s in s.artist.map { AnnotationKey.artist(musicBrainzID: rng.chance(0.2) ? "mb-\($0.count)" : nil, name: $0) } }
        let time = 1_800_000_000 + Double(history.seq)
        let a: [Assertion]
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: a = AnnotationGeneration.star(songs: ids, true, on: head)
        case 1: a = AnnotationGeneration.star(songs: ids, false, on: head)
        case 2: a = AnnotationGeneration.star(keys, at: rng.chance(0.7) ? time : nil, on: head)
        case 3: a = (try? AnnotationGeneration.rate(keys, Int.random(in: 0...5, using: &rng), on: head)) ?? []
        default: a = (try? AnnotationGeneration.rate(songs: ids, Int.random(in: 0...5, using: &rng), on: head)) ?? []
        }
        if !a.isEmpty { history.commit(a, kind: .star, label: "annotate") }
    }

    /// The player: one song played, skipped or left at a bookmark, as `recordPlay` commits it.
    mutating func play() {
        let ids = history.head.songs.keys.sorted()
        guard !ids.isEmpty else { return }
        let id = rng.pick(ids)
        let heard = Double(Int.random(in: 0...600, using: &rng))
        let ending = rng.pick([PlayCounting.Ending.finished, .movedOn, .movedOn, .quit])
        let outcome = PlayCounting.outcome(heard: heard, duration: history.head[id]?.duration, ending: ending)
        let bookmark = rng.chance(0.4) ? Bookmark(position: heard, speed: rng.pick([1, 1, 0.75, 1.5])) : nil
        let record = PlayRecord(song: id, outcome: outcome, time: 1_800_000_000 + Double(history.seq) * 61.5, bookmark: bookmark)
        guard let a = PlayGeneration.record(record, on: history.head) else { return }
        history.commit(a, kind: .play, label: PlayGeneration.label(record, song: history.head[id]!))
    }

    private mutating func randomAssignment() -> FieldAssignment {
        if rng.chance(0.2) {  // the user's own fields, as beets' flexible attributes: set, changed, cleared
            let name = rng.pick(Samples.userFieldNames)
            if rng.chance(0.3) {  // as typed, which creates the field when no song has it yet
                let typed = rng.chance(0.25) ? name + "!" : name + "=" + rng.pick(Samples.userFieldValues)
                if let a = try? FieldAssignment.parse(typed, userFields: history.head.userFieldNames) { return a }
            }
            return FieldAssignment(userField: name, value: rng.chance(0.8) ? rng.pick(Samples.userFieldValues) : nil)
        }
        if rng.chance(0.15) {  // as typed on the command line
            let typed = rng.pick(["year=1969", "artist=Miles Davis; John Coltrane", "genre!", "rating=5",
                                  "artist_credit=Miles Davis feat. John Coltrane", "artist_credit!",
                                  "favorite=yes", "replaygain_album_gain=-6.5 dB", "title=Só Danço Samba",
                                  "comp=true", "albumartist=", "track=3"])
            if let a = try? FieldAssignment.parse(typed) { return a }
        }
        func orNull(_ p: Double, _ v: FieldValue) -> FieldValue { rng.chance(p) ? v : .null }
        let field = rng.pick([SongField.title, .artists, .artistCredit, .album, .albumartist, .genre, .composer, .comment,
                              .year, .track, .disc, .date, .compilation, .rating, .favorite, .playcount,
                              .replaygainAlbumGain])
        let value: FieldValue
        switch field {
        case .title: value = orNull(0.85, .string(rng.pick(Samples.titles)))
        case .artists: value = rng.chance(0.1) ? .null : .strings(rng.subset(of: Samples.artists, max: 3))
        case .artistCredit: value = orNull(0.7, .string(rng.pick(Samples.artistCredits)))
        case .album: value = orNull(0.85, .string(rng.pick(Samples.albums)))
        case .albumartist: value = orNull(0.6, .string(rng.pick(Samples.artists)))
        case .genre: value = orNull(0.8, .string(rng.pick(Samples.genres)))
        case .composer: value = orNull(0.7, .string(rng.pick(Samples.composers)))
        case .comment: value = orNull(0.8, .string(rng.pick(Samples.comments)))
        case .date: value = orNull(0.7, .string(rng.pick(Samples.dates)))
        case .year: value = orNull(0.85, .int(Int.random(in: 1955...2025, using: &rng)))
        case .track, .disc: value = orNull(0.85, .int(Int.random(in: 1...12, using: &rng)))
        case .rating: value = orNull(0.8, .int(Int.random(in: 1...5, using: &rng)))
        case .playcount: value = .int(Int.random(in: 0...20, using: &rng))
        case .compilation, .favorite: value = .bool(rng.chance(0.5))
        default: value = orNull(0.8, .double(Double(Int.random(in: -150...50, using: &rng)) / 10))
        }
        return FieldAssignment(field: field, value: value)
    }

    private mutating func tag() {
        let ids = chooseSongs()
        let add = rng.chance(0.7) ? rng.subset(of: Samples.tagsToAdd, max: 2) : []
        let remove = rng.chance(0.5) ? rng.subset(of: Samples.tagsToRemove, max: 2) : []
        let label = "tag " + (add.map { "+#\($0)" } + remove.map { "-#\($0)" }).joined(separator: " ")
        history.commit(EditGeneration.tag(history.head, songs: ids, add: add, remove: remove), kind: .tag, label: label)
    }

    private mutating func remove() {
        let ids = rng.subset(of: history.head.songs.keys.sorted(), max: 3)
        history.commit(EditGeneration.remove(history.head, songs: ids), kind: .remove, label: "remove \(ids.count) songs")
    }

    // MARK: Taglists and playlists

    private static let listNames = ["mix", "Mix", "jazz", "Jázz", "road trip", "  spaced  "]
    private static let clauseSets = [["+#jazz"], ["+#english,#french", "-#french", "-@year(<2000)"],
                                     ["-@rating:<3"], ["+#instruments:", "+count(#instruments:) <= 2"],
                                     ["+@genre:jazz,@year:1960..1969"]]

    private mutating func taglist() {
        let name = rng.pick(Self.listNames)
        let clauses = rng.pick(Self.clauseSets)
        let head = history.head
        let assertions: [Assertion]?
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            let t = try! Taglist.parse(name: name, clauses: clauses)
            assertions = try? TaglistGeneration.add(t, id: ListID(listIDs.next()), on: head)
        case 1:
            let parsed = try! Taglist.parse(name: name, clauses: clauses).clauses
            assertions = try? TaglistGeneration.edit(name, clauses: rng.chance(0.7) ? parsed : nil,
                                                     rename: rng.chance(0.3) ? rng.pick(Self.listNames) : nil, on: head)
        default:
            assertions = try? TaglistGeneration.remove(name, on: head)
        }
        if let assertions { history.commit(assertions, kind: .taglist, label: "taglist \(name)") }
    }

    private mutating func playlist() {
        let name = rng.pick(Self.listNames)
        let head = history.head
        let ids = head.songs.keys.sorted()
        let count = head.playlist(named: name)?.playlist.songs.count ?? 0
        func position() -> Int { Int.random(in: 0...(count + 1), using: &rng) }  // sometimes out of range
        let assertions: [Assertion]?
        // Most operations need the playlist to exist: create one half of the time it does not.
        switch head.playlist(named: name) == nil && rng.chance(0.5) ? 0 : Int.random(in: 0..<6, using: &rng) {
        case 0: assertions = try? PlaylistGeneration.create(name, songs: rng.subset(of: ids + ids, max: 4), id: ListID(listIDs.next()), on: head)
        case 1: assertions = try? PlaylistGeneration.add(name, songs: chooseSongs(), at: rng.chance(0.3) ? position() : nil, on: head)
        case 2: assertions = try? PlaylistGeneration.remove(name, positions: [position(), position()], on: head)
        case 3: assertions = try? PlaylistGeneration.move(name, from: position(), to: position(), on: head)
        case 4: assertions = try? PlaylistGeneration.rename(name, to: rng.pick(Self.listNames), on: head)
        default: assertions = try? PlaylistGeneration.delete(name, on: head)
        }
        if let assertions { history.commit(assertions, kind: .playlist, label: "playlist \(name)") }
    }

    private static let eqSpecs = [EQSpec(graphic: [3, 1, 0, 0, -1, 2]), EQSpec(bands: [EQBand(.peaking, frequency: 3000, gain: -4)]),
                                  EQSpec(graphic: [0, 0, 0, 0, 0, 6], preamp: -6)]

    /// Saves (new or over) or removes an EQ profile; a preset's name is refused by generation.
    private mutating func eqProfile() {
        let name = rng.pick(Self.listNames + ["rock"])
        let head = history.head
        let assertions: [Assertion]? = rng.chance(0.7)
            ? try? EQProfileGeneration.save(name, spec: rng.pick(Self.eqSpecs), id: ListID(listIDs.next()), on: head)
            : try? EQProfileGeneration.remove(name, on: head)
        if let assertions, !assertions.isEmpty { history.commit(assertions, kind: .eq, label: "eq \(name)") }
    }

    private mutating func rollback() {
        guard history.seq > 0 else { return }
        history.rollback(to: Int.random(in: 0..<history.seq, using: &rng))
    }
}
