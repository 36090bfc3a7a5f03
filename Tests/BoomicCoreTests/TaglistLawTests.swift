import BoomicTestSupport
import Testing
@testable import BoomicCore

/// Laws that follow from DESIGN §5's definition, checked on random libraries and taglists: they
/// hold whatever the rules mean, so they check the combination of clauses apart from the rules.
@Suite("Taglist laws")
struct TaglistLawTests {
    static func ids(_ basis: DataBasis, _ clauses: [Clause]) -> Set<SongID> {
        Set(basis.songs(in: Taglist(name: "t", clauses: clauses)).map(\.id))
    }

    static func flipped(_ c: Clause) -> Clause { Clause(c.sign == .positive ? .negative : .positive, c.rules) }

    @Test("the laws of clauses, on 300 random libraries")
    func laws() {
        var checked = 0
        for seed in TaglistModel.seeds(300, salt: 0x1A35) {
            var rng = SplitMix64(seed: seed)
            let basis = TaglistModel.library(&rng)
            let all = Set(basis.songs.keys)
            let t = TaglistModel.taglist(&rng)
            let found = Self.ids(basis, t.clauses)
            let positive = t.clauses.filter { $0.sign == .positive }
            let negative = t.clauses.filter { $0.sign == .negative }

            #expect(Self.ids(basis, []) == all, "seed \(seed): a taglist with no clauses holds every song")

            // Only positive clauses: the intersection of the clauses' songs.
            let eachPositive = positive.map { Self.ids(basis, [$0]) }
            #expect(Self.ids(basis, positive) == eachPositive.reduce(all) { $0.intersection($1) }, "seed \(seed): \(t)")

            // A song is excluded only when every negative clause holds for it.
            let holdsEveryNegative = negative.map { Self.ids(basis, [Self.flipped($0)]) }.reduce(all) { $0.intersection($1) }
            let expected = negative.isEmpty ? Self.ids(basis, positive) : Self.ids(basis, positive).subtracting(holdsEveryNegative)
            #expect(found == expected, "seed \(seed): \(t)")

            // Adding a positive clause never adds songs. The first negative clause never adds songs
            // either; but since a song is excluded only when every negative clause holds, each
            // further negative clause can only let songs back in (the worked example's third clause
            // brings back French songs from 2000 on).
            let c = TaglistModel.clause(&rng)
            #expect(Self.ids(basis, t.clauses + [Clause(.positive, c.rules)]).isSubset(of: found), "seed \(seed): \(t) with +\(c)")
            let withNegative = Self.ids(basis, t.clauses + [Clause(.negative, c.rules)])
            if negative.isEmpty {
                #expect(withNegative.isSubset(of: found), "seed \(seed): \(t) with -\(c)")
            } else {
                #expect(withNegative.isSuperset(of: found), "seed \(seed): \(t) with -\(c)")
            }

            // Complements: +c and -c split the library; together they hold nothing.
            let yes = Self.ids(basis, [Clause(.positive, c.rules)]), no = Self.ids(basis, [Clause(.negative, c.rules)])
            #expect(yes.union(no) == all && yes.isDisjoint(with: no), "seed \(seed): \(c)")
            #expect(Self.ids(basis, [Clause(.positive, c.rules), Clause(.negative, c.rules)]).isEmpty, "seed \(seed): \(c)")

            // A clause is the union of its rules; the order of clauses and rules does not matter.
            let eachRule = c.rules.map { Self.ids(basis, [Clause(.positive, [$0])]) }
            #expect(yes == eachRule.reduce(Set()) { $0.union($1) }, "seed \(seed): \(c)")
            var shuffled = t.clauses.shuffled(using: &rng)
            shuffled = shuffled.map { Clause($0.sign, $0.rules.shuffled(using: &rng)) }
            #expect(Self.ids(basis, shuffled) == found, "seed \(seed): \(t)")
            checked += 1
        }
        #expect(checked >= (Seeds.replayed == nil ? 300 : 0))
    }
}
