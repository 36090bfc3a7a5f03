import Foundation
import Testing

/// `boomic --version` names the commit it was built from (issue 9, item 17), so a bug report
/// says exactly which code ran.
@Suite struct VersionTests {
    @Test func versionNamesTheCommitItWasBuiltFrom() throws {
        let box = try Sandbox(samples: false)
        let run = try box.bare(["--version"])
        #expect(run.succeeded, "\(run)")
        let line = run.stdout.trimmingCharacters(in: .newlines)
        let match = line.wholeMatch(of: /\d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)/)
        #expect(match != nil, "unexpected version line: \(line)")
        // In a git checkout (as in CI), the commit is the checkout's HEAD.
        let git = try ChildProcess.run("/usr/bin/git", ["-C", Repo.root, "rev-parse", "HEAD"])
        guard git.succeeded, let head = git.lines.first else { return }
        #expect(line.contains("(commit " + head.prefix(12)), "\(line) does not name HEAD \(head)")
    }
}
