import BoomicTestSupport
import Foundation
import Testing

/// `boomic serve --http` and supysonic serving the same tidy sample folder, asked the same
/// questions through py-sonic (with the `enc:` password: supysonic keeps only a hash, so it
/// takes no token) where both implement them: getArtists (names and album counts), getArtist
/// (album names), getAlbumList2 `alphabeticalByName` (album names, artists and song counts,
/// paged by 500), getAlbum (track numbers, titles, durations), getSong (each album's songs'
/// titles), search3 (how many artists, albums and songs a word finds), getRandomSongs (how
/// many `size` gives).
///
/// What legitimately differs, and is normalised away:
/// - ids: opaque to a client (supysonic's are UUIDs, Boomic's `al-`/`ar-`/`so-` hashes); the
///   script follows each server's own ids and compares names;
/// - the artist list: supysonic lists every song artist, those on no album with albumCount 0;
///   Boomic lists album artists. Compared: the artists with albums;
/// - songs without an album or artist tag: supysonic files them under `[non-album tracks]` by
///   `[unknown]`, Boomic under `[Unknown Album]` by `[Unknown Artist]` (as Navidrome); left out;
/// - order: alphabeticalByName's collation (case, accents, articles) and the order of songs
///   inside an album are the server's; compared sorted;
/// - disc numbers: supysonic reads none from some files; compared: track, title, duration;
/// - durations: supysonic truncates to whole seconds; Boomic's may round: equal within 1 s;
/// - the WAV tagged in RIFF INFO alone: mutagen, and so supysonic, reads no RIFF INFO tags;
///   it is removed from the folder before either server reads it;
/// - titles past 255 characters: supysonic cuts them to its column's width, Boomic keeps the
///   tag's; compared: the first 250 characters;
/// - search3: supysonic finds a song by its title alone and an album by its name; Boomic, as
///   Navidrome, also by the song's album and artist and the album's artist. Compared: Boomic
///   finds at least what supysonic finds, and nothing for a word in no tag;
/// - everything else an answer carries (created, genre picks, cover ids, bitrates) is not
///   compared.
@Suite(.serialized, .enabled(if: SubsonicVenv.available, "scripts/setup installs supysonic and py-sonic in /opt/subsonic"))
struct SubsonicPeerTests {
    /// Prints each server's answers, normalised as the suite's comment says (argv: port, user,
    /// password).
    static let script = #"""
    import json, sys
    import libsonic

    port, user, password = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    c = libsonic.Connection("http://127.0.0.1", user, password, port=port, appName="py-sonic", legacyAuth=True)
    # What each server names songs without an artist or album: left out of the comparison.
    PLACEHOLDERS = {"[unknown]", "[non-album tracks]", "[Unknown Artist]", "[Unknown Album]"}
    def listed(d, key):
        v = d.get(key, [])
        return v if isinstance(v, list) else [v]
    out = {}

    artists = [a for i in listed(c.getArtists()["artists"], "index") for a in listed(i, "artist")]
    with_albums = [a for a in artists if a.get("albumCount", 0) > 0 and a["name"] not in PLACEHOLDERS]
    out["artists"] = sorted([a["name"], a["albumCount"]] for a in with_albums)
    out["artist"] = {a["name"]: sorted(x["name"] for x in listed(c.getArtist(a["id"])["artist"], "album")) for a in with_albums}

    albums, offset = [], 0
    while True:
        page = listed(c.getAlbumList2("alphabeticalByName", size=500, offset=offset)["albumList2"], "album")
        albums += page
        offset += len(page)
        if len(page) < 500: break
    albums = [a for a in albums if a["name"] not in PLACEHOLDERS and a.get("artist") not in PLACEHOLDERS]
    out["albumList2"] = [[a["name"], a.get("artist"), a["songCount"]] for a in albums]
    out["album"], song_ids = {}, []
    for a in albums:
        songs = listed(c.getAlbum(a["id"])["album"], "song")
        song_ids += [(a["name"], s["id"]) for s in songs]
        out["album"][a["name"] + " / " + a.get("artist", "")] = sorted(
            [s.get("track", 0), s["title"][:250], s.get("duration", 0)] for s in songs)
    out["song"] = sorted([name, c.getSong(i)["song"]["title"][:250]] for name, i in song_ids)

    def search(q):
        r = c.search3(q, artistCount=500, albumCount=500, songCount=500)["searchResult3"]
        return [len([x for x in listed(r, k) if x.get("name", x.get("title")) not in PLACEHOLDERS]) for k in ("artist", "album", "song")]
    out["search3"] = {q: search(q) for q in ["Blue", "Live", "Modal", "Orchestra", "zzzz"]}
    out["randomSongs"] = {str(n): len(listed(c.getRandomSongs(size=n)["randomSongs"], "song")) for n in (1, 5, 10)}
    print(json.dumps(out, ensure_ascii=False))
    """#

    /// The tidy samples less the file supysonic cannot read the tags of.
    static func sandbox(_ label: String = #function) throws -> Sandbox {
        let box = try Sandbox(label)
        try FileManager.default.removeItem(atPath: box.file("Field Recordist/Backyard Sessions/02 Evening Rain.wav"))
        return box
    }

    static func view(port: Int, in box: Sandbox, log: () -> String) throws -> [String: Any] {
        try #require(try SubsonicVenv.json(Self.script, [String(port), BoomicSubsonic.user, BoomicSubsonic.password], in: box, log: log) as? [String: Any])
    }

    /// The script against supysonic alone: it reads every tagged album and song of the samples,
    /// so the comparison below compares the whole library.
    @Test func theScriptReadsTheWholeLibraryFromSupysonic() throws {
        let box = try Self.sandbox()
        let supysonic = try Supysonic(music: box.music, work: box.root + "/supysonic")
        let peer = try Self.view(port: supysonic.port, in: box) { supysonic.serverLog }
        try box.importSamples()
        let tagged = try box.songs().filter { $0.album != nil && ($0.albumartist ?? $0.artist) != nil }
        let albums = Set(tagged.map { $0.album! })
        let list = try #require(peer["albumList2"] as? [[Any]])
        #expect(Set(list.compactMap { $0.first as? String }) == albums, "\(list)")
        #expect(list.reduce(0) { $0 + ($1.last as? Int ?? 0) } == tagged.count, "\(list)")
        #expect((peer["song"] as? [[String]])?.count == tagged.count, "\(peer)")
        #expect((peer["album"] as? [String: [[Any]]])?.count == albums.count, "\(peer)")
        #expect(peer["randomSongs"] as? [String: Int] == ["1": 1, "5": 5, "10": 10], "\(peer)")
        // The comparison finds nothing between equal views, and each kind of difference.
        #expect(try Self.differences(peer, peer).isEmpty)
        var changed = peer
        changed["search3"] = ["Blue": [0, 0, 0]]
        changed["song"] = ((peer["song"] as? [[String]]) ?? []).dropLast()
        var songs = (peer["album"] as? [String: [[Any]]]) ?? [:]
        let first = try #require(songs.keys.sorted().first)
        songs[first] = songs[first]!.map { [$0[0], $0[1], 999] }
        changed["album"] = songs
        let found = try Self.differences(changed, peer)
        #expect(found.count == 2 + songs[first]!.count && found.contains { $0.hasPrefix("search3") } && found.contains { $0.hasPrefix("song") }, "\(found)")
    }

    @Test
    func answersWhatSupysonicAnswers() throws {
        let box = try Self.sandbox()
        let supysonic = try Supysonic(music: box.music, work: box.root + "/supysonic")
        let peer = try Self.view(port: supysonic.port, in: box) { supysonic.serverLog }
        let boomic = try BoomicSubsonic(box)
        let ours = try Self.view(port: boomic.http, in: box) { boomic.server.serverLog }
        let differences = try Self.differences(ours, peer)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    /// What differs between two views of the script, one line each: a part compared as it is
    /// (artists, artist, search3, randomSongs: JSON with sorted keys), as a sorted list
    /// (albumList2, song), or album by album with durations equal within 1 s.
    static func differences(_ ours: [String: Any], _ peer: [String: Any]) throws -> [String] {
        var found: [String] = []
        let text = { (v: Any?) throws -> String in
            String(decoding: try JSONSerialization.data(withJSONObject: v ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
        }
        for key in ["artists", "artist", "randomSongs"] where try text(ours[key]) != text(peer[key]) {
            found.append("\(key): boomic \(try text(ours[key])), supysonic \(try text(peer[key]))")
        }
        // search3: at least what the peer finds, and nothing where it finds nothing.
        let ourSearch = (ours["search3"] as? [String: [Int]]) ?? [:], peerSearch = (peer["search3"] as? [String: [Int]]) ?? [:]
        let short = peerSearch.contains { query, counts in
            guard let mine = ourSearch[query], mine.count == counts.count else { return true }
            return zip(mine, counts).contains { $0 < $1 } || (counts.allSatisfy { $0 == 0 } && mine != counts)
        }
        if short || Set(ourSearch.keys) != Set(peerSearch.keys) {
            found.append("search3: boomic \(try text(ours["search3"])), supysonic \(try text(peer["search3"]))")
        }
        let rows = { (v: Any?) throws -> [String] in try ((v as? [Any]) ?? []).map { try text($0) }.sorted() }
        for key in ["albumList2", "song"] where try rows(ours[key]) != rows(peer[key]) {
            found.append("\(key): boomic \(try rows(ours[key])), supysonic \(try rows(peer[key]))")
        }
        let ourAlbums = (ours["album"] as? [String: [[Any]]]) ?? [:], peerAlbums = (peer["album"] as? [String: [[Any]]]) ?? [:]
        if Set(ourAlbums.keys) != Set(peerAlbums.keys) {
            found.append("albums: boomic \(ourAlbums.keys.sorted()), supysonic \(peerAlbums.keys.sorted())")
        }
        let number = { (v: Any) -> Double? in (v as? Double) ?? (v as? Int).map(Double.init) }
        for (name, songs) in peerAlbums {
            let mine = ourAlbums[name] ?? []
            let key = { (s: [Any]) in "\(s[0]) \(s[1])" }
            guard mine.map(key).sorted() == songs.map(key).sorted() else {
                found.append("\(name): boomic \(mine), supysonic \(songs)")
                continue
            }
            let durations = Dictionary(songs.map { (key($0), number($0[2]) ?? 0) }) { a, _ in a }
            for song in mine where abs((number(song[2]) ?? -9) - (durations[key(song)] ?? 99)) > 1 {
                found.append("\(name): \(song[1]) lasts \(song[2]) s, supysonic says \(durations[key(song)] ?? 0) s")
            }
        }
        return found
    }
}
