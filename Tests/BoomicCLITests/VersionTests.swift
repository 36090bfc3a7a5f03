import BoomicTestSupport
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
        // In a git checkout, the commit is one of this checkout's: its HEAD in CI, where nothing is
        // committed between building and testing; an ancestor of HEAD when someone committed since.
        let git = try ChildProcess.run("/usr/bin/git", ["-C", Repo.root, "rev-parse", "HEAD"])
        guard git.succeeded, let head = git.lines.first,
              let named = match?.output.1, named != "unknown" else { return }
        let commit = String(named.prefix(12))
        let ancestor = try ChildProcess.run("/usr/bin/git", ["-C", Repo.root, "merge-base", "--is-ancestor", commit, "HEAD"])
        #expect(commit == head.prefix(12) || ancestor.succeeded, "\(line) names no commit of this checkout (HEAD is \(head))")
    }
}
