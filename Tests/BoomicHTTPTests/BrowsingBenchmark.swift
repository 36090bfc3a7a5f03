@testable import BoomicHTTP
import BoomicCore
import BoomicLibrary
import BoomicStation
import BoomicTestSupport
import Foundation
import Testing

/// Times `getAlbumList2`, `search3` and `getAlbum` through the real HTTP front, from a client on
/// loopback, over a synthetic library of 50,000 songs in the bench's layout (`mklib.py`: artist
/// `A0042` has 100 songs on 10 albums of 10). Tests never time anything (DESIGN §7), so this
/// only prints, and only when asked:
///
///     BOOMIC_BENCH=1 swift test --filter BrowsingBenchmark
@Suite struct BrowsingBenchmark {
    static let isEnabled = ProcessInfo.processInfo.environment["BOOMIC_BENCH"] != nil

    static func library(songs count: Int) -> DataBasis {
        var rng = SplitMix64(seed: 5)
        let genres = ["Jazz", "Rock", "Pop", "Electronic", "Classical", "Hip-Hop", "Folk", "Jazz; Fusion"]
        return DataBasis(songs: (0..<count).map { i in
            let artist = String(format: "Artist A%04d", i / 100), album = String(format: "Album B%05d", i / 10)
            let suffix = (i / 10) % 2 == 0 ? "flac" : "mp3"
            var s = Song(id: SongID(rng.uuid()), path: "/bench/\(artist)/\(album)/\(i % 10 + 1) Song \(i).\(suffix)")
            s.title = "Song \(i) of \(album)"
            s.artists = [artist]
            s.album = album
            s.track = i % 10 + 1
            s.year = 1960 + (i / 10) % 60
            s.genre = genres[(i / 10) % genres.count]
            s.duration = Double(120 + i % 300)
            s.samplerate = 44100
            s.channels = 2
            s.bitrate = suffix == "flac" ? 900 : 320
            s.format = suffix
            s.added = Double(1_600_000_000 + i)
            if i % 7 == 0 { s.playcount = i % 13; s.lastplayed = Double(1_700_000_000 + i) }
            if i % 11 == 0 { s.rating = i % 5 + 1 }
            if i % 10 == 0 { s.art = "cover\(i / 10)" }
            return s
        })
    }

    /// With `BOOMIC_BENCH_LIBRARY=PATH`, a library of its own (a copy of the bench's imported
    /// one: the run reads its log) instead of the synthetic songs.
    static let library = ProcessInfo.processInfo.environment["BOOMIC_BENCH_LIBRARY"]

    @Test(.enabled(if: isEnabled)) func fiftyThousandSongs() async throws {
        let dir = TempDir("browse-bench")
        let session = try LibrarySession.open(at: Self.library ?? dir.path + "/library", create: Self.library == nil,
                                              client: .init(command: "test", version: "0"))
        let basis = Self.library == nil ? Self.library(songs: 50_000) : session.basis
        let front = HTTPContext(library: FixedLibrary(session: session, basis: basis), station: nil, folders: ["/bench"],
                                authenticator: TestAccounts(), version: "bench", warn: { _ in })
        let server = HTTPServer(context: front)
        let port = try await server.start(at: HTTPAddress(host: "127.0.0.1", port: 0))
        let auth = "\(FrontFixture.anna)&f=json"
        func once(_ path: String) async throws -> (Double, Int) {
            let start = DispatchTime.now().uptimeNanoseconds
            let answer = try await RawHTTP.get(port, "/rest/" + path)
            let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            #expect(answer.status == 200 && answer.body.contains(#""status":"ok""#), "\(path)")
            return (ms, answer.body.utf8.count)
        }
        let (cold, _) = try await once("getAlbumList2?\(auth)&type=newest")
        print(String(format: "  %-52@ %8.1f ms", "first request (builds the catalog and search index)" as NSString, cold))
        let catalog = await front.catalogs.catalog(of: basis, session: session).catalog
        var rng = SplitMix64(seed: 9)
        func time(_ label: String, runs: Int = 51, _ path: () -> String) async throws {
            var times: [Double] = []
            var bytes = 0
            for _ in 0..<runs {
                let (ms, n) = try await once(path())
                times.append(ms)
                bytes = n
            }
            times.sort()
            print(String(format: "  %-52@ median %7.2f ms  p90 %7.2f ms  (%d bytes)", label as NSString, times[runs / 2],
                         times[runs * 9 / 10], bytes))
        }
        print("browsing benchmark through HTTP on loopback: \(catalog.songs.count) songs, \(catalog.albums.count) albums")
        try await time("ping (the floor: connect, authenticate, answer)") { "ping?\(auth)" }
        for type in ["newest", "alphabeticalByName", "random", "frequent", "byYear&fromYear=1990&toYear=2000"] {
            try await time("getAlbumList2 \(type.prefix(18)) size=20") {
                "getAlbumList2?\(auth)&type=\(type)&size=20&offset=\(Int.random(in: 0..<2000, using: &rng))"
            }
        }
        try await time("getAlbumList2 alphabeticalByName size=500") {
            "getAlbumList2?\(auth)&type=alphabeticalByName&size=500&offset=\(Int.random(in: 0..<4500, using: &rng))"
        }
        try await time("getAlbum (10 songs)") { "getAlbum?\(auth)&id=\(catalog.albums[Int.random(in: 0..<catalog.albums.count, using: &rng)].id)" }
        let words = ["song", "a0042", "album b0001", "song 123", "zzz", "artist", "title"]
        try await time("search3 text (20/20/20)") { "search3?\(auth)&query=\(words[Int.random(in: 0..<words.count, using: &rng)].replacingOccurrences(of: " ", with: "%20"))" }
        try await time("search3 \"\" (20/20/20, a random page)") {
            "search3?\(auth)&query=%22%22&songOffset=\(Int.random(in: 0..<49_000, using: &rng))&albumOffset=\(Int.random(in: 0..<4900, using: &rng))"
        }
        try await time("search3 \"\" songCount=500 (a sync page)") {
            "search3?\(auth)&query=&artistCount=0&albumCount=0&songCount=500&songOffset=\(Int.random(in: 0..<49_000, using: &rng))"
        }
        // In process, the parts of the longest answers: the catalog's work and the mapping.
        func inProcess(_ label: String, _ body: () -> Int) {
            var times: [Double] = []
            var n = 0
            for _ in 0..<21 {
                let start = DispatchTime.now().uptimeNanoseconds
                n = body()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            times.sort()
            print(String(format: "  %-52@ median %7.2f ms  (%d)", label as NSString, times[10], n))
        }
        inProcess("in process: Catalog.search 'song' (20/20/20)") { catalog.search("song").songs.count }
        let page = Array(catalog.songs[20_000..<20_500])
        inProcess("in process: SubsonicSong.child × 500") { SubsonicSong.children(page, catalog: catalog).count }
        var body = SubsonicElement()
        body.set("song", list: SubsonicSong.children(page, catalog: catalog))
        let reply = SubsonicResponse(body: body)
        inProcess("in process: JSON of 500 songs") { SubsonicJSON.encode(reply, serverVersion: "bench").utf8.count }
        await server.stop()
        session.close()
    }
}
