import Foundation
import Testing

/// A query given but empty (`''`, `' '`, `,`: a script's `"$UNSET"`) selects nothing on purpose
/// (issue 9 item 2.4): every command that changes something refuses it in one line and changes
/// nothing, while a query left out keeps its documented meaning.
@Suite struct EmptyQueryTests {
    static let emptyQueries = ["", " ", ",", " , ", "\t"]

    /// Each changing command with each empty query: exit 1, one line, nothing in the log or the
    /// listing changes. One sandbox for all: every refusal leaves it as it was.
    @Test func changingCommandsRefuseAnEmptyQuery() throws {
        let box = try Sandbox()
        try box.importSamples()
        try box.succeed("playlist", "new", "mix")
        let listed = try box.listing()
        let history = try box.history()
        let commands: [(String) -> [String]] = [
            { ["remove", $0, "-y"] },
            { ["modify", $0, "comment=x", "-y"] },
            { ["tag", $0, "+#x", "-y"] },
            { ["write", $0, "-y"] },
            { ["playlist", "add", "mix", $0] },
            { ["playlist", "new", "other", $0] },
            // Not queries, but empty all the same: a clause, a position.
            { ["taglist", "add", "rules", $0] },
            { ["playlist", "remove", "mix", $0] },
        ]
        // Beside a real query, an empty term OR-ed in would select every song too; a second
        // `,` only separates nothing from nothing.
        let beside: (String) -> [String] = { ["remove", "artist:Miles", ",", $0, "-y"] }
        let cases = commands.flatMap { c in Self.emptyQueries.map { c($0) } }
            + Self.emptyQueries.filter { $0 != "," }.map(beside)
        for arguments in cases {
            let run = try box.boomic(arguments)
            #expect(run.status == 1 && !run.signaled && run.stdout.isEmpty, "\(run)")
            #expect(run.errorLines.count == 1, "\(run)")
            let isQuery = !arguments.starts(with: ["taglist"]) && !arguments.starts(with: ["playlist", "remove"])
            #expect(!isQuery || run.stderr.contains("empty"), "the error says the query is empty: \(run)")
        }
        #expect(try box.history() == history)
        #expect(try box.listing() == listed)
    }

    /// Left out, the query keeps its meaning: `modify` and `write` take every song, `playlist new`
    /// makes an empty playlist, and a real query beside a trailing `,` still works.
    /// A lone `-` negates nothing, as a lone `^` does: refused in one line, nothing changed
    /// (issue 33, 13: read as a bare word, `remove -` removed every song with a dash in it).
    @Test func aLoneNegationSignIsRefused() throws {
        let box = try Sandbox()
        try box.importSamples()
        let listed = try box.listing()
        let history = try box.history()
        for sign in ["-", "^"] {
            for arguments in [["remove", sign, "-y"], ["modify", sign, "comment=x", "-y"], ["ls", sign],
                              ["remove", "artist:Miles", ",", sign, "-y"]] {
                let run = try box.boomic(arguments)
                #expect(run.status == 1 && !run.signaled && run.stdout.isEmpty && run.errorLines.count == 1
                        && run.stderr.contains("nothing after the negation sign"), "\(run)")
            }
        }
        #expect(try box.listing() == listed && box.history() == history, "a refused query changed the library")
    }

    @Test func aQueryLeftOutKeepsItsMeaning() throws {
        let box = try Sandbox()
        try box.importSamples()
        let all = try box.songs().count
        let modified = try box.succeed("modify", "comment=every", "-y")
        #expect(modified.stdout.contains("Modified \(all) songs"), "\(modified)")
        try box.succeed("playlist", "new", "empty")
        let removed = try box.succeed("remove", "artist:Miles", ",", "-y")
        #expect(removed.stdout.contains("Removed 3 songs"), "\(removed)")
    }
}
