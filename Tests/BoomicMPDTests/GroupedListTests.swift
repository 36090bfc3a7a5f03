import BoomicCore
import BoomicTestSupport
import Foundation
import Testing

/// `list … group …` and `count group` over the whole library are answered from the snapshot's
/// columns of value numbers, anything filtered song by song. The law: on random libraries
/// (missing tags, several artists, credits, values joined with "; ", album artists only on some
/// songs, values that sort differently by bytes than by Unicode), both ways give the same bytes for every command.
/// A filter that keeps every song sends the same question down the song-by-song path.
/// Likewise `search TAG X`, which tests each distinct value of the tag's column once, finds
/// what the query matcher finds song by song (a double negation hides the test from the
/// column path).
@Suite struct GroupedListTests {
    static let everything = #""(!(file == \"no such file\"))""#

    static let tags = ["artist", "albumartist", "album", "genre", "date", "title", "track", "composer",
                       "albumartistsort", "artistsort", "albumsort", "performer"]

    static func library(_ rng: inout SplitMix64, in dir: String) -> [Song] {
        let names = ["Ärger", "Zed", "Abba", "abba", "Éclair", "E\u{301}clair", "Björk", "Band", "Band B", "Ω"]
        func value(_ pool: [String], missing: Double) -> String? { rng.chance(missing) ? nil : rng.pick(pool) }
        return (0..<Int.random(in: 1...120, using: &rng)).map { i in
            var song = Song(id: SongID(rng.uuid()), path: "\(dir)/\(rng.pick(names))/\(i).flac")
            song.title = value(names.map { "Song " + $0 }, missing: 0.1)
            song.artists = rng.chance(0.15) ? [] : rng.subset(of: names, max: 3)
            // A credit next to the artists (ARTIST beside ARTISTS), which MPD's Artist is:
            // a name of its own, or several ARTIST values the import joined with "; ".
            if !song.artists.isEmpty && rng.chance(0.3) {
                song.artistCredit = rng.chance(0.5) ? song.artists.joined(separator: " feat. ") : rng.subset(of: names, max: 2).joined(separator: "; ")
            }
            // Several values the import joined with "; ": each is a value of its own to MPD.
            func joined(_ pool: [String], missing: Double) -> String? {
                rng.chance(missing) ? nil : rng.chance(0.3) ? rng.subset(of: pool, max: 3).joined(separator: "; ") : rng.pick(pool)
            }
            song.albumartist = joined(names, missing: 0.5)
            song.album = value(["Live", "Studio", "Ωmega", "live"], missing: 0.2)
            song.genre = joined(["Jazz", "Rock", "Folk"], missing: 0.4)
            song.year = rng.chance(0.5) ? Int.random(in: 1990...1995, using: &rng) : nil
            song.track = rng.chance(0.7) ? Int.random(in: 1...12, using: &rng) : nil
            song.composer = joined(names, missing: 0.7)
            // Sort names on some songs: lists, groups and filters fall back where there are none.
            song.artistSort = value(names.map { $0 + ", The" }, missing: 0.7)
            song.albumartistSort = value(names, missing: 0.8)
            song.albumSort = value(["Live, The", "Studio"], missing: 0.7)
            song.performer = joined(names.map { $0 + " (piano)" }, missing: 0.8)
            song.duration = rng.chance(0.9) ? Double.random(in: 1...400, using: &rng) : nil
            return song
        }
    }

    /// Where two answers part: the line number and both lines.
    static func firstDifference(_ a: String, _ b: String) -> String {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false), y = b.split(separator: "\n", omittingEmptySubsequences: false)
        let i = (0..<min(x.count, y.count)).first { x[$0] != y[$0] } ?? min(x.count, y.count)
        func at(_ lines: [Substring]) -> String { i < lines.count ? "'\(lines[i])'" : "(end)" }
        return "line \(i + 1): \(at(x)) against \(at(y)) (\(x.count) and \(y.count) lines)"
    }

    @Test(arguments: Seeds.list(12, from: 4_400))
    func columnsAnswerAsSongBySong(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var commands: [(whole: String, filtered: String)] = []
        for _ in 0..<12 {
            let tag = rng.pick(Self.tags)
            // Distinct, and none the listed tag: MPD refuses that ("Conflicting group").
            let groups = Array(Self.tags.filter { $0 != tag }.shuffled(using: &rng).prefix(Int.random(in: 0...4, using: &rng)))
            let grouping = groups.map { " group " + $0 }.joined()
            commands.append(("list \(tag)\(grouping)", "list \(tag) \(Self.everything)\(grouping)"))
            commands.append(("count group \(tag)", "count \(Self.everything) group \(tag)"))
        }
        let input = commands.map { $0.whole + "\n" + $0.filtered + "\n" }.joined()
        let text = try ServerConversation.run(input) { dir in Self.library(&rng, in: dir) }
        let greeting = "OK MPD 0.23.5\n"
        try #require(text.hasPrefix(greeting))
        let answers = text.dropFirst(greeting.count).components(separatedBy: "OK\n").dropLast()  // after the last OK
        try #require(answers.count == commands.count * 2, "\(Seeds.replay(seed)): \(text.prefix(500))")
        var pairs = Array(answers)[...]
        for (whole, filtered) in commands {
            let a = pairs.removeFirst(), b = pairs.removeFirst()
            #expect(a == b, "\(Seeds.replay(seed)): '\(whole)' and '\(filtered)' differ: \(Self.firstDifference(a, b))")
            #expect(!a.contains("ACK"), "\(Seeds.replay(seed)): \(whole): \(a)")
        }
    }

    @Test(arguments: Seeds.list(12, from: 4_500))
    func searchesAnswerAsSongBySong(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        // Whole values (what find's == needs) and parts of them, in either case.
        let needles = ["Band B", "Live", "Zed", "Ärger", "1992", "Jazz", "7", "Song Abba", "Ωmega",
                       "a", "B", "Éc", "ä", "Ω", "band b", "zed", "199", "song", "x", "ÄRGER", "live", "Zed, The", "Live, The"]
        var commands: [(column: String, matcher: String)] = []
        for _ in 0..<16 {
            let tag = rng.pick(["artist", "albumartist", "album", "genre", "date", "title", "composer", "track",
                                "artistsort", "albumartistsort", "albumsort"])
            let needle = rng.pick(needles)
            let (command, op) = rng.chance(0.5) ? ("search", "contains") : ("find", "==")
            commands.append(("\(command) \(tag) \"\(needle)\"", "\(command) \"(!(!(\(tag) \(op) '\(needle)')))\""))
        }
        let input = commands.map { $0.column + "\n" + $0.matcher + "\n" }.joined()
        let text = try ServerConversation.run(input) { dir in Self.library(&rng, in: dir) }
        let greeting = "OK MPD 0.23.5\n"
        try #require(text.hasPrefix(greeting))
        let answers = Array(text.dropFirst(greeting.count).components(separatedBy: "OK\n").dropLast())
        try #require(answers.count == commands.count * 2, "\(Seeds.replay(seed)): \(text.prefix(500))")
        for (n, (column, matcher)) in commands.enumerated() {
            func files(_ answer: String) -> [Substring] { answer.split(separator: "\n").filter { $0.hasPrefix("file: ") } }
            let a = answers[2 * n], b = answers[2 * n + 1]
            #expect(!a.contains("ACK") && !b.contains("ACK"), "\(Seeds.replay(seed)): \(column): \(a.prefix(200)) \(b.prefix(200))")
            #expect(files(a) == files(b), "\(Seeds.replay(seed)): '\(column)' and '\(matcher)' differ: \(Self.firstDifference(a, b))")
        }
    }
}
