import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// The catalog's laws on random libraries: grouping, ids, paging and the lists' orders, each
/// against the obvious way of saying it.
@Suite struct CatalogLawTests {
    static let albumPool = ["Kind of Blue", "kind of blue", "KIND OF BLUE", "Homogenic", "Lemonade", "Ágætis byrjun",
                            "Agaetis Byrjun", "Blue Train", "夜", "The Album", ""]
    static let artistPool = ["Miles Davis", "miles davis", "Björk", "bjork", "The Beatles", "Los Lobos", "Le Tigre",
                             "Sigur Rós", "!!!", "10cc", "坂本龍一", "The", ""]
    static let mbPool = ["b84ee12a-09ef-421b-82de-0441a926375b", "9ec9e1b3-2b43-4f2d-9a33-4f0a8e3e2a44",
                         "B84EE12A-09EF-421B-82DE-0441A926375B"]

    static func randomLibrary(_ rng: inout SplitMix64) -> DataBasis {
        let n = Int.random(in: 0...40, using: &rng)
        return DataBasis(songs: (0..<n).map { i in
            var s = Song(id: SongID(rng.uuid()), path: "/m/\(i)/\(rng.pick(["a", "CD1/b", "CD2/c"])).flac")
            if rng.chance(0.9) { s.title = rng.pick(Samples.titles + ["Love", "love song", "Jóga"]) }
            s.artists = rng.subset(of: artistPool.filter { !$0.isEmpty }, max: 2)
            if rng.chance(0.85) { s.album = rng.pick(albumPool) }
            if rng.chance(0.4) { s.albumartist = rng.pick(artistPool) }
            s.compilation = rng.chance(0.1)
            if rng.chance(0.6) { s.disc = Int.random(in: 1...2, using: &rng) }
            if rng.chance(0.8) { s.track = Int.random(in: 1...5, using: &rng) }
            if rng.chance(0.7) { s.year = Int.random(in: 1990...1995, using: &rng) }
            if rng.chance(0.7) { s.genre = rng.pick(Samples.genres) }
            if rng.chance(0.9) { s.duration = Double(Int.random(in: 1...400, using: &rng)) }
            s.added = Double(Int.random(in: 0...5, using: &rng))
            if rng.chance(0.4) {
                s.playcount = Int.random(in: 1...4, using: &rng)
                s.lastplayed = Double(Int.random(in: 10...20, using: &rng))
            }
            if rng.chance(0.3) { s.rating = Int.random(in: 0...10, using: &rng) }
            s.favorite = rng.chance(0.2)
            if rng.chance(0.4) { s.art = rng.pick(["aa", "bb"]) }
            if rng.chance(0.3) { s.mbAlbumID = rng.pick(mbPool) }
            if rng.chance(0.2) { s.mbAlbumArtistID = rng.pick(mbPool) }
            if rng.chance(0.2) { s.mbArtistID = rng.pick(mbPool) }
            s.missing = rng.chance(0.1)
            return s
        })
    }

    /// The libraries every law runs on, built once: building is pure.
    static let cases: [(seed: UInt64, basis: DataBasis, catalog: Catalog)] = Seeds.all.map { seed in
        var rng = SplitMix64(seed: seed)
        let basis = randomLibrary(&rng)
        return (seed, basis, Catalog(basis))
    }

    @Test func everySongIsInExactlyOneAlbumAndEveryAlbumUnderOneArtist() {
        for (seed, basis, catalog) in Self.cases {
            let present = basis.songs.values.filter { !$0.missing }
            #expect(Set(catalog.songs.map(\.id)) == Set(present.map(\.id)), "\(Seeds.replay(seed))")
            #expect(catalog.songs.count == present.count, "\(Seeds.replay(seed))")
            var covered = 0
            for album in catalog.albums {
                #expect(album.songRange.lowerBound == covered, "\(Seeds.replay(seed)): albums tile the songs in order")
                covered = album.songRange.upperBound
                for s in catalog.songs(of: album) {
                    #expect(Catalog.albumKey(of: s) == album.key, "\(Seeds.replay(seed))")
                    #expect(catalog.album(of: s) == album, "\(Seeds.replay(seed))")
                }
                let owners = catalog.artists.filter { a in a.albumIndices.contains { catalog.albums[$0] == album } }
                #expect(owners.count == 1, "\(Seeds.replay(seed)): \(album.name) is under \(owners.count) artists")
                #expect(owners.first?.id == album.artistID && owners.first?.key == album.key.artist, "\(Seeds.replay(seed))")
                #expect(catalog.artist(of: album) == owners.first, "\(Seeds.replay(seed))")
            }
            #expect(covered == catalog.songs.count, "\(Seeds.replay(seed))")
            #expect(Set(catalog.albums.map(\.key)).count == catalog.albums.count, "\(Seeds.replay(seed)): one album a key")
            #expect(catalog.artists.map(\.songCount).reduce(0, +) == present.count, "\(Seeds.replay(seed))")
        }
    }

    /// Each album's figures, computed the slow way from its songs.
    @Test func albumFiguresAreTheirSongs() {
        for (seed, _, catalog) in Self.cases {
            for album in catalog.albums {
                let ss = Array(catalog.songs(of: album))
                let ordered = ss.sorted { ($0.disc ?? .max, $0.track ?? .max, $0.path, $0.id) < ($1.disc ?? .max, $1.track ?? .max, $1.path, $1.id) }
                #expect(ss.map(\.id) == ordered.map(\.id), "\(Seeds.replay(seed)): disc order")
                #expect(abs(album.duration - ss.compactMap(\.duration).reduce(0, +)) < 0.001, "\(Seeds.replay(seed))")
                #expect(album.year == ss.compactMap(\.year).min(), "\(Seeds.replay(seed))")
                #expect(album.created == ss.map(\.added).min(), "\(Seeds.replay(seed))")
                #expect(album.playCount == ss.map(\.playcount).reduce(0, +), "\(Seeds.replay(seed))")
                #expect(album.lastPlayed == ss.compactMap(\.lastplayed).max(), "\(Seeds.replay(seed))")
                #expect(album.coverSong == ss.first { $0.art != nil }?.id, "\(Seeds.replay(seed))")
                #expect(album.favoriteSongs == ss.filter(\.favorite).count, "\(Seeds.replay(seed))")
                let ratings = ss.compactMap(\.rating)
                #expect(album.rating == (ratings.isEmpty ? nil : Double(ratings.reduce(0, +)) / Double(ratings.count)))
            }
            // Genres: a song counts once under each genre it names.
            var songsOf: [String: Int] = [:], albumsOf: [String: Set<String>] = [:]
            for album in catalog.albums {
                for s in catalog.songs(of: album) {
                    for g in catalogGenres(s) {
                        songsOf[g, default: 0] += 1
                        albumsOf[g, default: []].insert(album.id)
                    }
                }
            }
            #expect(Dictionary(uniqueKeysWithValues: catalog.genres.map { ($0.key, $0.songCount) }) == songsOf, "\(Seeds.replay(seed))")
            #expect(Dictionary(uniqueKeysWithValues: catalog.genres.map { ($0.key, $0.albumCount) }) == albumsOf.mapValues(\.count),
                    "\(Seeds.replay(seed))")
        }
    }

    @Test func idsRoundTripAndHoldNoPath() {
        for (seed, basis, catalog) in Self.cases {
            var all: Set<String> = []
            for a in catalog.albums {
                #expect(catalog.entity(forID: a.id) == .album(a), "\(Seeds.replay(seed))")
                all.insert(a.id)
            }
            for a in catalog.artists {
                #expect(catalog.entity(forID: a.id) == .artist(a), "\(Seeds.replay(seed))")
                all.insert(a.id)
            }
            for s in catalog.songs {
                #expect(catalog.entity(forID: CatalogID.song(s.id)) == .song(s), "\(Seeds.replay(seed))")
                all.insert(CatalogID.song(s.id))
            }
            #expect(all.count == catalog.albums.count + catalog.artists.count + catalog.songs.count, "\(Seeds.replay(seed)): ids are unique")
            for id in all {
                #expect(!id.contains("/") && !id.contains("."), "\(Seeds.replay(seed)): \(id)")
            }
            for s in basis.songs.values where s.missing {
                #expect(catalog.entity(forID: CatalogID.song(s.id)) == nil, "\(Seeds.replay(seed)): a missing song is no entity")
            }
        }
    }

    /// Moving every file and editing fields that are not the album's title or artist keeps every
    /// id; changing only the case or accents of a title keeps the album's; renaming an album
    /// whose songs carry a MusicBrainz id keeps it too.
    @Test func idsAreStableAcrossRenamesWherePromised() {
        var renamedWithMB = 0
        for (seed, basis, catalog) in Self.cases {
            let moved = DataBasis(songs: basis.songs.values.map { s in
                var s = s
                s.path = "/elsewhere" + s.path
                s.genre = "Changed"
                s.playcount += 1
                s.year = 2001
                return s
            })
            let after = Catalog(moved)
            #expect(Set(after.albums.map(\.id)) == Set(catalog.albums.map(\.id)), "\(Seeds.replay(seed))")
            #expect(Set(after.artists.map(\.id)) == Set(catalog.artists.map(\.id)), "\(Seeds.replay(seed))")

            // Two albums of each library (each rename is a catalog of its own to build).
            var rng = SplitMix64(seed: seed)
            let titled = catalog.albums.filter { !$0.key.title.isEmpty }
            let chosen = titled.filter { $0.musicBrainzID != nil }.prefix(1) + titled.shuffled(using: &rng).prefix(1)
            for album in chosen {
                let members = Set(catalog.songs(of: album).map(\.id))
                let shouted = Catalog(DataBasis(songs: basis.songs.values.map { s in
                    var s = s
                    if members.contains(s.id) { s.album = s.album!.uppercased() }
                    return s
                }))
                // Upper-casing may merge it with an album that differed only in case: then the
                // ids of both are the merged album's, which is allowed to be either.
                if shouted.albums.count == catalog.albums.count {
                    #expect(shouted.album(id: album.id).map { Set(shouted.songs(of: $0).map(\.id)) } == members,
                            "\(Seeds.replay(seed)): a change of case keeps \(album.name)'s id")
                }
                guard let mb = album.musicBrainzID else { continue }
                let renamed = Catalog(DataBasis(songs: basis.songs.values.map { s in
                    var s = s
                    if members.contains(s.id) { s.album = "A Title Nobody Else Has" }
                    return s
                }))
                let found = renamed.album(id: album.id)
                #expect(found?.name == "A Title Nobody Else Has" && found?.musicBrainzID == mb,
                        "\(Seeds.replay(seed)): renaming keeps the MusicBrainz-made id of \(album.name)")
                renamedWithMB += 1
            }
        }
        #expect(renamedWithMB >= Seeds.atLeast(40))
    }

    @Test func pagesCoverEveryListExactlyOnce() {
        for (seed, _, catalog) in Self.cases {
            var rng = SplitMix64(seed: seed)
            let types: [AlbumListType] = [.random(seed: seed), .newest, .frequent, .recent, .starred, .alphabeticalByName,
                                          .alphabeticalByArtist, .byYear(from: 1991, to: 1994), .byYear(from: 1995, to: 1990),
                                          .byGenre("jazz"), .highest]
            for type in types {
                let whole = catalog.albumList(type, size: 500)
                var paged: [CatalogAlbum] = []
                var offset = 0
                while true {
                    let size = Int.random(in: 1...4, using: &rng)
                    let page = catalog.albumList(type, size: size, offset: offset)
                    #expect(page.count <= size)
                    if page.isEmpty { break }
                    paged += page
                    offset += page.count
                }
                #expect(paged == whole, "\(Seeds.replay(seed)): \(type)")
                #expect(Set(whole.map(\.id)).count == whole.count, "\(Seeds.replay(seed)): \(type) lists an album once")
            }
            let random = catalog.albumList(.random(seed: seed), size: 500)
            #expect(Set(random.map(\.id)) == Set(catalog.albums.map(\.id)), "\(Seeds.replay(seed)): random is a permutation")
            #expect(catalog.albumList(.alphabeticalByName, size: 500).count == catalog.albums.count)
            #expect(catalog.albumList(.newest, size: 500).count == catalog.albums.count)

            // search3 with no text: every song, album and artist once.
            var songs: [SongID] = [], albums: [String] = [], artists: [String] = []
            var offset = 0
            while true {
                let size = Int.random(in: 1...7, using: &rng)
                let r = catalog.search("\"\"", artistCount: size, artistOffset: offset, albumCount: size, albumOffset: offset,
                                       songCount: size, songOffset: offset)
                if r.songs.isEmpty && r.albums.isEmpty && r.artists.isEmpty { break }
                songs += r.songs.map(\.id)
                albums += r.albums.map(\.id)
                artists += r.artists.map(\.id)
                offset += size
            }
            #expect(songs == catalog.songs.map(\.id), "\(Seeds.replay(seed))")
            #expect(albums == catalog.albums.map(\.id), "\(Seeds.replay(seed))")
            #expect(artists == catalog.artists.map(\.id), "\(Seeds.replay(seed))")

            for genre in catalog.genres {
                var got: [SongID] = []
                var o = 0
                while case let page = catalog.songs(genre: genre.name.uppercased(), count: 3, offset: o), !page.isEmpty {
                    got += page.map(\.id)
                    o += 3
                }
                #expect(got.count == genre.songCount && Set(got).count == got.count, "\(Seeds.replay(seed)): \(genre.name)")
            }
        }
    }

    @Test func listOrdersHold() {
        for (seed, _, catalog) in Self.cases {
            func ordered(_ type: AlbumListType, _ before: (CatalogAlbum, CatalogAlbum) -> Bool) -> [CatalogAlbum] {
                let list = catalog.albumList(type, size: 500)
                for (a, b) in zip(list, list.dropFirst()) {
                    #expect(!before(b, a), "\(Seeds.replay(seed)): \(type): \(b.name) should not follow \(a.name)")
                }
                return list
            }
            _ = ordered(.newest) { $0.created > $1.created }
            let frequent = ordered(.frequent) { $0.playCount > $1.playCount }
            #expect(frequent.count == catalog.albums.filter { $0.playCount > 0 }.count)
            let recent = ordered(.recent) { $0.lastPlayed! > $1.lastPlayed! }
            #expect(recent.count == catalog.albums.filter { $0.lastPlayed != nil }.count)
            let highest = ordered(.highest) { $0.rating! > $1.rating! }
            #expect(highest.count == catalog.albums.filter { $0.rating != nil }.count)
            _ = ordered(.alphabeticalByName) { $0.nameSortKey < $1.nameSortKey }
            _ = ordered(.alphabeticalByArtist) { ($0.artistSortKey, $0.nameSortKey) < ($1.artistSortKey, $1.nameSortKey) }
            let up = ordered(.byYear(from: 1991, to: 1994)) { $0.year! < $1.year! }
            #expect(up.count == catalog.albums.filter { (1991...1994).contains($0.year ?? 0) }.count)
            let down = ordered(.byYear(from: 1994, to: 1991)) { $0.year! > $1.year! }
            #expect(Set(down.map(\.id)) == Set(up.map(\.id)), "\(Seeds.replay(seed))")
            let starred = catalog.albumList(.starred, size: 500)
            #expect(starred.map(\.id) == catalog.albumList(.alphabeticalByName, size: 500).filter { $0.favoriteSongs > 0 }.map(\.id))
            let jazz = catalog.albumList(.byGenre("JAZZ"), size: 500)
            #expect(Set(jazz.map(\.id)) == Set(catalog.albums.filter { $0.genreKeys.contains("jazz") }.map(\.id)))
            for a in jazz {
                #expect(catalog.songs(of: a).contains { catalogGenres($0).contains("jazz") })
            }
            // Indexes hold every artist once, letters in order with # last.
            let indexes = catalog.indexes()
            #expect(indexes.flatMap(\.artists).map(\.id).sorted() == catalog.artists.map(\.id).sorted(), "\(Seeds.replay(seed))")
            let letters = indexes.map(\.letter)
            #expect(letters == letters.filter { $0 != "#" }.sorted() + letters.filter { $0 == "#" })
            // Random songs: distinct, filtered, repeatable.
            let random = catalog.randomSongs(size: 7, genre: "jazz", fromYear: 1991, toYear: 1993, seed: seed)
            #expect(random == catalog.randomSongs(size: 7, genre: "Jazz", fromYear: 1991, toYear: 1993, seed: seed))
            #expect(Set(random.map(\.id)).count == random.count)
            for s in random {
                #expect((1991...1993).contains(s.year ?? 0) && catalogGenres(s).contains("jazz"))
            }
        }
    }

    /// `search` against the rule said plainly: every word of the query starts a word of a field.
    @Test func searchMatchesWordPrefixes() {
        typealias Words = [SearchReference.Scalars]
        let texts = ["blue", "kind BLU", "bjork", "BJÖRK", "sigur ros", "the", "lo", "a", "miles kind", "夜", "10", "ag byr", "zz"]
        var found = 0
        for (seed, _, catalog) in Self.cases {
            // Each entity's name and all its words, folded once for every text.
            func fields(_ name: String, _ others: [String]) -> (name: Words, all: Words) {
                let n = SearchReference.words(name)
                return (n, n + others.flatMap(SearchReference.words))
            }
            let artists = catalog.artists.map { fields($0.name, []) }
            let albums = catalog.albums.map { fields($0.name, [$0.artist]) }
            let songs = catalog.songs.map { s in
                fields(SearchPass.name(of: s), s.artists + [s.album, s.albumartist].compactMap { $0 })
            }
            for text in texts {
                let q = SearchReference.words(text)
                func expected(_ xs: [(name: Words, all: Words)]) -> [Int] {
                    func has(_ ws: Words) -> Bool { q.allSatisfy { w in ws.contains { $0.starts(with: w) } } }
                    let inName = xs.map { has($0.name) }, inAll = xs.map { has($0.all) }
                    return xs.indices.filter { inName[$0] } + xs.indices.filter { !inName[$0] && inAll[$0] }
                }
                let r = catalog.search(text, artistCount: 500, albumCount: 500, songCount: 500)
                #expect(r.artists.map(\.id) == expected(artists).map { catalog.artists[$0].id }, "\(Seeds.replay(seed)): '\(text)'")
                #expect(r.albums.map(\.id) == expected(albums).map { catalog.albums[$0].id }, "\(Seeds.replay(seed)): '\(text)'")
                #expect(r.songs.map(\.id) == expected(songs).map { catalog.songs[$0].id }, "\(Seeds.replay(seed)): '\(text)'")
                found += r.songs.count
            }
        }
        #expect(found >= Seeds.atLeast(1_000))
    }
}

/// The folded genres a song names (`Jazz; Fusion` names two).
func catalogGenres(_ s: Song) -> Set<String> {
    Set((s.genre ?? "").components(separatedBy: "; ").map(Fold.key).filter { !$0.isEmpty })
}
