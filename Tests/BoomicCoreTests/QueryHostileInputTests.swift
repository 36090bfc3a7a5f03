import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// The query parser on input nobody should type: random strings, very long terms, thousands of
/// terms, deeply nested regular expressions, numbers that overflow. Each is a query or a one-line
/// error that quotes (part of) the term; never a crash, never a hang.
@Suite("Query parser on hostile input")
struct QueryHostileInputTests {
    static let library = DataBasis(songs: (0..<50).map { n -> Song in
        var s = Song(id: songID(n + 1), path: "/music/a\(n)/b \(n).flac")
        s.title = ["So What", "Björk", "ÆØÅ", "", "((", "a:b", "x\u{301}"][n % 7]
        s.artists = ["Miles Davis", "Sigur Rós"].prefix(n % 3).map { $0 }
        s.year = n % 5 == 0 ? nil : 1950 + n
        s.tags = n % 2 == 0 ? ["jazz", "instruments:piano"] : []
        return s
    })

    static func expectOneLineErrorOrQuery(_ args: [String], _ context: String) {
        do {
            let q = try QueryParser.parse(args)
            _ = try library.songs(matching: q)
        } catch {
            let message = error.errorDescription ?? ""
            #expect(message.hasPrefix("bad query term '") && !message.contains("\n") && message.count < 600,
                    "\(context): \(message.prefix(200))")
        }
    }

    @Test("5,000 random strings of query characters: a query or a one-line error")
    func randomStrings() {
        let alphabet = Array("abcyear:title=::..^-#,+@()[]{}\\*?.$|/ 0123456789éÅ\u{301}\u{0}\u{7}\n\t\"'") + ["genre:", "year:", "added:", "path:", "#a:", "::", ".."]
            .flatMap { [Character]($0) }
        var rng = SplitMix64(seed: 0x0BAD)
        for n in 0..<5_000 {
            let terms = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                String((0..<Int.random(in: 0...24, using: &rng)).map { _ in rng.pick(alphabet) })
            }
            Self.expectOneLineErrorOrQuery(terms, "case \(n): \(terms.map(\.debugDescription))")
        }
    }

    @Test("very long input, many terms, deep nesting and overflowing numbers", arguments: [
        [String(repeating: "a", count: 200_000)],
        ["title:" + String(repeating: "ü", count: 100_000)],
        (0..<10_000).map { "t\($0)" },
        Array(repeating: ",", count: 5_000),
        ["title::" + String(repeating: "(", count: 5_000) + String(repeating: ")", count: 5_000)],
        ["title::" + String(repeating: "(", count: 5_000)],
        ["title::" + String(repeating: "a*", count: 10_000)],
        ["year:99999999999999999999999999..1"],
        ["year:-9223372036854775808..9223372036854775807"],
        ["added:9999-99-99.."],
        ["added:" + String(repeating: "2026-", count: 1_000)],
        ["#" + String(repeating: "a:", count: 10_000)],
        ["title:\u{0}\n\r\t"],
        [String(repeating: "^", count: 10_000) + "x"],
        ["path:/" + String(repeating: "../", count: 10_000)],
    ])
    func extremes(args: [String]) {
        Self.expectOneLineErrorOrQuery(args, "\(args.count) args starting \(args.first?.prefix(30).debugDescription ?? "")")
    }

    @Test("the error quotes a long term cut short and escapes control characters")
    func messagesStayOneLine() {
        let long = "yeer:" + String(repeating: "9", count: 10_000)
        #expect(throws: QueryError.self) { try QueryParser.parse([long]) }
        var message = ""
        do { _ = try QueryParser.parse([long]) } catch { message = error.errorDescription ?? "" }
        #expect(message.hasPrefix("bad query term 'yeer:99999") && message.contains("…'") && message.count < 200, "\(message)")
        do { _ = try QueryParser.parse(["ye\ner:1"]); Issue.record("a newline in a field name parsed") } catch {
            #expect(error.errorDescription?.contains("ye\\ner:1") == true, "\(error.errorDescription ?? "")")
        }
    }

    /// A regular expression with nested repeats tries every way to split a long title: left
    /// alone it runs for minutes. It is stopped after `RegexBudget.perValue` on one value, the
    /// rest of the query is not left waiting on it, and the answer is a one-line error, not a
    /// short list of songs.
    @Test func aRegexThatRunsTooLongIsStoppedAndSaidSo() throws {
        let titles = (0..<200).map { n in "An Extremely Long Title That Keeps Going \(n) " + String(repeating: "and going ", count: 6) }
        let library = DataBasis(songs: titles.enumerated().map { n, title in
            var s = Song(id: songID(n + 1), path: "/music/\(n).flac")
            s.title = title
            return s
        })
        let start = ContinuousClock.now
        #expect { try library.songs(matching: QueryParser.parse(["title::(.*)*X"])) } throws: { error in
            let message = (error as? QueryError)?.errorDescription ?? ""
            return message.hasPrefix("bad query term ':(.*)*X'") && message.contains("ran too long") && !message.contains("\n")
        }
        // Not a speed figure: a bound on a hang (unstopped, this query runs for minutes).
        #expect(ContinuousClock.now - start < .seconds(30), "the whole query took \(ContinuousClock.now - start)")
        // A sane pattern over the same titles is answered whole.
        #expect(try library.songs(matching: QueryParser.parse(["title::Going 1[0-9] "])).count == 10)
    }

    /// Commas alone only separate groups, however many: `,,` selects what `,` does (every
    /// song), where it was searched for as text.
    @Test func commasAloneSeparateGroups() throws {
        let all = try Self.library.songs(matching: QueryParser.parse([","])).count
        #expect(all == Self.library.songs.count)
        for q in [[",,"], [",,,"], ["year:1951", ",,", "title:So"]] {
            let n = try Self.library.songs(matching: QueryParser.parse(q)).count
            #expect(q.count == 1 ? n == all : n == (try Self.library.songs(matching: QueryParser.parse(["year:1951", ",", "title:So"]))).count, "\(q)")
        }
    }
}
