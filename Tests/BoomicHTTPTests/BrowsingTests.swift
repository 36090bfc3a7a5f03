@testable import BoomicHTTP
import BoomicCore
import Foundation
import FoundationXML
import Testing

/// `getIndexes`, `getMusicDirectory`, `getGenres`, `getArtists`, `getArtist`, `getAlbum`,
/// `getSong` and the info endpoints over a real library (`BrowsingFixture`), checked field by
/// field against the library's songs.
@Suite struct BrowsingTests {
    /// A song as `Child` says it, against the song itself.
    static func expectSong(_ e: [String: Any], _ s: Song, _ catalog: Catalog, music: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let album = catalog.album(of: s)!
        func check(_ name: String, _ expected: Any?) {
            let got = e[name]
            switch expected {
            case nil: #expect(got == nil, "\(name): \(String(describing: got)) for \(s.path)", sourceLocation: sourceLocation)
            case let x as String: #expect(got as? String == x, "\(name)", sourceLocation: sourceLocation)
            case let x as Int: #expect(got as? Int == x, "\(name): \(String(describing: got)) ≠ \(x)", sourceLocation: sourceLocation)
            case let x as Double: #expect((got as? Double).map { abs($0 - x) < 1e-9 } == true, "\(name)", sourceLocation: sourceLocation)
            case let x as Bool: #expect(got as? Bool == x, "\(name)", sourceLocation: sourceLocation)
            default: Issue.record("unchecked \(name)", sourceLocation: sourceLocation)
            }
        }
        let suffix = (s.path as NSString).pathExtension.lowercased()
        check("id", "so-" + s.id.description)
        check("parent", album.id)
        check("albumId", album.id)
        check("isDir", false)
        check("title", s.title ?? (s.path as NSString).lastPathComponent)
        check("album", album.name)
        check("artist", s.artist)
        check("displayArtist", s.artist)
        check("displayAlbumArtist", album.artist)
        check("track", s.track)
        check("discNumber", s.disc)
        check("year", s.year)
        check("genre", s.genre)
        check("size", (try? FileManager.default.attributesOfItem(atPath: s.path)[.size] as? Int) ?? -1)
        check("suffix", suffix)
        check("contentType", ["flac": "audio/flac", "mp3": "audio/mpeg", "ogg": "audio/ogg", "wav": "audio/wav"][suffix])
        check("duration", s.duration.map { Int($0.rounded()) })
        check("bitRate", s.bitrate)
        check("samplingRate", s.samplerate)
        check("channelCount", s.channels)
        check("bitDepth", s.bitdepth)
        check("playCount", s.playcount)
        check("userRating", s.rating)
        check("type", "music")
        check("mediaType", "song")
        check("musicBrainzId", s.mbTrackID)
        check("comment", s.comment)
        check("coverArt", s.art != nil ? "so-" + s.id.description : album.coverArt != nil ? album.id : nil)
        check("created", iso(s.added))
        check("played", s.lastplayed.map(iso))
        check("starred", s.favorite ? iso(catalog.songStarred[s.id] ?? -1) : nil)
        // Never the file's path: the made-up one, from the tags.
        let path = e["path"] as? String ?? ""
        #expect(!path.contains(music) && !path.hasPrefix("/") && !path.contains("../"), "path \(path)", sourceLocation: sourceLocation)
        #expect(path.hasSuffix((s.title ?? "").replacingOccurrences(of: "/", with: "_") + "." + suffix), "path \(path)",
                sourceLocation: sourceLocation)
        #expect(path.hasPrefix(album.artist.replacingOccurrences(of: "/", with: "_") + "/" + album.name.replacingOccurrences(of: "/", with: "_") + "/"),
                "path \(path)", sourceLocation: sourceLocation)
        let genres = (e["genres"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(genres == (s.genre.map { Self.parts($0) } ?? []), sourceLocation: sourceLocation)
        let artists = (e["artists"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(artists == s.artists, sourceLocation: sourceLocation)
        let albumArtists = e["albumArtists"] as? [[String: Any]] ?? []
        #expect(albumArtists.count == 1 && albumArtists[0]["id"] as? String == album.artistID
                && albumArtists[0]["name"] as? String == album.artist, sourceLocation: sourceLocation)
        let gain = e["replayGain"] as? [String: Any] ?? [:]
        #expect((gain["trackGain"] as? Double) == s.replaygainTrackGain && (gain["albumGain"] as? Double) == s.replaygainAlbumGain
                && (gain["trackPeak"] as? Double) == s.replaygainTrackPeak && (gain["albumPeak"] as? Double) == s.replaygainAlbumPeak,
                "replayGain \(gain)", sourceLocation: sourceLocation)
    }

    /// The values a joined tag text names (`Jazz; Fusion`).
    static func parts(_ text: String) -> [String] {
        var out: [String] = []
        SongField.forEachJoinedValue(text) { out.append($0) }
        return out
    }

    /// ISO 8601 in UTC to the millisecond, as the answers write times.
    /// The millisecond is the fraction of the stored `Double` cut down, computed apart from the
    /// whole seconds: `seconds * 1000` rounds a time just under a millisecond up to it (…47.3159999
    /// became .316 where the answer's .315 is right), one commit in a few hundred.
    static func iso(_ seconds: Double) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let whole = seconds.rounded(.down)
        let millis = Int(((seconds - whole) * 1000).rounded(.down))
        return f.string(from: Date(timeIntervalSince1970: whole)) + "." + String(format: "%03d", millis) + "Z"
    }

    @Test func everyAlbumWithItsSongsFieldByField() async throws {
        let f = try await BrowsingFixture()
        let catalog = f.catalog
        #expect(catalog.albums.count >= 10 && catalog.songs.count >= 35)
        for album in catalog.albums {
            let body = try await f.payload("getAlbum", "id=\(album.id)", "album")
            #expect(body["id"] as? String == album.id)
            #expect(body["name"] as? String == album.name)
            #expect(body["artist"] as? String == album.artist)
            #expect(body["artistId"] as? String == album.artistID)
            #expect(body["songCount"] as? Int == album.songCount)
            #expect(body["duration"] as? Int == Int(album.duration.rounded()))
            #expect(body["year"] as? Int == album.year)
            #expect(body["genre"] as? String == album.genre)
            #expect(body["playCount"] as? Int == album.playCount)
            #expect(body["musicBrainzId"] as? String == album.musicBrainzID)
            #expect(body["created"] as? String == Self.iso(album.created))
            #expect(body["isCompilation"] as? Bool == album.isCompilation)
            let songs = Answer.list(body, "song")
            let expected = Array(catalog.songs(of: album))
            #expect(Answer.ids(songs) == expected.map { "so-" + $0.id.description })
            for (e, s) in zip(songs, expected) { Self.expectSong(e, s, catalog, music: f.music) }
        }
        let blue = try #require(catalog.albums.first { $0.name == "Blue Sketches" })
        let starred = try await f.payload("getAlbum", "id=\(blue.id)", "album")
        #expect(starred["starred"] as? String == Self.iso(BrowsingFixture.starredAt))
        #expect(starred["coverArt"] as? String == (blue.coverArt == nil ? nil : blue.id))
        let various = try #require(catalog.albums.first { $0.name == "Night Drive" })
        #expect(various.isCompilation)
        await f.stop()
    }

    @Test func theSameAnswerInXML() async throws {
        let f = try await BrowsingFixture()
        let catalog = f.catalog
        let album = try #require(catalog.albums.first { $0.name == "Double Live" })
        let root = try await f.xml("getAlbum", "id=\(album.id)")
        #expect(Answer.attribute(root, "status") == "ok")
        let body = try #require(Answer.children(root, "album").first)
        #expect(Answer.attribute(body, "name") == "Double Live")
        #expect(Answer.attribute(body, "songCount") == String(album.songCount))
        let songs = Answer.children(body, "song")
        let expected = Array(catalog.songs(of: album))
        #expect(songs.compactMap { Answer.attribute($0, "id") } == expected.map { "so-" + $0.id.description })
        for (e, s) in zip(songs, expected) {
            #expect(Answer.attribute(e, "title") == s.title)
            #expect(Answer.attribute(e, "track") == s.track.map(String.init))
            #expect(Answer.attribute(e, "discNumber") == s.disc.map(String.init))
            #expect(Answer.attribute(e, "isDir") == "false")
            #expect(Answer.attribute(e, "suffix") == "flac")
            #expect(Answer.attribute(e, "path").map { !$0.contains(f.music) } == true)
            #expect(Answer.children(e, "albumArtists").compactMap { Answer.attribute($0, "name") } == [album.artist])
            #expect(Answer.children(e, "genres").compactMap { Answer.attribute($0, "name") }
                    == (s.genre.map { Self.parts($0) } ?? []))
        }
        // Two discs of one album: disc 1's songs, then disc 2's.
        #expect(expected.map(\.disc) == [1, 1, 2, 2])
        await f.stop()
    }

    @Test func artistsByLetterAndEachArtistsAlbums() async throws {
        let f = try await BrowsingFixture()
        let catalog = f.catalog
        for (endpoint, payload) in [("getArtists", "artists"), ("getIndexes", "indexes")] {
            let body = try await f.payload(endpoint, "", payload)
            #expect(body["ignoredArticles"] as? String == "The El La Los Las Le Les")
            let indexes = Answer.list(body, "index")
            let listed = indexes.flatMap { Answer.list($0, "artist") }
            // Every artist exactly once.
            #expect(Set(Answer.ids(listed)) == Set(catalog.artists.map(\.id)))
            #expect(listed.count == catalog.artists.count)
            #expect(indexes.map { $0["name"] as? String ?? "" } == catalog.indexes().map(\.letter))
            for e in listed {
                let a = try #require(catalog.artist(id: e["id"] as? String ?? ""))
                #expect(e["name"] as? String == a.name)
                #expect(e["albumCount"] as? Int == a.albumCount)
            }
            // `The Long Road Band` under L.
            let l = try #require(indexes.first { $0["name"] as? String == "L" })
            #expect(Answer.list(l, "artist").contains { $0["name"] as? String == "The Long Road Band" })
        }
        let miles = try #require(catalog.artist(named: "Miles Quartet"))
        let body = try await f.payload("getArtist", "id=\(miles.id)", "artist")
        #expect(body["name"] as? String == "Miles Quartet")
        #expect(body["starred"] as? String == Self.iso(BrowsingFixture.starredAt))
        #expect(Answer.ids(Answer.list(body, "album")) == catalog.albums(of: miles).map(\.id))
        await f.stop()
    }

    @Test func indexesAnswerNothingNewSinceLastModified() async throws {
        let f = try await BrowsingFixture()
        let first = try await f.payload("getIndexes", "", "indexes")
        let lastModified = try #require(first["lastModified"] as? Int)
        #expect(!Answer.list(first, "index").isEmpty)
        let same = try await f.payload("getIndexes", "ifModifiedSince=\(lastModified)", "indexes")
        #expect(same["lastModified"] as? Int == lastModified)
        #expect(Answer.list(same, "index").isEmpty)
        let older = try await f.payload("getIndexes", "ifModifiedSince=\(lastModified - 1)", "indexes")
        #expect(!Answer.list(older, "index").isEmpty)
        await f.stop()
    }

    @Test func foldersAreArtistsThenAlbums() async throws {
        let f = try await BrowsingFixture()
        let catalog = f.catalog
        let artist = try #require(catalog.artist(named: "The Long Road Band"))
        let dir = try await f.payload("getMusicDirectory", "id=\(artist.id)", "directory")
        #expect(dir["name"] as? String == artist.name)
        let albums = Answer.list(dir, "child")
        #expect(Answer.ids(albums) == catalog.albums(of: artist).map(\.id))
        #expect(albums.allSatisfy { $0["isDir"] as? Bool == true && $0["parent"] as? String == artist.id })
        let album = catalog.albums(of: artist)[0]
        let inner = try await f.payload("getMusicDirectory", "id=\(album.id)", "directory")
        #expect(inner["parent"] as? String == artist.id)
        #expect(inner["name"] as? String == album.name)
        let songs = Answer.list(inner, "child")
        #expect(Answer.ids(songs) == catalog.songs(of: album).map { "so-" + $0.id.description })
        for (e, s) in zip(songs, catalog.songs(of: album)) { Self.expectSong(e, s, catalog, music: f.music) }
        await f.stop()
    }

    @Test func songGenresAndInfo() async throws {
        let f = try await BrowsingFixture()
        let catalog = f.catalog
        for s in catalog.songs {
            let e = try await f.payload("getSong", "id=so-\(s.id)", "song")
            Self.expectSong(e, s, catalog, music: f.music)
        }
        let genres = Answer.list(try await f.payload("getGenres", "", "genres"), "genre")
        #expect(genres.map { $0["value"] as? String ?? "" } == catalog.genres.map(\.name))
        #expect(genres.map { $0["songCount"] as? Int ?? -1 } == catalog.genres.map(\.songCount))
        #expect(genres.map { $0["albumCount"] as? Int ?? -1 } == catalog.genres.map(\.albumCount))
        let xmlGenres = Answer.children(try #require(Answer.children(try await f.xml("getGenres"), "genres").first), "genre")
        #expect(xmlGenres.map { $0.stringValue ?? "" } == catalog.genres.map(\.name))

        let album = try #require(catalog.albums.first { $0.musicBrainzID != nil })
        let albumInfo = try await f.payload("getAlbumInfo2", "id=\(album.id)", "albumInfo")
        #expect(albumInfo["musicBrainzId"] as? String == album.musicBrainzID)
        let artist = try #require(catalog.artists.first { $0.musicBrainzID != nil })
        let artistInfo = try await f.payload("getArtistInfo2", "id=\(artist.id)", "artistInfo2")
        #expect(artistInfo["musicBrainzId"] as? String == artist.musicBrainzID)
        #expect(Answer.list(artistInfo, "similarArtist").isEmpty && artistInfo["biography"] == nil)
        let similar = try await f.payload("getSimilarSongs2", "id=\(artist.id)", "similarSongs2")
        #expect(Answer.list(similar, "song").isEmpty)

        // Top songs by any artist's name, most played first.
        let top = Answer.list(try await f.payload("getTopSongs", "artist=Miles%20Quartet", "topSongs"), "song")
        #expect(Answer.ids(top) == catalog.topSongs(artist: "Miles Quartet").map { "so-" + $0.id.description })
        #expect(top.compactMap { $0["playCount"] as? Int } == [3, 2, 0])
        await f.stop()
    }

    /// Ids that are paths, traversals, huge, or garbage name nothing: error 70, never a crash
    /// or a file read; a missing id is error 10.
    @Test func hostileIdsAreNotFound() async throws {
        let f = try await BrowsingFixture()
        let song = try #require(f.catalog.songs.first)
        let hostile = ["/etc/passwd", "../../etc/passwd", "..%2F..%2Fetc%2Fpasswd", Answer.escaped(f.music + "/Miles Quartet"),
                       String(repeating: "9", count: 5000), "so-" + String(repeating: "f", count: 300), "al-zzzzzzzzzzzzzzzz",
                       "ar-", "so-\(song.id)x", "al-0000000000000000", "%00", "%FF%FE", "1", "-1", "so-../../x",
                       Answer.escaped(song.path)]
        let endpoints = ["getAlbum", "getArtist", "getSong", "getMusicDirectory", "getArtistInfo2", "getArtistInfo",
                         "getAlbumInfo2", "getAlbumInfo", "getSimilarSongs2", "getSimilarSongs"]
        for endpoint in endpoints {
            for id in hostile {
                #expect(try await f.code(endpoint, "id=\(id)") == 70, "\(endpoint) id=\(id.prefix(60))")
            }
            #expect(try await f.code(endpoint) == 10, "\(endpoint) without id")
        }
        // A song is no folder.
        #expect(try await f.code("getMusicDirectory", "id=so-\(song.id)") == 70)
        #expect(try await f.code("getTopSongs") == 10)
        #expect(try await f.code("getTopSongs", "artist=Nobody%20At%20All") == nil)
        await f.stop()
    }

    /// Requests that come together while the library is at a new basis wait for one build.
    @Test func theCatalogIsBuiltOncePerBasis() async throws {
        let f = try await BrowsingFixture()
        let album = try #require(f.catalog.albums.first)
        try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<8 { group.addTask { try await f.code("getAlbum", "id=\(album.id)") } }
            for try await code in group { #expect(code == nil) }
        }
        #expect(f.front.catalogs.buildCount == 1)
        _ = try await f.payload("getAlbumList2", "type=newest", "albumList2")
        #expect(f.front.catalogs.buildCount == 1)
        // A commit makes a new basis: the next request builds its catalog, once.
        let song = try #require(f.catalog.songs.last)
        let commit = try f.session.commit(kind: "star", message: nil) { basis in
            (AnnotationGeneration.star(songs: [song.id], true, on: basis), "star")
        }
        let starred = try await f.payload("getStarred2", "", "starred2")
        let listed = try #require(Answer.list(starred, "song").first { $0["id"] as? String == "so-\(song.id)" })
        // Starred when the transaction that set its favourite was committed.
        #expect(listed["starred"] as? String == Self.iso(commit?.transaction.timestamp ?? -1))
        // The favourite starred before keeps its date in the new catalog.
        let earlier = Answer.list(starred, "song").filter { $0["id"] as? String != "so-\(song.id)" }
        #expect(earlier.count == 1 && earlier.first?["starred"] as? String == Self.iso(f.favoriteStarredAt))
        _ = try await f.payload("getStarred2", "", "starred2")
        #expect(f.front.catalogs.buildCount == 2)
        await f.stop()
    }
}
