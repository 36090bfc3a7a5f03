import BoomicTestSupport
import Foundation
import Testing

/// Every state is addressable and every change explainable (issue 4, items 1 and 2): each REF
/// form on every read command's `--as-of`, and `history`, `show` and `diff` through the real
/// binary. Times are pinned: the log is exported, given known timestamps and imported into a
/// second library, so date REFs and printed times are exact in a pinned time zone.
@Suite struct TimeTravelTests {
    static let zone = "Asia/Kathmandu"
    static let tz: [String: String?] = ["TZ": zone]

    /// The transactions' times, in Kathmandu wall-clock time (UTC+5:45).
    static let times = [
        wallClock(zone, 2024, 3, 9, 23, 59, 30, millis: 250),
        wallClock(zone, 2024, 3, 10, 0, 0, 30),
        wallClock(zone, 2024, 3, 10, 10, 0, 15, millis: 400),
        wallClock(zone, 2024, 3, 10, 10, 0, 45),
        wallClock(zone, 2024, 3, 11, 8, 0, 0),
    ]

    /// `ls --json [--as-of REF]` in the pinned zone (`added` is printed in local time).
    static func ls(_ box: Sandbox, _ ref: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try box.succeed(["ls", "--json"] + (ref.map { ["--as-of", $0] } ?? []), environment: tz, sourceLocation: sourceLocation).stdout
    }

    /// A library with five transactions, each visible in `ls --json`, and its copy through
    /// export and import-json with `times`; `states[k]` is `ls --json --as-of k` of the original.
    struct Story {
        var box: Sandbox
        var timed: Sandbox
        var states: [String]
        var ids: [String]
    }

    static func story() throws -> Story {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "album:Blue Sketches", "genre=Cool Jazz", "-y", "-m", "cooler")
        try box.succeed("tag", "artist:Sigrún", "+#iceland", "-y")
        try box.succeed("modify", "title:So Modal", "year=1999", "-y")
        try box.succeed("modify", "artist:Old Timer", "artist=Young Timer", "albumartist=Young Timer", "-y")
        let states = try (0...5).map { try Self.ls(box, String($0)) }
        let lines = try box.exportLines()
        try #require(lines.count == 5)

        let timed = try Sandbox(samples: false)
        let file = try box.exportFile("timed.jsonl", ExportLines.retimed(lines, times))
        let run = try timed.succeed("import-json", file)
        #expect(run.stdout == "Imported 5 transactions; the library now has \(ManifestEntry.good.count) songs.\n")
        return Story(box: box, timed: timed, states: states, ids: lines.compactMap(ExportLines.id))
    }

    /// A prefix `history` would print, made longer when it is all digits (that would be a
    /// sequence number; see `anIDPrefixOfDigitsOnlyNamesItsTransaction`).
    static func idPrefix(_ id: String) -> String {
        var n = 8
        while id.prefix(n).allSatisfy(\.isNumber) { n += 1 }
        return String(id.prefix(n))
    }

    @Test func everyREFFormNamesTheSameStateInEveryReadCommand() throws {
        let s = try Self.story()
        let states = s.states, timed = s.timed
        // The states themselves: each transaction shows in `ls --json`, 0 is empty, 5 is now.
        #expect(Set(states).count == 6, "every transaction changed the listing")
        #expect(try SongRecord.decode(states[0]) == [])
        #expect(try Self.ls(s.box) == states[5])
        let at1 = try SongRecord.decode(states[1]), at2 = try SongRecord.decode(states[2]), at4 = try SongRecord.decode(states[4])
        #expect(at1.count == ManifestEntry.good.count)
        #expect(at1.filter { $0.genre == "Cool Jazz" }.isEmpty && at2.filter { $0.genre == "Cool Jazz" }.count == 3)
        #expect(at2.first { $0.title == "So Modal" }?.year == 1969 && at4.first { $0.title == "So Modal" }?.year == 1999)
        // The imported copy has the same states.
        for k in 0...5 { #expect(try Self.ls(timed, String(k)) == states[k], "import-json copy, --as-of \(k)") }

        let before = try timed.history()
        let id2 = s.ids[1]
        let refs: [(String, Int)] = [
            ("0", 0), ("3", 3), ("5", 5), ("HEAD", 5), ("head", 5), ("HEAD~0", 5), ("HEAD~2", 3), ("HEAD^", 4),
            ("HEAD^^", 3), ("HEAD~5", 0), (Self.idPrefix(id2), 2), (Self.idPrefix(id2).uppercased(), 2), (id2, 2),
            // Kathmandu wall-clock time: the state at the end of the day, minute, second or hour named.
            ("2024-03-08", 0), ("2024-03-09T23:59:29", 0), ("2024-03-09 23:59:30", 1), ("2024-03-09T23:59", 1),
            ("2024-03-09", 1), ("2024-03-10T00:00", 2), ("2024-03-10T09", 2), ("2024-03-10 10:00:14", 2),
            ("2024-03-10 10:00:15", 3), ("2024-03-10T10:00", 4), ("2024-03-10", 4), ("2024-03-11T07:59", 4),
            ("2024-03-11", 5), ("2999-12-31", 5),
        ]
        for (ref, k) in refs {
            let run = try timed.succeed(["ls", "--json", "--as-of", ref], environment: Self.tz)
            #expect(run.stdout == states[k], "ls --as-of \(ref) should be state \(k)")
        }
        // The same dates in UTC name other states: dates are local time.
        let utc = ["TZ": "UTC"] as [String: String?]
        let utcStates = try [1, 2].map { try timed.succeed(["ls", "--json", "--as-of", String($0)], environment: utc).stdout }
        let utcDay = try timed.succeed(["ls", "--json", "--as-of", "2024-03-09"], environment: utc)
        #expect(utcDay.stdout == utcStates[1], "the end of 9 March in UTC is after transaction 2 (18:15:30Z)")
        let utcMinute = try timed.succeed(["ls", "--json", "--as-of", "2024-03-09T18:14"], environment: utc)
        #expect(utcMinute.stdout == utcStates[0], "transaction 1 was at 18:14:30Z")

        // ls -a, ls --artists and info: one REF of each form, against the numbered state.
        let query = ["artist:Timer,", "title:So Modal"]
        for (kind, args) in [("albums", ["ls", "-a", "--json"]), ("artists", ["ls", "--artists", "--json"]),
                             ("info", ["info", "--json"] + query)] {
            let numbered = try (0...5).map { try timed.succeed(args + ["--as-of", String($0)], environment: Self.tz).stdout }
            let now = try timed.succeed(args, environment: Self.tz).stdout
            #expect(numbered[5] == now, "\(kind): 5 is now")
            #expect(try decodeJSON([AnyDecodable].self, numbered[0]).isEmpty, "\(kind): state 0 is empty")
            for (ref, k) in [("HEAD~1", 4), (Self.idPrefix(s.ids[0]), 1), ("2024-03-10", 4), ("2024-03-10T00:00", 2),
                             ("2024-03-08", 0), ("HEAD", 5)] {
                let run = try timed.succeed(args + ["--as-of", ref], environment: Self.tz)
                #expect(run.stdout == numbered[k], "\(kind) --as-of \(ref) should be state \(k)")
            }
        }
        let albums = try timed.succeed(["ls", "-a", "--as-of", "HEAD~1"], environment: Self.tz)
        #expect(albums.lines.contains("Old Timer - Retro Hits (1985)") && !albums.stdout.contains("Young Timer"), "\(albums)")
        let artists = try timed.succeed(["ls", "--artists", "--as-of", "2024-03-10"], environment: Self.tz)
        #expect(artists.stdout.contains("Old Timer") && !artists.stdout.contains("Young Timer"), "\(artists)")
        let info = try timed.succeed(["info", "title:So Modal", "--as-of", "2024-03-10 10:00:15"], environment: Self.tz)
        #expect(info.lines.contains { $0.hasPrefix("  year ") && $0.hasSuffix(" 1969") }, "\(info)")
        #expect(info.lines.contains { $0.hasPrefix("  genre ") && $0.hasSuffix(" Cool Jazz") }, "\(info)")

        // Bad REFs: one line, nothing listed.
        for (ref, text) in [("6", "there is no transaction 6"), ("HEAD~6", "HEAD~6"), ("yesterday", "'yesterday' is not a REF"),
                            ("ffff0000", "no transaction id starts with 'ffff0000'"), ("2024-02-30", "2024-02-30")] {
            expectOneLineError(try timed.boomic(["ls", "--as-of", ref], environment: Self.tz), text)
        }
        expectOneLineError(try timed.boomic("info", "--as-of", "0", "title:So Modal"), "no songs match")

        // Time travel changed nothing.
        #expect(try timed.history() == before)
        #expect(try Self.ls(timed) == states[5])
    }

    /// A REF made of digits only is a sequence number, but `history` prints ids' first 8 hex
    /// digits, and about one id in 43 starts with 8 decimal digits. Copying such a prefix from
    /// `history` must still name the transaction, as the REF grammar promises ("an id prefix").
    @Test func anIDPrefixOfDigitsOnlyNamesItsTransaction() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:So Modal", "year=1999", "-y")
        let lines = try box.exportLines()
        let id = try #require(ExportLines.id(lines[0]))
        let digits = "12345678-1234-4234-8234-123456789abc"
        let copy = try Sandbox(samples: false)
        try copy.succeed("import-json", try box.exportFile("digits.jsonl", lines.map { $0.replacingOccurrences(of: id, with: digits) }))
        let history = try copy.history()
        #expect(history.last?.id == digits)
        let listed = try copy.listing(asOf: "1")

        let ls = try copy.boomic("ls", "--json", "--as-of", "12345678")
        #expect(ls.succeeded && ls.stdout == listed, "the prefix history shows for transaction 1: \(ls)")
        let show = try copy.boomic("show", "12345678")
        #expect(show.succeeded && show.lines.first?.hasPrefix("transaction 1 ") == true, "\(show)")
        // A number a transaction has is still that transaction.
        #expect(try copy.listing(asOf: "2") != listed)
    }

    /// `history` prints times as Foundation's formatters would in the user's zone (it formats
    /// them with libc's `gmtime_r`): the second after rounding to the millisecond, `Z` in UTC, a
    /// negative offset with its minutes, one with seconds, and a zone with daylight saving time
    /// on both sides of the change.
    @Test func timesAreTheUsersLocalTimeAsFoundationWritesThem() throws {
        let box = try Sandbox(samples: false)
        let lines = try Self.story().box.exportLines()
        // A fraction of a second in 1971 (Africa/Monrovia was then 44 min 30 s behind UTC),
        // then around Europe/Berlin's change of 2024-03-31 01:00Z; the last is 0.4 ms before an
        // hour, which the formatters round up to it.
        let change = 1_711_846_800.0
        let times = [31_536_000.75, Self.times[0], change - 0.5, change, change + 3599.9996]
        try #require(lines.count == times.count)
        _ = try box.succeed("import-json", box.exportFile("timed.jsonl", ExportLines.retimed(lines, times)))
        for zone in ["UTC", "America/St_Johns", "Europe/Berlin", "Africa/Monrovia", Self.zone] {
            let tz = try #require(TimeZone(identifier: zone))
            let text = DateFormatter()
            text.dateFormat = "yyyy-MM-dd HH:mm:ss"
            text.timeZone = tz
            let iso = ISO8601DateFormatter()
            iso.timeZone = tz
            iso.formatOptions = [.withInternetDateTime]
            let dates = times.reversed().map { Date(timeIntervalSince1970: $0) }
            let json = try decodeJSON([HistoryRecord].self, box.succeed(["history", "--json"], environment: ["TZ": zone]).stdout)
            #expect(json.map(\.time) == dates.map(iso.string(from:)), "\(zone)")
            let shown = try box.succeed(["history"], environment: ["TZ": zone]).lines
            #expect(shown.count == dates.count, "\(zone)")
            for (line, date) in zip(shown, dates) {
                #expect(line.contains("  \(text.string(from: date))  "), "\(zone): \(line)")
            }
        }
    }

    @Test func historyShowAndDiffExplainEveryChange() throws {
        let s = try Self.story()
        let timed = s.timed, states = s.states
        func history(_ args: String...) throws -> [Int] {
            let run = try timed.succeed(["history", "--json"] + args, environment: Self.tz)
            return try decodeJSON([HistoryRecord].self, run.stdout).map(\.seq)
        }

        // --json: exactly the five keys, ids in lower case as exported, local times with offset.
        let raw = try timed.succeed(["history", "--json"], environment: Self.tz)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(raw.stdout.utf8)) as? [[String: Any]])
        #expect(objects.allSatisfy { Set($0.keys) == ["seq", "id", "time", "kind", "label"] }, "\(raw)")
        let rows = try decodeJSON([HistoryRecord].self, raw.stdout)
        #expect(rows.map(\.seq) == [5, 4, 3, 2, 1])
        #expect(rows.map(\.id) == s.ids.reversed())
        #expect(rows.allSatisfy { $0.id == $0.id.lowercased() && UUID(uuidString: $0.id) != nil })
        #expect(rows.map(\.kind) == ["edit", "edit", "tag", "edit", "import"])
        #expect(rows.map(\.label) == ["modify artists=Young Timer albumartist=Young Timer (1 song)", "modify year=1999 (1 song)",
                                      "tag +#iceland (3 songs)", "modify genre=Cool Jazz (3 songs)",
                                      "import: \(ManifestEntry.good.count) new"])
        #expect(rows.map(\.time) == ["2024-03-11T08:00:00+05:45", "2024-03-10T10:00:45+05:45", "2024-03-10T10:00:15+05:45",
                                     "2024-03-10T00:00:30+05:45", "2024-03-09T23:59:30+05:45"])
        let text = try timed.succeed(["history"], environment: Self.tz)
        #expect(text.lines.count == 5 && text.lines[2].contains("2024-03-10 10:00:15") && text.lines[2].hasSuffix("tag +#iceland (3 songs)"), "\(text)")

        // Filters, alone and together.
        #expect(try history("--kind", "tag") == [3])
        #expect(try history("--kind", "edit", "--kind", "import") == [5, 4, 2, 1])
        #expect(try history("--kind", "rollback") == [])
        #expect(try history("--since", "3") == [5, 4])
        #expect(try history("--since", "HEAD~1") == [5])
        #expect(try history("--since", "0") == [5, 4, 3, 2, 1])
        #expect(try history("--since", "2024-03-10T00:00") == [5, 4, 3])
        #expect(try history("--since", "2024-03-08") == [5, 4, 3, 2, 1])
        #expect(try history("--since", Self.idPrefix(s.ids[3])) == [5])
        #expect(try history("-n", "2") == [5, 4])
        #expect(try history("-n", "0") == [])
        #expect(try history("--kind", "edit", "-n", "2") == [5, 4])
        #expect(try history("title:So Modal") == [4, 2, 1], "the import, the album's genre and its own year")
        #expect(try history("artist:Sigrún") == [3, 1])
        #expect(try history("artist:Young") == [5, 1], "the query is matched against the library now")
        #expect(try history("title:So Modal", "--since", "2", "--kind", "edit") == [4])
        #expect(try history("title:So Modal", "--kind", "tag") == [])
        expectOneLineError(try timed.boomic("history", "--since", "9"), "there is no transaction 9")

        // show: provenance (command line, message, version) as made in the original library.
        // `--version` says "0.2.0 (commit …)"; provenance keeps the release number.
        let version = try timed.succeed("--version").stdout.split(separator: " ").first.map(String.init) ?? ""
        #expect(!version.isEmpty)
        let shown = try timed.succeed(["show", "2", "--json"], environment: Self.tz)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [[String: Any]])
        try #require(array.count == 1, "\(shown)")
        #expect(array[0]["seq"] as? Int == 2)
        let t = try #require(array[0]["transaction"] as? [String: Any])
        #expect(t["id"] as? String == s.ids[1] && t["parent"] as? String == s.ids[0] && t["kind"] as? String == "edit")
        #expect(t["timestamp"] as? Double == Self.times[1])
        let provenance = try #require(t["provenance"] as? [String: Any])
        #expect(provenance["command"] as? String == "boomic --library \(s.box.library) modify 'album:Blue Sketches' 'genre=Cool Jazz' -y -m cooler")
        #expect(provenance["message"] as? String == "cooler")
        #expect(provenance["version"] as? String == version)
        let assertions = try #require(t["assertions"] as? [[String: Any]])
        #expect(assertions.count == 3 && assertions.allSatisfy { $0.keys.sorted() == ["update"] })
        let noMessage = try timed.succeed(["show", "HEAD~1", "--json"], environment: Self.tz)
        #expect(!noMessage.stdout.contains("\"message\""), "no -m, no message: \(noMessage)")
        let byPrefix = try timed.succeed(["show", Self.idPrefix(s.ids[1]), "--json"], environment: Self.tz)
        #expect(byPrefix.stdout == shown.stdout)

        let showText = try timed.succeed(["show", "HEAD~3"], environment: Self.tz)
        #expect(showText.lines.first == "transaction 2  \(s.ids[1])", "\(showText)")
        for line in ["kind:     edit", "label:    modify genre=Cool Jazz (3 songs)", "time:     2024-03-10 00:00:30",
                     "message:  cooler", "version:  boomic \(version)", "changes:  3"] {
            #expect(showText.lines.contains(line), "\(line)\n\(showText)")
        }
        #expect(showText.stdout.components(separatedBy: "    genre: Jazz → Cool Jazz").count - 1 == 3, "\(showText)")
        expectOneLineError(try timed.boomic("show", "0"), "state 0")
        expectOneLineError(try timed.boomic("show", "6"), "there is no transaction 6")

        // diff 0 HEAD: every song, added.
        let songs = try SongRecord.decode(states[5])
        let all = try timed.succeed("diff", "0", "HEAD", "--json")
        let added = try decodeJSON([[String: SongAdd]].self, all.stdout)
        #expect(added.count == songs.count && added.allSatisfy { $0.keys.sorted() == ["add"] }, "\(all)")
        #expect(Set(added.compactMap { $0["add"]?.id }) == Set(songs.map(\.id)))
        #expect(Set(added.compactMap { $0["add"]?.path }) == Set(songs.map(\.path)))
        let allText = try timed.succeed("diff", "0")
        #expect(allText.lines.last == "\(songs.count) songs differ between 0 and 5", "\(allText)")
        #expect(allText.lines.dropLast().allSatisfy { $0.hasPrefix("+ ") }, "\(allText)")

        // diff HEAD HEAD: nothing.
        #expect(try timed.succeed("diff", "HEAD", "HEAD").stdout == "No differences between 5 and 5.\n")
        let none = try timed.succeed("diff", "HEAD", "5", "--json")
        #expect(try decodeJSON([AnyDecodable].self, none.stdout).isEmpty)

        // diff 1 3: exactly the songs whose listing differs, each field old → new as listed.
        let d13 = try timed.succeed("diff", "1", "3", "--json")
        let updates = try decodeJSON([[String: SongUpdate]].self, d13.stdout).compactMap { $0["update"] }
        let at1 = Dictionary(uniqueKeysWithValues: try SongRecord.decode(states[1]).map { ($0.id, $0) })
        let at3 = Dictionary(uniqueKeysWithValues: try SongRecord.decode(states[3]).map { ($0.id, $0) })
        #expect(Set(updates.map(\.id)) == Set(at1.keys.filter { at1[$0] != at3[$0] }), "\(d13)")
        #expect(updates.count == 6)
        for u in updates {
            if let g = u.fields["genre"] {
                #expect(g.old == .string(at1[u.id]?.genre ?? "") && g.new == .string(at3[u.id]?.genre ?? ""), "\(u)")
            }
            if let tags = u.fields["tags"] {
                #expect(tags.old == .strings([]) && tags.new == .strings(["iceland"]) && at3[u.id]?.tags == ["#iceland"], "\(u)")
            }
            #expect(u.fields["genre"] != nil || u.fields["tags"] != nil, "\(u)")
        }
        let d13Text = try timed.succeed("diff", "1", "3")
        #expect(d13Text.lines.last == "6 songs differ between 1 and 3", "\(d13Text)")
        #expect(d13Text.lines.contains("~ Miles Quartet - Blue Sketches - So Modal"), "\(d13Text)")
        #expect(d13Text.lines.contains("    genre: Jazz → Cool Jazz"), "\(d13Text)")
        // The other way round, old and new swap; with one REF the other is HEAD.
        let d31 = try decodeJSON([[String: SongUpdate]].self, try timed.succeed("diff", "3", "1", "--json").stdout).compactMap { $0["update"] }
        #expect(d31.sorted { $0.id < $1.id }.map { $0.swapped } == updates.sorted { $0.id < $1.id })
        let toHead = try timed.succeed("diff", "3", "HEAD", "--json"), oneRef = try timed.succeed("diff", "3", "--json")
        #expect(oneRef.stdout == toHead.stdout)
        let byDate = try timed.succeed(["diff", "2024-03-10T00:00", "HEAD~1", "--json"], environment: Self.tz)
        #expect(byDate.stdout == (try timed.succeed("diff", "2", "4", "--json")).stdout)
        expectOneLineError(try timed.boomic("diff", "7"), "there is no transaction 7")
    }
}

/// Any JSON value, for arrays whose elements a test only counts.
struct AnyDecodable: Decodable {
    init(from decoder: any Decoder) throws {}
}

/// The song of an `{"add": …}` assertion, as much as tests look at.
struct SongAdd: Decodable { var id: String; var path: String }

/// An `{"update": …}` assertion: the song and each field's old and new value.
struct SongUpdate: Decodable, Equatable, CustomStringConvertible {
    var id: String
    var fields: [String: Change]

    struct Change: Decodable, Equatable {
        var old: JSONValue?
        var new: JSONValue?
    }

    var swapped: SongUpdate {
        SongUpdate(id: id, fields: fields.mapValues { Change(old: $0.new, new: $0.old) })
    }

    var description: String { "\(id): \(fields)" }
}

/// A JSON scalar or array of strings, as field values are logged.
enum JSONValue: Decodable, Equatable {
    case string(String), number(Double), bool(Bool), strings([String])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else { self = .strings(try c.decode([String].self)) }
    }
}
