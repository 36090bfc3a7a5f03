import BoomicTestSupport
import Testing
@testable import BoomicCore

/// TagViews and what-if on random edit histories: a view holds exactly the songs the reference
/// evaluator puts in the taglist, its indexes are those of a library of just those songs, and the
/// what-if of every transaction names exactly the songs each taglist gained and lost.
@Suite("TagView laws on random histories")
struct TagViewLawTests {
    static let fixed = [
        try! Taglist.parse(name: "fixed-mix", clauses: ["+#english,#french", "-#french", "-@year(<2000)"]),
        try! Taglist.parse(name: "fixed-jazz", clauses: ["+#jazz,@genre:jazz", "-@rating:<3"]),
        try! Taglist.parse(name: "fixed-count", clauses: ["+count(#instruments:) <= 2", "+#instruments:"]),
        try! Taglist.parse(name: "fixed-user", clauses: ["+@mood:happy,@bpm:100..140,@source:<m", "-@grouping_2:=a=b"],
                           userFields: Set(Samples.userFieldNames)),
    ]

    static func members(_ t: Taglist, _ b: DataBasis) -> Set<SongID> {
        Set(b.songs.values.filter { TaglistModel.contains(t, $0) }.map(\.id))
    }

    @Test("a view is the library of the taglist's songs, at every step of every history")
    func viewsHoldTheReferenceSongs() {
        var checked = 0, nonEmpty = 0
        for h in Histories.all {
            for (i, b) in h.bases.enumerated() {
                for t in Self.fixed + b.taglists.values {
                    let context = "seed \(h.seed) seq \(i) taglist \(t)"
                    let view = b.view(through: t)
                    let expected = Self.members(t, b)
                    #expect(Set(view.songs.keys) == expected, "\(context)")
                    #expect(view == DataBasis(songs: expected.map { b[$0]! }, taglists: Dictionary(uniqueKeysWithValues: b.taglists.map { ($0.key, $0.value) }),
                                              playlists: Dictionary(uniqueKeysWithValues: b.playlists.map { ($0.key, $0.value) }),
                                              eqProfiles: Dictionary(uniqueKeysWithValues: b.eqProfiles.map { ($0.key, $0.value) }),
                                              annotations: Dictionary(uniqueKeysWithValues: b.annotations.map { ($0.key, $0.value) })), "\(context)")
                    #expect(Set(view.albums.keys) == Set(expected.compactMap { AlbumKey(b[$0]!) }), "\(context): albums with no song in the view are gone")
                    guard expectConsistent(view, context) else { return }
                    checked += 1
                    if !expected.isEmpty && expected.count < b.songs.count { nonEmpty += 1 }
                }
            }
        }
        #expect(checked >= Seeds.atLeast(5_000), "only \(checked) views checked")
        #expect(nonEmpty >= Seeds.atLeast(500), "only \(nonEmpty) views that keep some songs but not all")
    }

    @Test("what-if names exactly the songs each taglist gains and loses, for every transaction")
    func whatIfIsWhatHappens() {
        var effects = 0
        for h in Histories.all {
            for (i, t) in h.transactions.enumerated() {
                // The history's own taglists, and the fixed ones added under ids of their own.
                let extra = Self.fixed.enumerated().map { Assertion.taglist(ListID(uuid(0xF000 + $0.offset)), EntityChange(old: nil, new: $0.element)) }
                let before = h.bases[i].applying(extra), after = before.applying(t)
                let predicted = before.taglistEffects(of: t.assertions)
                for (id, taglist) in after.taglistsByName {
                    let was = Self.members(taglist, before), now = Self.members(taglist, after)
                    let p = predicted.first { $0.id == id }
                    let context = "seed \(h.seed) seq \(i + 1) (\(t.label)) taglist \(taglist)"
                    #expect(Set(p?.gains ?? []) == now.subtracting(was), "\(context)")
                    #expect(Set(p?.loses ?? []) == was.subtracting(now), "\(context)")
                    if p != nil { effects += 1 }
                }
            }
        }
        #expect(effects >= Seeds.atLeast(100), "only \(effects) transactions moved songs in or out of a taglist")
    }
}
