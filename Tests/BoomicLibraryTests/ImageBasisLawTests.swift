import BoomicStore
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore
@testable import BoomicLibrary

/// The laws of a basis held as a checkpoint image plus a delta (storage.md, "The basis: image +
/// delta"), on every random history and at several split points: the image of the state after
/// transaction k, with the transactions after k applied on top, is the replayed head — its
/// songs, its queries, its diffs — whichever path a reader takes.
@Suite("Image + delta laws on random histories")
struct ImageBasisLawTests {
    /// The state after `seq` as a checkpoint image, decoded as a command opens it.
    static func imaged(_ b: DataBasis) throws -> DataBasis {
        try BasisCodec.decode(ImageBytes(copying: BasisCodec.encode(b)))
    }

    /// The image of state `k` with the transactions after it: what a command holds. Folded as
    /// the open folds them (updates kept as patches) for half the histories, and applied one at
    /// a time (the updated songs read into the delta, as a commit or a state taken back holds
    /// them) for the other half.
    static func imagePlusDelta(_ h: History, split k: Int) throws -> DataBasis {
        let image = try imaged(h.bases[k])
        let ts = Array(h.transactions[k...])
        return h.seed % 2 == 0 ? image.applying(transactions: ts, keepingPatches: true) : ts.reduce(image) { $0.applying($1) }
    }

    static func splits(_ h: History, _ rng: inout SplitMix64) -> [Int] {
        Array(Set([0, h.seq / 2, h.seq, Int.random(in: 0...h.seq, using: &rng)])).sorted()
    }

    @Test("image + delta equals the replayed basis at every split point")
    func imagePlusDeltaIsReplay() throws {
        var checked = 0
        for h in Histories.all {
            var rng = SplitMix64(seed: h.seed ^ 0x1A6E)
            for k in Self.splits(h, &rng) {
                let image = try Self.imaged(h.bases[k])
                #expect(image.songs.image != nil && !image.songs.hasDelta, "seed \(h.seed)")
                #expect(image == h.bases[k], "seed \(h.seed): the image of state \(k) is not that state")
                var applied = image
                for t in h.transactions[k...] { applied = applied.applying(t) }
                let patched = image.applying(transactions: Array(h.transactions[k...]), keepingPatches: true)
                for (b, how) in [(applied, "applied"), (patched, "patched")] {
                    #expect(b == h.head, "seed \(h.seed): image of \(k) + \(h.seq - k) transactions \(how) differs from the replay")
                    #expect(b.songs.count == h.head.songs.count, "seed \(h.seed) split \(k)")
                    #expect(b.userFieldNames == h.head.userFieldNames, "seed \(h.seed) split \(k): user field names")
                    // Each song read by id, and the whole iteration, agree.
                    for (id, s) in h.head.songs { #expect(b[id] == s, "seed \(h.seed) split \(k): song \(id)") }
                    let listed = Dictionary(b.songs.map { ($0.key, $0.value) }, uniquingKeysWith: { x, _ in x })
                    #expect(listed.count == b.songs.count, "seed \(h.seed) split \(k): iteration repeats a song")
                    #expect(listed == Dictionary(uniqueKeysWithValues: h.head.songs.map { ($0.key, $0.value) }), "seed \(h.seed) split \(k)")
                    // A song the delta removed is gone however it is asked for.
                    for id in Set(h.bases[k].songs.keys).subtracting(h.head.songs.keys) {
                        #expect(b[id] == nil && !b.songs.contains(id), "seed \(h.seed) split \(k): removed song \(id) still read")
                    }
                }
                checked += 1
            }
        }
        #expect(checked >= Seeds.atLeast(100))
    }

    /// How opening folds the tail after its checkpoint: every updated song read ahead in one
    /// pass, then the transactions applied in turn, never flattened.
    @Test("the tail folded with its songs read ahead, or kept as patches, equals the tail applied one by one")
    func tailReadAheadIsTheFold() throws {
        var checked = 0, patchedSongs = 0
        for h in Histories.all where h.seq > 1 {
            var rng = SplitMix64(seed: h.seed ^ 0x7A11)
            for k in Self.splits(h, &rng) where k < h.seq {
                let image = try Self.imaged(h.bases[k])
                let end = Int.random(in: (k + 1)...h.seq, using: &rng)
                let ts = Array(h.transactions[k..<end])
                let folded = ts.reduce(image) { $0.applying($1) }
                let readAhead = image.applying(transactions: ts)
                #expect(readAhead == folded && readAhead == h.bases[end], "seed \(h.seed): image of \(k) + \(k + 1)...\(end)")
                #expect(readAhead.songs.image === image.songs.image, "seed \(h.seed): the image is kept")
                for (id, s) in h.bases[end].songs { #expect(readAhead[id] == s, "seed \(h.seed) \(k)...\(end): song \(id)") }
                #expect(readAhead.userFieldNames == h.bases[end].userFieldNames, "seed \(h.seed) \(k)...\(end): user field names")
                // As the open folds it: the updated songs kept as patches, read when asked for.
                let patched = image.applying(transactions: ts, keepingPatches: true)
                patchedSongs += patched.songs.patched.count
                #expect(patched == h.bases[end] && patched.songs.count == h.bases[end].songs.count, "seed \(h.seed): patched \(k)...\(end)")
                #expect(patched.songs.songs(h.bases[end].songs.keys) == Dictionary(uniqueKeysWithValues: h.bases[end].songs.map { ($0.key, $0.value) }),
                        "seed \(h.seed) \(k)...\(end): the songs read together")
                for (id, s) in h.bases[end].songs { #expect(patched[id] == s, "seed \(h.seed) \(k)...\(end): patched song \(id)") }
                #expect(patched.userFieldNames == h.bases[end].userFieldNames, "seed \(h.seed) \(k)...\(end): patched user field names")
                #expect(patched.diff(to: readAhead).isEmpty && readAhead.diff(to: patched).isEmpty, "seed \(h.seed) \(k)...\(end): diff")
                // Without an image (a replay from the first transaction) it is the fold too.
                #expect(h.bases[k].applying(transactions: ts) == h.bases[end], "seed \(h.seed): in memory \(k)...\(end)")
                checked += 1
            }
        }
        #expect(checked >= Seeds.atLeast(100))
        #expect(patchedSongs >= Seeds.atLeast(100), "only \(patchedSongs) songs kept as patches")
    }

    /// The open keeps an update as a patch without looking for the song's row, so an update of
    /// a song the image lacks (gone before the checkpoint, or not yet added) is kept too: it must
    /// change nothing, as applying it changes nothing, before and after the song is added.
    @Test("updates of songs the image lacks change nothing when kept as patches")
    func patchesOfSongsTheImageLacks() throws {
        var checked = 0
        for h in Histories.all where h.seq > 1 {
            var rng = SplitMix64(seed: h.seed ^ 0x9A7C)
            for k in Self.splits(h, &rng) where k > 0 {
                let image = try Self.imaged(h.bases[k])
                guard let model = image.songs.first(where: { _ in true })?.value else { continue }
                let gone = Set(h.bases[k - 1].songs.keys).union(h.head.songs.keys).subtracting(h.bases[k].songs.keys)
                var newcomer = model
                newcomer.id = SongID(UUID(uuid: (0xFE, 0, 0, 0, 0, 0, 0x40, UInt8(k & 0xFF), 0x80, 0, 0, 0, 0, 0, 0, UInt8(h.seed & 0xFF))))
                newcomer.path = model.path + ".new"
                let retitle = { (id: SongID, title: String) in
                    Assertion.updateSong(id, [.title: FieldChange(old: .null, new: .string(title))])
                }
                var assertions = gone.map { retitle($0, "of a song gone") }
                assertions += [retitle(newcomer.id, "before it is added"), .addSong(newcomer), retitle(newcomer.id, "after")]
                let t = Transaction(id: UUID(), parent: nil, timestamp: 1, kind: .edit, label: "law", assertions: assertions)
                let applied = image.applying(t)
                let patched = image.applying(transactions: [t], keepingPatches: true)
                #expect(patched == applied && patched.songs.count == applied.songs.count && applied.songs.count == h.bases[k].songs.count + 1,
                        "seed \(h.seed) split \(k)")
                #expect(patched[newcomer.id]?.title == "after" && applied[newcomer.id]?.title == "after", "seed \(h.seed) split \(k)")
                for id in gone { #expect(patched[id] == nil && !patched.songs.contains(id), "seed \(h.seed) split \(k): \(id)") }
                #expect(patched.diff(to: applied).isEmpty && applied.diff(to: patched).isEmpty, "seed \(h.seed) split \(k): diff")
                #expect(patched.diff(to: image).count == 1, "seed \(h.seed) split \(k): the newcomer alone")
                checked += 1
            }
        }
        #expect(checked >= Seeds.atLeast(50))
    }

    /// An image's lists are decoded when first read, by whichever copy of the basis reads them,
    /// and once: a copy made before the read sees them decoded.
    @Test("an image's lists are decoded at their first read, and are the replayed lists")
    func listsDecodedWhenRead() throws {
        var withLists = 0
        for h in Histories.all where !h.head.lists.taglists.isEmpty || !h.head.lists.playlists.isEmpty {
            let image = try Self.imaged(h.head)
            let copy = image
            #expect(!image.hasDecodedLists, "seed \(h.seed): the lists were decoded at the open")
            #expect(image.lists == h.head.lists, "seed \(h.seed)")
            #expect(copy.hasDecodedLists && image.hasDecodedLists, "seed \(h.seed): a copy decodes them again")
            #expect(copy.taglists == h.head.taglists && copy.playlists == h.head.playlists
                    && copy.eqProfiles == h.head.eqProfiles && copy.annotations == h.head.annotations, "seed \(h.seed)")
            withLists += 1
        }
        #expect(withLists >= Seeds.atLeast(20))
    }

    /// A rescan compares every file with four columns of the songs filed at its path, not whole
    /// songs: what it decides to read, which paths hold tracks, each path's cover and the songs
    /// it marks missing are what whole songs say.
    @Test("a rescan's files to read, from the columns, are those whole songs give")
    func filesToReadFromColumns() throws {
        var compared = 0, markedMissing = 0
        for h in Histories.all where h.seq > 0 {
            var rng = SplitMix64(seed: h.seed ^ 0xF11E)
            let b = try Self.imagePlusDelta(h, split: h.seq / 2)
            var listed: [ListedFile] = h.head.songs.map { _, s in
                // Unchanged, or a size or mtime that moved.
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: ListedFile(path: s.path, size: s.size + 1, mtime: s.mtime)
                case 1: ListedFile(path: s.path, size: s.size, mtime: s.mtime - 1)
                default: ListedFile(path: s.path, size: s.size, mtime: s.mtime)
                }
            }
            listed.append(ListedFile(path: "/new/\(h.seed).flac", size: 1, mtime: 1))
            let whole = listed.filter { f in
                guard let s = ImportGeneration.songs(at: f.path, in: h.head, fingerprint: nil).first else { return true }
                return s.missing || s.size != f.size || s.mtime != f.mtime
            }
            #expect(ImportGeneration.filesToRead(in: b, listed: listed) == whole, "seed \(h.seed)")
            #expect(ImportGeneration.filesToRead(in: h.head, listed: listed) == whole, "seed \(h.seed), in memory")
            let tracks = Set(h.head.songs.values.filter { $0.start != nil || $0.sheet != nil }.map { PathKey($0.path) })
            #expect(ImportGeneration.pathsOfTracks(in: b) == tracks, "seed \(h.seed)")
            let covers = Dictionary(uniqueKeysWithValues: h.head.paths.keys.compactMap { key in
                h.head.song(atPath: key.path)?.art.map { (key, $0) }
            })
            #expect(ImportGeneration.artByPath(in: b) == covers, "seed \(h.seed)")
            // With some files gone, the songs the plan marks missing (it asks every song).
            let kept = listed.filter { _ in Int.random(in: 0..<5, using: &rng) > 0 }
            var ids = CountingIDSource(seed: h.seed), sameIDs = CountingIDSource(seed: h.seed)
            let planned = ImportGeneration.plan(basis: b, roots: ["/music"], listed: kept, read: [], now: 0, ids: &ids)
            let expected = ImportGeneration.plan(basis: h.head, roots: ["/music"], listed: kept, read: [], now: 0, ids: &sameIDs)
            // In the order each basis lists its songs (the image's rows by path, then the delta).
            #expect(planned.assertions.count == expected.assertions.count
                    && planned.assertions.allSatisfy(expected.assertions.contains) && planned.summary == expected.summary,
                    "seed \(h.seed): the gone songs")
            markedMissing += planned.summary.missing
            compared += listed.count
        }
        #expect(compared >= Seeds.atLeast(1_000), "only \(compared) files compared")
        #expect(markedMissing >= Seeds.atLeast(100), "only \(markedMissing) songs marked missing")
    }

    @Test("the indexes of image + delta are those of the replayed basis")
    func indexesAgree() throws {
        for h in Histories.all where h.seq > 0 {
            let k = h.seq / 2
            let b = try Self.imagePlusDelta(h, split: k)
            #expect(b.albums == h.head.albums, "seed \(h.seed)")
            #expect(b.artists == h.head.artists, "seed \(h.seed)")
            #expect(b.tags == h.head.tags, "seed \(h.seed)")
            #expect(b.paths == h.head.paths, "seed \(h.seed)")
            #expect(b.fingerprints == h.head.fingerprints, "seed \(h.seed)")
        }
    }

    /// The open's patches, then indexes built, then more transactions (folded with patches or
    /// applied): once indexes are built an update is read and relinked, never kept as a patch.
    @Test("indexes built over patched songs stay right through later transactions")
    func indexesOverPatchesStayRight() throws {
        var checked = 0
        for h in Histories.all where h.seq > 2 {
            let k = h.seq / 3, m = 2 * h.seq / 3
            var b = try Self.imaged(h.bases[k]).applying(transactions: Array(h.transactions[k..<m]), keepingPatches: true)
            _ = b.albums
            let later = Array(h.transactions[m...])
            b = h.seed % 2 == 0 ? b.applying(transactions: later, keepingPatches: true) : later.reduce(b) { $0.applying($1) }
            #expect(b == h.head, "seed \(h.seed)")
            #expect(b.albums == h.head.albums && b.artists == h.head.artists && b.tags == h.head.tags
                    && b.paths == h.head.paths && b.fingerprints == h.head.fingerprints, "seed \(h.seed): indexes")
            #expect(b.invariantViolations().isEmpty, "seed \(h.seed)")
            checked += 1
        }
        #expect(checked >= Seeds.atLeast(50))
    }

    @Test("diffs between states over one image equal the diffs of the replayed states, both ways")
    func diffsOverOneImage() throws {
        for h in Histories.all where h.seq > 1 {
            var rng = SplitMix64(seed: h.seed ^ 0xD1FF)
            let k = Int.random(in: 0..<h.seq, using: &rng)
            let image = try Self.imaged(h.bases[k])
            var states = [image]
            // Half the histories hold their updates as patches, as a command's open does.
            let patching = h.seed % 2 == 0
            for t in h.transactions[k...] { states.append(states[states.count - 1].applying(t.assertions, keepingPatches: patching)) }
            for _ in 0..<3 {
                let a = Int.random(in: 0..<states.count, using: &rng), c = Int.random(in: 0..<states.count, using: &rng)
                let d = states[a].diff(to: states[c])
                #expect(d == h.bases[k + a].diff(to: h.bases[k + c]), "seed \(h.seed): diff \(k + a)→\(k + c)")
                #expect(states[a].applying(d) == states[c], "seed \(h.seed): \(k + a) + diff is not \(k + c)")
                #expect((states[a] == states[c]) == (h.bases[k + a] == h.bases[k + c]), "seed \(h.seed): == \(k + a), \(k + c)")
            }
        }
    }

    @Test("queries planned on the image's columns find what a scan of every song finds")
    func queriesOnColumnsAgreeWithTheScan() throws {
        var checked = 0, matchedSome = 0
        for h in Histories.all where !h.head.isEmpty {
            var rng = SplitMix64(seed: h.seed ^ 0x9E77)
            let k = Int.random(in: 0...h.seq, using: &rng)
            let b = try Self.imagePlusDelta(h, split: k)
            let songs = Array(h.head.songs.values)
            for _ in 0..<6 {
                let args = Self.randomQuery(from: songs, &rng)
                guard let parsed = try? QueryParser.parse(args) else { continue }
                let planned = try b.songs(matching: parsed).map(\.id)
                let scanned = try h.head.songs(matching: parsed).map(\.id)
                #expect(planned == scanned, "seed \(h.seed) split \(k): \(args) as \(parsed.query)")
                checked += 1
                if !scanned.isEmpty { matchedSome += 1 }
            }
        }
        #expect(checked >= Seeds.atLeast(200))
        #expect(matchedSome >= checked / 4, "queries too strict: \(matchedSome) of \(checked) match")
    }

    /// `path:` of an ASCII folder or file bisects the image's rows, which are in path order by
    /// bytes, then tests the range's paths as a scan does: prefixes cut inside a name, a file's
    /// whole path, the roots, and names in both Unicode forms (not ASCII: every path tested).
    @Test("path: queries over image + delta, bisected on the paths, find what a scan finds")
    func pathQueriesBisectedAgreeWithTheScan() throws {
        var checked = 0, matchedSome = 0, bisected = 0
        for h in Histories.all where !h.head.isEmpty {
            var rng = SplitMix64(seed: h.seed ^ 0xB15E)
            let k = Int.random(in: 0...h.seq, using: &rng)
            let b = try Self.imagePlusDelta(h, split: k)
            let paths = h.head.songs.values.map(\.path)
            var prefixes = ["/", "/music", "/music/", "/other", "/music/AC", "/music/Bj", "/nowhere"]
            for _ in 0..<3 {
                let path = rng.pick(paths), folder = (path as NSString).deletingLastPathComponent
                prefixes += [path, folder, folder + "/", String(folder.dropLast(Int.random(in: 1...3, using: &rng))),
                             folder.decomposedStringWithCanonicalMapping, path.precomposedStringWithCanonicalMapping]
            }
            for prefix in prefixes {
                let parsed = try QueryParser.parse(["path:" + prefix])
                let planned = try b.songs(matching: parsed).map(\.id), scanned = try h.head.songs(matching: parsed).map(\.id)
                #expect(planned == scanned, "seed \(h.seed) split \(k): path:\(prefix)")
                checked += 1
                if !scanned.isEmpty { matchedSome += 1 }
                if prefix.utf8.allSatisfy({ $0 < 0x80 }) { bisected += 1 }
            }
        }
        #expect(checked >= Seeds.atLeast(200))
        #expect(matchedSome >= checked / 3 && bisected >= checked / 2, "\(matchedSome) matched and \(bisected) bisected of \(checked)")
    }

    @Test("a search over image + delta, its candidates found on the columns, is the replayed basis's")
    func searchOnColumnsAgreesWithTheScan() throws {
        var checked = 0, foundSome = 0, planned = 0
        for h in Histories.all where !h.head.isEmpty {
            var rng = SplitMix64(seed: h.seed ^ 0x5EA7)
            let k = Int.random(in: 0...h.seq, using: &rng)
            let b = try Self.imagePlusDelta(h, split: k)
            let songs = Array(h.head.songs.values)
            for _ in 0..<4 {
                let text = Self.randomSearch(from: songs, &rng)
                let shown = "seed \(h.seed) split \(k): '\(text)'"
                guard let expected = try? h.head.search(text, limit: nil) else { continue }
                #expect(try b.search(text, limit: nil) == expected, "\(shown)")
                if let image = b.songs.image, var pass = try? SearchPass(text), pass.candidateRows(in: image) != nil { planned += 1 }
                checked += 1
                if !expected.isEmpty { foundSome += 1 }
            }
        }
        #expect(checked >= Seeds.atLeast(200))
        #expect(foundSome >= checked / 4, "searches too strict: \(foundSome) of \(checked) find something")
        #expect(planned >= checked / 2, "the columns decided only \(planned) of \(checked) searches")
    }

    @Test("albums' song counts over image + delta, read from the album column, are the replayed basis's index")
    func albumCountsOnColumnsAgreeWithTheIndex() throws {
        var checked = 0
        for h in Histories.all where !h.head.isEmpty {
            var rng = SplitMix64(seed: h.seed ^ 0xA1B)
            let k = Int.random(in: 0...h.seq, using: &rng)
            let b = try Self.imagePlusDelta(h, split: k)
            let index = h.head.albums
            // Albums the head has, and one it lacks (a title it has under another artist).
            var keys = Set(index.keys.filter { _ in rng.chance(0.5) })
            if let any = index.keys.first { keys.insert(AlbumKey(artist: any.artist + "x", title: any.title)) }
            let expected = index.filter { keys.contains($0.key) }.mapValues(\.count)
            #expect(b.songCounts(ofAlbums: keys) == Dictionary(uniqueKeysWithValues: expected.map { ($0.key, $0.value) }),
                    "seed \(h.seed) split \(k)")
            checked += 1
        }
        #expect(checked >= Seeds.atLeast(50))
    }

    /// What people type into a search box, from the songs' own names: a word or two of a title,
    /// artist, album, album artist or composer, cut short or cased differently; a compilation's
    /// "various"; sometimes a word no song has.
    static func randomSearch(from songs: [Song], _ rng: inout SplitMix64) -> String {
        func word() -> String {
            let s = songs[Int.random(in: 0..<songs.count, using: &rng)]
            let source: String? = rng.pick([s.title, s.artists.first, s.album, s.albumartist, s.composer, "Various Artists", "zzq"])
            let parts = (source ?? "zz").split(separator: " ").map(String.init)
            var w = parts.isEmpty ? "zz" : rng.pick(parts)
            if rng.chance(0.3), w.count > 2 { w = String(w.prefix(Int.random(in: 1..<w.count, using: &rng))) }
            if rng.chance(0.3) { w = w.uppercased() }
            return w
        }
        return (0..<Int.random(in: 1...2, using: &rng)).map { _ in word() }.joined(separator: " ")
    }

    @Test("a TagView and a taglist's count over image + delta are those of the replayed basis")
    func tagViewsOnTheImageAgreeWithTheReplay() throws {
        var checked = 0, keptSome = 0, planned = 0
        for h in Histories.all where !h.head.isEmpty {
            var rng = SplitMix64(seed: h.seed ^ 0x7A6)
            let k = Int.random(in: 0...h.seq, using: &rng)
            let b = try Self.imagePlusDelta(h, split: k)
            let songs = Array(h.head.songs.values)
            for _ in 0..<4 {
                guard let taglist = Self.randomTaglist(from: songs, &rng) else { continue }
                if let image = b.songs.image, TaglistMatcher(taglist).rows(in: image) != nil { planned += 1 }
                let read = b.view(through: taglist), replayed = h.head.view(through: taglist)
                let shown = "seed \(h.seed) split \(k): \(taglist.arguments)"
                #expect(Dictionary(uniqueKeysWithValues: read.songs.map { ($0.key, $0.value) })
                        == Dictionary(uniqueKeysWithValues: replayed.songs.map { ($0.key, $0.value) }), "\(shown)")
                #expect(read.albums == replayed.albums, "\(shown): albums")
                #expect(b.songCount(in: taglist) == replayed.songs.count, "\(shown): count")
                #expect(b.songs(in: taglist) == h.head.songs(in: taglist), "\(shown): songs in order")
                checked += 1
                if !replayed.isEmpty { keptSome += 1 }
            }
        }
        #expect(checked >= Seeds.atLeast(200))
        #expect(keptSome >= checked / 4, "taglists too strict: \(keptSome) of \(checked) keep songs")
        #expect(planned >= checked / 2, "the columns decided only \(planned) of \(checked) taglists")
    }

    /// `ls --view T QUERY` reads through the taglist without building the view: the query's
    /// songs that the taglist holds, the taglist decided on those songs or on its columns.
    @Test("a query through a taglist over image + delta is the query on the replayed TagView")
    func queriesThroughATaglistAreTheQueryOnTheView() throws {
        var checked = 0, keptSome = 0
        for h in Histories.all where !h.head.isEmpty {
            var rng = SplitMix64(seed: h.seed ^ 0x71E3)
            let k = Int.random(in: 0...h.seq, using: &rng)
            let b = try Self.imagePlusDelta(h, split: k)
            let songs = Array(h.head.songs.values)
            for _ in 0..<4 {
                guard let taglist = Self.randomTaglist(from: songs, &rng),
                      let parsed = try? QueryParser.parse(Int.random(in: 0..<4, using: &rng) == 0 ? [] : Self.randomQuery(from: songs, &rng))
                else { continue }
                let expected = try h.head.view(through: taglist).songs(matching: parsed).map(\.id)
                let shown = "seed \(h.seed) split \(k): \(taglist.arguments) then \(parsed.query)"
                for (basis, path) in [(b, "image + delta"), (h.head, "replay")] {
                    for few in [1, Int.max] {
                        let through = try basis.songs(matching: parsed, through: taglist, timeZone: .gmt, sorted: true, fewRows: few)
                        #expect(through.map(\.id) == expected, "\(shown): \(path), fewRows \(few)")
                    }
                    let unsorted = try basis.songs(matching: parsed, through: taglist, sorted: false)
                    #expect(Set(unsorted.map(\.id)) == Set(expected) && unsorted.count == expected.count, "\(shown): \(path), unsorted")
                }
                checked += 1
                if !expected.isEmpty { keptSome += 1 }
            }
        }
        #expect(checked >= Seeds.atLeast(200))
        #expect(keptSome >= checked / 5, "too strict: \(keptSome) of \(checked) keep songs")
    }

    /// `ls -a` and `ls --artists` read only `Browse.albumFields` / `artistFields` of each song:
    /// the albums and artists made of those are the ones made of whole songs, through a taglist
    /// too (decided on the songs, which then read its fields as well).
    @Test("albums and artists of songs read with their few fields are those of whole songs")
    func albumsOfFewFieldsAreThoseOfWholeSongs() throws {
        var checked = 0, listedSome = 0
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for h in Histories.all where !h.head.isEmpty {
            var rng = SplitMix64(seed: h.seed ^ 0xA1B5)
            let k = Int.random(in: 0...h.seq, using: &rng)
            let b = try Self.imagePlusDelta(h, split: k)
            let songs = Array(h.head.songs.values)
            for _ in 0..<3 {
                guard let parsed = try? QueryParser.parse(Int.random(in: 0..<3, using: &rng) == 0 ? [] : Self.randomQuery(from: songs, &rng))
                else { continue }
                let taglist = Int.random(in: 0..<2, using: &rng) == 0 ? Self.randomTaglist(from: songs, &rng) : nil
                let shown = "seed \(h.seed) split \(k): \(parsed.query) through \(taglist?.arguments ?? [])"
                let whole = try h.head.songs(matching: parsed, through: taglist, sorted: false)
                for few in [1, Int.max] {
                    let forAlbums = try b.songs(matching: parsed, through: taglist, timeZone: .gmt, sorted: false,
                                                reading: Browse.albumFields, fewRows: few)
                    let forArtists = try b.songs(matching: parsed, through: taglist, timeZone: .gmt, sorted: false,
                                                 reading: Browse.artistFields, fewRows: few)
                    let albums = Browse.albums(of: forAlbums, in: b), expected = Browse.albums(of: whole, in: h.head)
                    #expect(try encoder.encode(albums) == encoder.encode(expected), "\(shown), fewRows \(few): albums")
                    #expect(albums.map { $0.firstSong?.id } == expected.map { $0.firstSong?.id }, "\(shown), fewRows \(few): first songs")
                    #expect(try encoder.encode(Browse.artists(of: forArtists, in: b)) == encoder.encode(Browse.artists(of: whole, in: h.head)),
                            "\(shown), fewRows \(few): artists")
                }
                checked += 1
                if !whole.isEmpty { listedSome += 1 }
            }
        }
        #expect(checked >= Seeds.atLeast(200))
        #expect(listedSome >= checked / 4, "too strict: \(listedSome) of \(checked) list songs")
    }

    /// `ls` reads only the fields its line prints, and the order those the sort reads: the
    /// songs come in the order of whole songs, with the fields read as whole songs hold them,
    /// through a taglist too.
    @Test("a sorted listing of a few fields is whole songs' order and values")
    func sortedListingsOfFewFieldsAreThoseOfWholeSongs() throws {
        var checked = 0, listedSome = 0
        let printable: [SongField] = [.title, .artists, .artistCredit, .album, .genre, .year, .duration, .tags, .missing,
                                      .userFields, .rating, .bitrate, .composer, .date]
        for h in Histories.all where !h.head.isEmpty {
            var rng = SplitMix64(seed: h.seed ^ 0x50F7)
            let k = Int.random(in: 0...h.seq, using: &rng)
            let b = try Self.imagePlusDelta(h, split: k)
            let songs = Array(h.head.songs.values)
            for _ in 0..<3 {
                var arguments = Int.random(in: 0..<3, using: &rng) == 0 ? [] : Self.randomQuery(from: songs, &rng)
                for _ in 0..<Int.random(in: 0...2, using: &rng) {
                    arguments.append(rng.pick(["album", "albumartist", "artist", "composer", "year", "track", "mood", "added"])
                                     + (Bool.random(using: &rng) ? "+" : "-"))
                }
                guard let parsed = try? QueryParser.parse(arguments) else { continue }
                let taglist = Int.random(in: 0..<3, using: &rng) == 0 ? Self.randomTaglist(from: songs, &rng) : nil
                let fields = printable.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }
                let shown = "seed \(h.seed) split \(k): \(arguments) through \(taglist?.arguments ?? []) reading \(fields)"
                let whole = try h.head.songs(matching: parsed, through: taglist)
                for few in [1, Int.max] {
                    let read = try b.songs(matching: parsed, through: taglist, timeZone: .gmt, sorted: true, reading: fields, fewRows: few)
                    #expect(read.map(\.id) == whole.map(\.id), "\(shown), fewRows \(few): order")
                    let differing = zip(read, whole).first { r, w in r.path != w.path || fields.contains { $0.value(in: r) != $0.value(in: w) } }
                    #expect(differing == nil, "\(shown), fewRows \(few): \(differing.map { "\($0.0.id)" } ?? "")")
                }
                checked += 1
                if !whole.isEmpty { listedSome += 1 }
            }
        }
        #expect(checked >= Seeds.atLeast(200))
        #expect(listedSome >= checked / 4, "too strict: \(listedSome) of \(checked) list songs")
    }

    /// Rules built from the songs' own values, of every kind a taglist reads: tags, tag
    /// prefixes and counts, numbers, texts (the artists with the credit), dates, user fields;
    /// positive and negative clauses of one or two rules.
    static func randomTaglist(from songs: [Song], _ rng: inout SplitMix64) -> Taglist? {
        func rule() -> String {
            let s = songs[Int.random(in: 0..<songs.count, using: &rng)]
            func word(_ t: String?) -> String {
                let parts = (t ?? "zz").split(whereSeparator: { !$0.isLetter && !$0.isNumber })
                return String(parts.isEmpty ? "zz" : parts[Int.random(in: 0..<parts.count, using: &rng)])
            }
            switch Int.random(in: 0..<15, using: &rng) {
            case 0: return "@artist:\(word(s.artistCredit ?? s.artists.first))"
            // One of a joined value's parts (`Jazz; Electronic`), whole: a rule reads the parts.
            case 14: return "@genre:=\(word(s.genre))"
            // Whole values and their negations: `!=` holds where no artist, the joined list nor
            // the credit is equal, and on a song with no value.
            case 10: return "@artist:!=\(s.artistCredit ?? s.artists.first ?? "x")"
            case 11: return "@artist:=\(s.artists.last ?? "x")"
            case 12: return "@year:!=\(s.year ?? 1990)"
            case 13: return "@mood:!=\(rng.pick(["happy", "sad"]))"
            case 1: return "@title:\(word(s.title))"
            case 2: return "@year:\((s.year ?? 1990) - 3)..\((s.year ?? 1990) + 3)"
            case 3: return "#\(s.tags.first ?? "jazz")"
            case 4: return "@genre:\(word(s.genre))"
            case 5: return "@rating:>=\(Int.random(in: 0...5, using: &rng))"
            case 6: return "@mood:\(rng.pick(["happy", "sad", "calm"]))"
            case 7: return "count(#\(word(s.tags.first)):) <= \(Int.random(in: 0...1, using: &rng))"
            case 8: return "@album:=\(word(s.album))"
            default: return "@added:>=2020"
            }
        }
        let clauses = (0..<Int.random(in: 1...3, using: &rng)).map { k in
            (k > 0 && Int.random(in: 0..<3, using: &rng) == 0 ? "-" : "+")
                + (0..<Int.random(in: 1...2, using: &rng)).map { _ in rule() }.joined(separator: ",")
        }
        return try? Taglist.parse(name: "law", clauses: clauses, userFields: ["mood"])
    }

    /// Terms built from the songs' own values (so most match something), every kind the
    /// planner treats: substrings, exact values, ranges, tags, paths, bare words, user fields,
    /// negation and OR, with a sort key now and then.
    static func randomQuery(from songs: [Song], _ rng: inout SplitMix64) -> [String] {
        func term() -> String {
            let s = songs[Int.random(in: 0..<songs.count, using: &rng)]
            func word(_ t: String?) -> String {
                let parts = (t ?? "zz").split(separator: " ")
                return String(parts.isEmpty ? "zz" : parts[Int.random(in: 0..<parts.count, using: &rng)])
            }
            let t: String
            switch Int.random(in: 0..<11, using: &rng) {
            case 0: t = "artist:\(word(s.artists.first))"
            case 1: t = "title:=\(s.title ?? "")"
            case 2: t = "year:\((s.year ?? 1990) - 3)..\((s.year ?? 1990) + 3)"
            case 3: t = "#\(s.tags.first ?? "jazz")"
            case 4: t = "path:\((s.path as NSString).deletingLastPathComponent)"
            case 5: t = word(s.album)
            case 6: t = "album:=~\(s.album ?? "x")"
            case 7: t = "genre:\(word(s.genre))"
            case 8: t = "rating:\(Int.random(in: 0...5, using: &rng))"
            case 9: t = "mood:\(rng.pick(["happy", "sad", "calm"]))"
            default: t = "title::^\(word(s.title).prefix(1))"
            }
            return Int.random(in: 0..<5, using: &rng) == 0 ? "^" + t : t
        }
        var args = (0..<Int.random(in: 1...3, using: &rng)).map { _ in term() }
        if Int.random(in: 0..<4, using: &rng) == 0 { args += [","] + [term()] }
        if Int.random(in: 0..<4, using: &rng) == 0 { args.append(rng.pick(["year+", "title-", "artist+"])) }
        return args
    }
}
