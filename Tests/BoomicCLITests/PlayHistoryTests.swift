import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// Plays as the user sees them through `boomic` (issue 10): recorded by a player session in this
/// process (`LibrarySession.recordPlay`, what `boomic play` calls), then listed, queried, hidden
/// from history, time-travelled, and kept by undo and rollback unless `--plays`.
@Suite struct PlayHistoryTests {
    static let client = LibrarySession.Client(command: "boomic play", version: "test")

    /// Plays `songs` (by query) as a player would, one record each, and returns their ids.
    @discardableResult
    static func play(_ box: Sandbox, _ query: String, _ outcome: PlayRecord.Outcome, at time: Double,
                     bookmark: Bookmark? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> SongID {
        let id = try #require(UUID(uuidString: try box.song(query).id).map(SongID.init), sourceLocation: sourceLocation)
        let lib = try LibrarySession.open(at: box.library, create: false, client: client)
        defer { lib.close() }
        let r = try lib.recordPlay(PlayRecord(song: id, outcome: outcome, time: time, bookmark: bookmark))
        #expect(r != .unchanged, sourceLocation: sourceLocation)
        return id
    }

    @Test func playsShowInLsInfoAndJSONAndAreQueryable() throws {
        let box = try Sandbox()
        try box.importSamples()
        try Self.play(box, "title:So Modal", .played, at: 1_795_000_000)   // 2026-11-18
        try Self.play(box, "title:So Modal", .played, at: 1_795_000_600)
        try Self.play(box, "title:So Modal", .skipped, at: 1_795_000_700, bookmark: Bookmark(position: 754.5, speed: 1.5))

        let s = try box.song("title:So Modal")
        #expect(s.playcount == 2 && s.skipcount == 1 && s.bookmark == 754.5 && s.bookmark_speed == 1.5)
        let last = try #require(s.lastplayed.flatMap { ISO8601DateFormatter().date(from: $0) })
        #expect(last.timeIntervalSince1970 == 1_795_000_600)

        #expect(try box.songs("lastplayed:2026-11..").map(\.title) == ["So Modal"])
        #expect(try box.songs("playcount:2..").map(\.title) == ["So Modal"])
        #expect(try box.songs("skipcount:>0").map(\.title) == ["So Modal"])
        #expect(try box.songs("^bookmark:=").map(\.title) == ["So Modal"])
        #expect(try box.songs("lastplayed:..2026-10").isEmpty)

        let line = try box.succeed("ls", "title:So Modal", "-f", "$title $playcount $skipcount $bookmark $bookmark_speed")
        #expect(line.stdout == "So Modal 2 1 12:35 1.5\n", "\(line)")
        let info = try box.succeed("info", "title:So Modal")
        for field in ["playcount", "skipcount", "lastplayed", "bookmark", "bookmark_speed"] {
            #expect(info.stdout.contains("  \(field) "), "\(field) in\n\(info.stdout)")
        }
    }

    @Test func historyHidesPlaysUnlessAsked() throws {
        let box = try Sandbox()
        try box.importSamples()
        try Self.play(box, "title:So Modal", .played, at: 1_795_000_000)
        #expect(try box.history().map(\.kind) == ["import"])
        let all = try box.succeed("history", "--all", "--json")
        let kinds = try decodeJSON([HistoryRecord].self, all.stdout).map(\.kind)
        #expect(kinds == ["play", "import"])
        let plays = try decodeJSON([HistoryRecord].self, try box.succeed("history", "--kind", "play", "--json").stdout)
        #expect(plays.count == 1 && plays[0].label.hasPrefix("play ") && plays[0].label.hasSuffix("So Modal"), "\(plays)")
        // blame names the play that set the count, and show prints the moment as a date.
        let blame = try decodeJSON([BlameRow].self, try box.succeed("blame", "title:So Modal", "playcount", "lastplayed", "--json").stdout)
        #expect(blame.map(\.kind) == ["play", "play"] && blame.allSatisfy { $0.seq == 2 }, "\(blame)")
        let show = try box.succeed("show", "2")
        #expect(show.stdout.contains("playcount: 0 → 1") && show.stdout.contains("lastplayed: ∅ → 2026-11-"), "\(show)")
    }

    @Test func asOfShowsThePlayFieldsAsTheyWere() throws {
        let box = try Sandbox()
        try box.importSamples()
        try Self.play(box, "title:So Modal", .played, at: 1_795_000_000)   // 2
        try Self.play(box, "title:So Modal", .played, at: 1_795_000_100)   // 3
        #expect(try box.songs("title:So Modal", asOf: "2").first?.playcount == 1)
        #expect(try box.songs("title:So Modal", asOf: "1").first?.playcount == 0)
        #expect(try box.songs("title:So Modal", asOf: "1").first?.lastplayed == nil)
        #expect(try box.song("title:So Modal").playcount == 2)
    }

    /// Undo of an edit made before some plays keeps those plays; `--plays` takes them back too.
    @Test func undoOfAnEarlierEditKeepsLaterPlays() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("modify", "title:So Modal", "genre=Modal", "-y")                 // 2
        try Self.play(box, "title:So Modal", .played, at: 1_795_000_000)                  // 3
        try Self.play(box, "title:So Modal", .skipped, at: 1_795_000_100)                 // 4
        let undo = try box.succeed("undo", "-y")
        #expect(!undo.stdout.contains("playcount"), "\(undo)")
        let s = try box.song("title:So Modal")
        #expect(s.genre != "Modal", "the edit is taken back")
        #expect(s.playcount == 1 && s.skipcount == 1 && s.lastplayed != nil, "the plays stay: \(s)")

        try box.succeed("redo", "-y")
        #expect(try box.song("title:So Modal").genre == "Modal")
        try box.succeed("undo", "--plays", "-y")
        let back = try box.song("title:So Modal")
        #expect(back.genre != "Modal" && back.playcount == 0 && back.skipcount == 0 && back.lastplayed == nil, "\(back)")
    }

    @Test func rollbackAndRevertKeepPlaysUnlessAsked() throws {
        let box = try Sandbox()
        try box.importSamples()
        try Self.play(box, "title:So Modal", .played, at: 1_795_000_000)                  // 2
        try box.succeed("modify", "title:So Modal", "rating=4", "-y")                     // 3
        let dry = try box.succeed("rollback", "1", "--dry-run")
        #expect(dry.stdout.contains("rating") && !dry.stdout.contains("playcount"), "\(dry)")
        try box.succeed("rollback", "1", "-y")
        var s = try box.song("title:So Modal")
        #expect(s.rating == nil && s.playcount == 1, "\(s)")
        try box.succeed("rollback", "1", "--plays", "-y")
        s = try box.song("title:So Modal")
        #expect(s.playcount == 0 && s.lastplayed == nil, "\(s)")

        // Reverting a play does nothing without --plays, and takes it back with it.
        let playSeq = try #require(try decodeJSON([HistoryRecord].self, try box.succeed("history", "--kind", "play", "--json").stdout).first?.seq)
        // A plain undo of the rollback --plays would keep the counts it took: refused, the
        // step not used up, with what to say instead.
        let history = try box.history().count
        let refused = try box.boomic("undo", "-y")
        #expect(refused.status == 1 && refused.errorLines == ["Error: undo 5 would leave the play counts, last plays or bookmarks that 5 changed; add --plays to take them back too"],
                "\(refused)")
        #expect(try box.history().count == history && box.song("title:So Modal").playcount == 0)
        try box.succeed("undo", "--plays", "-y") // the rollback --plays taken back: the count of 1 again
        #expect(try box.song("title:So Modal").playcount == 1)
        let none = try box.succeed("revert", String(playSeq), "-y")
        #expect(none.stdout.contains("--plays"), "\(none)")
        try box.succeed("revert", String(playSeq), "--plays", "-y")
        #expect(try box.song("title:So Modal").playcount == 0)
    }

    /// A player recording plays while two `boomic modify` processes run at once: every play
    /// counts, every edit survives.
    @Test func aPlayerAndTwoModifyProcessesLoseNothing() throws {
        let box = try Sandbox()
        try box.importSamples()
        let id = try #require(UUID(uuidString: try box.song("title:So Modal").id).map(SongID.init))
        let rounds = 30
        let loop = """
            for i in $(seq 1 \(rounds)); do
              "$0" --library "$1" modify "title:So Modal" "$2=$3$i" -y >/dev/null || echo "$2 $i failed with status $?" >&2
            done
            """
        let writers = try [("comment", "c"), ("composer", "k")].map { field, prefix in
            let errors = box.root + "/writer-\(field).err"
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            return (errors, try ChildProcess.start("/bin/bash", ["-c", loop, box.executable, box.library, field, prefix], stderr: errors))
        }
        let lib = try LibrarySession.open(at: box.library, create: false, client: Self.client)
        for i in 0..<rounds {
            let r = try lib.recordPlay(PlayRecord(song: id, outcome: i % 3 == 2 ? .skipped : .played, time: 1_795_000_000 + Double(i)))
            guard case .committed = r else { Issue.record("play \(i): \(r)"); break }
        }
        lib.close()
        for (errors, process) in writers {
            process.waitUntilExit()
            let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0 && stderr.isEmpty, "\(stderr.prefix(2000))")
        }
        let s = try box.song("title:So Modal")
        #expect(s.playcount == 20 && s.skipcount == 10, "every play counted: \(s)")
        #expect(s.comment == "c\(rounds)" && s.composer == "k\(rounds)", "every edit survived: \(s)")
        let all = try decodeJSON([HistoryRecord].self, try box.succeed("history", "--all", "--json").stdout)
        #expect(all.filter { $0.kind == "play" }.count == rounds && all.filter { $0.kind == "edit" }.count == 2 * rounds)
    }
}
