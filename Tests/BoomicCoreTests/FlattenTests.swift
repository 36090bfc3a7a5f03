import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// The flatten law `db.applying(h(ts)) == fold(f, ts, db)` (DESIGN §1) on random stretches of
/// random histories, and the combination rules one by one.
@Suite("Flatten")
struct FlattenTests {
    @Test("flattening any stretch of a history has the effect of the stretch")
    func flattenLaw() {
        for h in Histories.all {
            var rng = SplitMix64(seed: h.seed ^ 0xF1A7)
            var ranges = [(0, h.seq)]
            for _ in 0..<4 {
                let i = Int.random(in: 0...h.seq, using: &rng)
                ranges.append((i, Int.random(in: i...h.seq, using: &rng)))
            }
            for (i, j) in ranges {
                let ts = Array(h.transactions[i..<j])
                let flat = Flatten.assertions(ts.flatMap(\.assertions))
                let context = "seed \(h.seed), flatten \(i)..<\(j)"
                guard expectSame(h.bases[i].applying(flat), h.bases[j], context) else { break }
                #expect(Set(flat.map(\.entity)).count == flat.count, "\(context): at most one assertion per entity")

                guard let t = Flatten.transactions(ts) else {
                    #expect(ts.isEmpty, "\(context): nil only for no transactions")
                    continue
                }
                expectSame(h.bases[i].applying(t), h.bases[j], "\(context), as one transaction")
                #expect(t.id == ts.last!.id && t.parent == ts.first!.parent && t.undoes == nil && t.redoes == nil, "\(context)")
            }
        }
    }

    @Test("the whole history flattened from the empty library is only additions, one per song, taglist, playlist and EQ profile")
    func flattenedFromEmptyIsAdditions() {
        for h in Histories.all {
            let flat = Flatten.assertions(h.transactions.flatMap(\.assertions))
            var adds: [Song] = [], taglists: [ListID: Taglist] = [:], playlists: [ListID: Playlist] = [:]
            var profiles: [ListID: EQProfile] = [:], annotations: [AnnotationKey: Annotation] = [:]
            for a in flat {
                switch a {
                case .addSong(let s): adds.append(s)
                case .taglist(let id, let c) where c.old == nil: taglists[id] = c.new
                case .playlist(let id, let c) where c.old == nil: playlists[id] = c.new
                case .eqProfile(let id, let c) where c.old == nil: profiles[id] = c.new
                case .annotation(let key, let c) where c.old == nil: annotations[key] = c.new
                default: break
                }
            }
            let additions = adds.count + taglists.count + playlists.count + profiles.count + annotations.count
            #expect(additions == flat.count, "seed \(h.seed): \(flat.count - additions) assertions are not additions")
            #expect(DataBasis(uniqueSongs: adds, taglists: taglists, playlists: playlists, eqProfiles: profiles, annotations: annotations) == h.head, "seed \(h.seed)")
        }
    }

    // MARK: The rules, one by one

    static let before: Song = {
        var s = FileFacts(path: "/music/a.flac", size: 1, mtime: 1).song(id: songID(1), added: 0)
        s.title = "So What"
        s.year = 1959
        return s
    }()

    static func update(_ s: Song, _ change: (inout Song) -> Void) -> (Assertion, Song) {
        var n = s
        change(&n)
        return (.updateSong(s.id, s.patch(to: n)), n)
    }

    @Test("add then update is the updated add")
    func addThenUpdate() {
        let (u, after) = Self.update(Self.before) { $0.genre = "Jazz" }
        #expect(Flatten.assertions([.addSong(Self.before), u]) == [.addSong(after)])
    }

    @Test("update then update is one update; a field changed and changed back drops out")
    func updateThenUpdate() {
        let (u1, s1) = Self.update(Self.before) { $0.genre = "Jazz"; $0.year = 1960 }
        let (u2, s2) = Self.update(s1) { $0.year = 1959; $0.rating = 5 }
        #expect(Flatten.assertions([u1, u2]) == [.updateSong(Self.before.id, Self.before.patch(to: s2))])
        #expect(Self.before.patch(to: s2).keys.sorted() == [.genre, .rating])
        let (back, _) = Self.update(s1) { $0.genre = nil; $0.year = 1959 }
        #expect(Flatten.assertions([u1, back]) == [], "changed and changed back is nothing")
    }

    @Test("add then delete is nothing; update then delete deletes the song as it was")
    func deletes() {
        #expect(Flatten.assertions([.addSong(Self.before), .deleteSong(Self.before)]) == [])
        let (u, after) = Self.update(Self.before) { $0.title = "Freddie Freeloader" }
        #expect(Flatten.assertions([u, .deleteSong(after)]) == [.deleteSong(Self.before)])
    }

    @Test("delete then add is an update; delete then the same song again is nothing")
    func deleteThenAdd() {
        let (_, other) = Self.update(Self.before) { $0.title = "Blue in Green"; $0.tags = ["jazz"] }
        #expect(Flatten.assertions([.deleteSong(Self.before), .addSong(other)])
                == [.updateSong(Self.before.id, Self.before.patch(to: other))])
        #expect(Flatten.assertions([.deleteSong(Self.before), .addSong(Self.before)]) == [])
    }

    @Test("songs keep the order of their first assertion")
    func order() {
        var second = Self.before
        second.id = songID(2)
        let (u, _) = Self.update(Self.before) { $0.rating = 3 }
        #expect(Flatten.assertions([.addSong(second), u, .deleteSong(second)]) == [u])
        #expect(Flatten.assertions([u, .addSong(second)]).map(\.songID) == [Self.before.id, second.id])
    }

    @Test("no transactions flatten to none; one flattens to itself")
    func edges() {
        #expect(Flatten.transactions([]) == nil)
        let t = transaction(2, [Self.update(Self.before) { $0.rating = 3 }.0])
        #expect(Flatten.transactions([t]) == t)
    }
}
