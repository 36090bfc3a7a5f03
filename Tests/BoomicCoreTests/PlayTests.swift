import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// Plays (issue 10): the counting rule, the play transaction, and the laws that keep plays when
/// an edit is taken back.
@Suite struct PlayTests {
    // MARK: Counting

    @Test("a song that ended, or of which half or 4 minutes was heard, is a play; earlier is a skip; a quit only bookmarks",
          arguments: [
        (10.0, 200.0, PlayCounting.Ending.finished, PlayRecord.Outcome.played),
        (0, 200, .finished, .played),
        (100, 200, .movedOn, .played),        // half
        (99.9, 200, .movedOn, .skipped),
        (240, 3_600, .movedOn, .played),      // four minutes of an hour
        (239, 3_600, .movedOn, .skipped),
        (0, 200, .movedOn, .skipped),
        (200, nil, .movedOn, .skipped),       // no duration: only the 4 minutes count
        (240, nil, .movedOn, .played),
        (3_000, 3_600, .quit, .bookmarkOnly), // quitting never counts
        (5, 0, .movedOn, .skipped),
    ] as [(Double, Double?, PlayCounting.Ending, PlayRecord.Outcome)])
    func counting(heard: Double, duration: Double?, ending: PlayCounting.Ending, expected: PlayRecord.Outcome) {
        #expect(PlayCounting.outcome(heard: heard, duration: duration, ending: ending) == expected)
    }

    // MARK: The play transaction

    static func library() -> (DataBasis, Song) {
        var s = Song(id: SongID(UUID(uuidString: "00000000-0000-4000-8000-000000000001")!), path: "/m/a.flac")
        s.title = "So What"; s.artists = ["Miles Davis"]; s.duration = 545; s.playcount = 4
        return (DataBasis.empty.applying([.addSong(s)]), s)
    }

    @Test func aPlayCountsAndSaysWhen() throws {
        let (b, s) = Self.library()
        let a = try #require(PlayGeneration.record(PlayRecord(song: s.id, outcome: .played, time: 1_800_000_000), on: b))
        #expect(a == [.updateSong(s.id, [.playcount: FieldChange(old: .int(4), new: .int(5)),
                                         .lastplayed: FieldChange(old: .null, new: .double(1_800_000_000))])])
        #expect(PlayGeneration.label(PlayRecord(song: s.id, outcome: .played, time: 0), song: s) == "play Miles Davis - So What")
    }

    @Test func aSkipCountsOnlyTheSkip() throws {
        let (b, s) = Self.library()
        let a = try #require(PlayGeneration.record(PlayRecord(song: s.id, outcome: .skipped, time: 9), on: b))
        #expect(a == [.updateSong(s.id, [.skipcount: FieldChange(old: .int(0), new: .int(1))])])
    }

    @Test func aQuitKeepsTheBookmarkAndItsSpeedOnly() throws {
        let (b, s) = Self.library()
        let r = PlayRecord(song: s.id, outcome: .bookmarkOnly, time: 9, bookmark: Bookmark(position: 754.5, speed: 1.5))
        let after = b.applying(try #require(PlayGeneration.record(r, on: b)))
        #expect(after[s.id]?.bookmarkValue == Bookmark(position: 754.5, speed: 1.5))
        #expect(after[s.id]?.playcount == 4 && after[s.id]?.lastplayed == nil)
        #expect(PlayGeneration.label(r, song: s) == "bookmark Miles Davis - So What at 12:34 (speed 1.5)")
        // At normal speed the speed is not stored; finishing the song clears the bookmark.
        let normal = after.applying(PlayGeneration.record(PlayRecord(song: s.id, outcome: .skipped, time: 10, bookmark: Bookmark(position: 30)), on: after)!)
        #expect(normal[s.id]?.bookmark == 30 && normal[s.id]?.bookmarkSpeed == nil)
        let done = normal.applying(PlayGeneration.record(PlayRecord(song: s.id, outcome: .played, time: 11), on: normal)!)
        #expect(done[s.id]?.bookmark == nil && done[s.id]?.playcount == 5)
    }

    @Test func aSongNoLongerThereGivesNothing() {
        let (b, _) = Self.library()
        #expect(PlayGeneration.record(PlayRecord(song: SongID(UUID()), outcome: .played, time: 1), on: b) == nil)
    }

    @Test func aPlayRecordRoundTripsThroughJSON() throws {
        let r = PlayRecord(song: SongID(UUID()), outcome: .bookmarkOnly, time: 12.5, bookmark: Bookmark(position: 3, speed: 0.75))
        #expect(try JSONDecoder().decode(PlayRecord.self, from: JSONEncoder().encode(r)) == r)
    }

    @Test func playFieldsQueryAsNumbersAndDates() throws {
        var (b, s) = Self.library()
        b = b.applying(PlayGeneration.record(PlayRecord(song: s.id, outcome: .played, time: 1_795_000_000), on: b)!) // 2026-11-18
        b = b.applying(PlayGeneration.record(PlayRecord(song: s.id, outcome: .skipped, time: 1_795_000_100, bookmark: Bookmark(position: 60)), on: b)!)
        func finds(_ q: String) throws -> Bool { try !b.songs(matching: QueryParser.parse([q], timeZone: .gmt)).isEmpty }
        for yes in ["lastplayed:2026-11..", "lastplayed:2026-11-18", "playcount:5..", "skipcount:>0", "skipcount:1",
                    "bookmark:0..", "^bookmark:=", "bookmark:>59", "lastplayed:>2026-10", "last_played:<2027"] {
            #expect(try finds(yes), "\(yes)")
        }
        for no in ["lastplayed:..2026-10", "playcount:6..", "skipcount:>1", "bookmark:=", "bookmark_speed:0..", "lastplayed:>2026-11"] {
            #expect(try !finds(no), "\(no)")
        }
        // Taglist rules read them as QUERY does.
        for (clause, expected) in [("+@lastplayed:2026-11..", true), ("+@lastplayed(<2026-11)", false), ("+@skipcount(>0)", true),
                                   ("+@playcount:5", true), ("+@bookmark(>=60)", true), ("+@last_played:2025", false)] {
            let t = try Taglist.parse(name: "t", clauses: [clause])
            #expect(TaglistMatcher(t).matches(b[s.id]!) == expected, "\(clause)")
        }
    }

    // MARK: Laws: plays are facts

    /// What `target` looks like with the play fields of `head`'s songs: what undo, redo and
    /// rollback must give without `--plays`.
    static func keepingPlays(of head: DataBasis, _ target: DataBasis) -> [SongID: Song] {
        var out: [SongID: Song] = [:]
        for (id, t) in target.songs {
            var e = t
            if let h = head[id] { for f in SongField.playFields { f.set(f.value(in: h), in: &e) } }
            out[id] = e
        }
        return out
    }

    static func expectKeepsPlays(_ after: DataBasis, head: DataBasis, target: DataBasis, _ context: String) {
        let expected = keepingPlays(of: head, target)
        #expect(after.songs.count == expected.count, "\(context)")
        for (id, e) in expected where after[id] != e {
            Issue.record("\(context): song \(id) is \(String(describing: after[id])), expected \(e)")
            return
        }
        #expect(after.taglists == target.taglists && after.playlists == target.playlists, "\(context)")
    }

    @Test("rollback without --plays goes back but keeps every song's plays; with --plays it is the whole state")
    func rollbackKeepsPlaysUnlessAsked() {
        var checked = 0
        for h in Histories.all where h.seq > 1 {
            var rng = SplitMix64(seed: h.seed)
            let k = Int.random(in: 0..<h.seq, using: &rng)
            let all = EditGeneration.rollback(from: h.head, to: h.bases[k])
            Self.expectKeepsPlays(h.head.applying(EditGeneration.keepingPlays(all)), head: h.head, target: h.bases[k], "seed \(h.seed) to \(k)")
            #expect(h.head.applying(all) == h.bases[k], "seed \(h.seed) to \(k) with --plays")
            checked += 1
        }
        #expect(checked >= Seeds.atLeast(100))
    }

    @Test("an edit, then plays, then undo: the edit is taken back and the plays stay")
    func undoOfAnEarlierEditKeepsLaterPlays() {
        var checked = 0
        for seed in Seeds.list(150, from: 0x9_1A75) {
            var h = HistoryGenerator.history(seed: seed)
            guard !h.head.isEmpty else { continue }
            var rng = SplitMix64(seed: seed)
            let ids = h.head.songs.keys.sorted()
            let edited = rng.subset(of: ids, max: 3)
            guard h.commit(EditGeneration.modify(h.head, songs: edited, set: [FieldAssignment(field: .title, value: .string("Edited \(seed)")),
                                                                              FieldAssignment(field: .playcount, value: .int(0))]),
                           kind: .edit, label: "modify") else { continue }
            let beforeEdit = h.bases[h.seq - 1]
            for i in 0..<Int.random(in: 1...6, using: &rng) {
                let id = rng.pick(ids)
                let r = PlayRecord(song: id, outcome: rng.pick([.played, .skipped, .bookmarkOnly]), time: 1_900_000_000 + Double(i),
                                   bookmark: rng.chance(0.5) ? Bookmark(position: Double(i * 10), speed: 1.25) : nil)
                h.commit(PlayGeneration.record(r, on: h.head)!, kind: .play, label: "play")
            }
            let head = h.head
            guard let plan = h.stack.undoPlan(count: 1) else { Issue.record("seed \(seed): nothing to undo"); continue }
            #expect(h.bases[plan.targetSeq] == beforeEdit, "seed \(seed): undo goes back past the plays to before the edit")
            let a = EditGeneration.keepingPlays(EditGeneration.rollback(from: head, to: h.bases[plan.targetSeq]))
            let after = head.applying(a)
            Self.expectKeepsPlays(after, head: head, target: beforeEdit, "seed \(seed)")
            for id in edited {
                #expect(after[id]?.title == beforeEdit[id]?.title, "seed \(seed): the edit is taken back")
                #expect(after[id]?.playcount == head[id]?.playcount, "seed \(seed): the plays (and the edited count) stay")
            }
            checked += 1
        }
        #expect(checked >= Seeds.atLeast(100))
    }

    @Test("revert without --plays never touches a play field; a play reverts to nothing")
    func revertKeepsPlays() {
        var plays = 0
        for h in Histories.all {
            for (i, t) in h.transactions.enumerated() {
                let r = RevertGeneration.revert(t, on: h.head, force: true, keepingPlays: true)
                for case .updateSong(_, let p) in r.assertions where p.keys.contains(where: \.isPlayField) {
                    Issue.record("seed \(h.seed) seq \(i + 1): revert touched \(p.keys.filter(\.isPlayField))")
                }
                if t.kind == .play {
                    #expect(r.assertions.isEmpty, "seed \(h.seed) seq \(i + 1)")
                    plays += 1
                }
            }
        }
        #expect(plays >= Seeds.atLeast(50), "only \(plays) plays in the random histories")
    }
}
