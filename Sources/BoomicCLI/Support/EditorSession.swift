import Foundation

/// Lets the user edit lines of text in their editor (`$VISUAL`, `$EDITOR`, else `vi`), as
/// `git commit` and `beet edit` do.
enum EditorSession {
    /// The edited lines, without blank lines and `#` comments. Throws when there is no terminal
    /// or the editor fails, so a script never hangs waiting for one.
    static func edit(_ lines: [String], header: String) throws -> [String] {
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw CLIError("no terminal to edit on: give the new clauses as arguments", exitCode: 64)
        }
        let env = ProcessInfo.processInfo.environment
        let editor = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("boomic-edit-\(getpid()).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try (header + "\n" + lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", editor + " \"$1\"", "sh", file.path]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CLIError("the editor (\(editor)) failed; nothing changed") }
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
