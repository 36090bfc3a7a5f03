import BoomicTestSupport
import Foundation
import Testing

/// `-genre:jazz` and `-#tag` typed on a real command line (DESIGN §4): the argument parser
/// alone would read them as short options, so `boomic` rewrites the leading `-` to `^` — but
/// never after `--`.
@Suite struct NegationTests {
    @Test func dashNegatesAFieldTermInLs() throws {
        let box = try Sandbox()
        try box.importSamples()
        let all = try box.songs()
        let jazz = try box.songs("genre:jazz")
        try #require(jazz.count == 3, "the samples have three Jazz songs")

        for negated in ["-genre:jazz", "^genre:jazz"] {
            let run = try box.boomic("ls", "--json", negated)
            #expect(run.succeeded && run.stderr.isEmpty, "\(run)")
            let rest = try SongRecord.decode(run.stdout)
            #expect(rest.count == all.count - jazz.count, "\(negated)")
            #expect(Set(rest.map(\.id)).isDisjoint(with: jazz.map(\.id)), "\(negated)")
            #expect(Set(rest.map(\.id)).union(jazz.map(\.id)) == Set(all.map(\.id)), "\(negated)")
        }
        // With other terms and options around it, in either order.
        let combined = try box.boomic("ls", "-genre:jazz", "--json", "-year:1900..1999")
        #expect(combined.succeeded, "\(combined)")
        let expected = all.filter { $0.genre != "Jazz" && !(1900...1999).contains($0.year ?? 0) }
        #expect(try Set(SongRecord.decode(combined.stdout).map(\.id)) == Set(expected.map(\.id)))
        // Text output too.
        let text = try box.succeed("ls", "-genre:jazz")
        #expect(text.lines.count == all.count - jazz.count)
        #expect(!text.stdout.contains("Miles Quartet"))
    }

    @Test func dashRemovesATagAndNegatesATagTerm() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("tag", "artist:Miles", "+#jazz", "+#old", "-y")
        try box.succeed("tag", "artist:Sigrún", "+#jazz", "-y")
        #expect(try box.songs("#jazz").count == 6)

        // `-#jazz` as a query term: everything without the tag.
        let without = try box.boomic("ls", "--json", "-#jazz")
        #expect(without.succeeded && without.stderr.isEmpty, "\(without)")
        #expect(try SongRecord.decode(without.stdout).count == ManifestEntry.good.count - 6)

        // `-#jazz` in `boomic tag`: removal, from the real command line.
        let run = try box.boomic("tag", "artist:Miles", "-#jazz", "-y")
        #expect(run.succeeded && run.stderr.isEmpty, "\(run)")
        #expect(try box.history().first?.label == "tag -#jazz (3 songs)")
        #expect(try box.songs("artist:Miles").map(\.tags) == [["#old"], ["#old"], ["#old"]])
        #expect(try box.songs("#jazz").count == 3)

        // Negated query and tag removal in one command.
        let both = try box.boomic("tag", "#jazz", "-artist:Miles", "-#jazz", "+#nordic", "-y")
        #expect(both.succeeded, "\(both)")
        #expect(try box.songs("artist:Sigrún").allSatisfy { $0.tags == ["#nordic"] })
        #expect(try box.songs("artist:Miles").map(\.tags) == [["#old"], ["#old"], ["#old"]])
    }

    /// After `--` the tokens reach the query parser as typed. It reads `-` as negation too, so
    /// the difference shows where a token is quoted back: in the error.
    @Test func doubleDashStopsTheRewriting() throws {
        let box = try Sandbox()
        try box.importSamples()

        let literal = try box.boomic("ls", "--", "-yeer:1969")
        #expect(literal.status == 1, "\(literal)")
        #expect(literal.stderr.contains("'-yeer:1969'"), "the term as typed after --: \(literal)")
        #expect(!literal.stderr.contains("^yeer"), "\(literal)")

        let same = try box.boomic("ls", "--json", "--", "-genre:jazz")
        #expect(same.succeeded, "\(same)")
        #expect(try SongRecord.decode(same.stdout).count == ManifestEntry.good.count - 3)

        // An option after `--` is a query term, not an option.
        let option = try box.boomic("ls", "--", "--json")
        #expect(option.status != 0 || !option.stdout.hasPrefix("["), "--json after -- must not turn on JSON: \(option)")
    }

    /// Without the rewriting the parser would take `-yeer:1969` for the short flags `-y -e …`
    /// and fail with a usage error (64); with it, the query parser explains the term (1).
    @Test func negatedUnknownFieldIsAQueryErrorNotAUsageError() throws {
        let box = try Sandbox()
        try box.importSamples()
        let run = try box.boomic("ls", "-yeer:1969")
        #expect(run.status == 1 && run.stdout.isEmpty && run.errorLines.count == 1, "\(run)")
        #expect(run.stderr.contains("yeer:1969") && run.stderr.contains("'year'"), "\(run)")
    }
}
