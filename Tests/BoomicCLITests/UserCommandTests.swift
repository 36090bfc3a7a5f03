import BoomicAccounts
import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// `boomic user …` and what the other commands do with accounts: they live beside the library,
/// outside its log (`undo` and `export` never see them), and `backup` copies them.
@Suite struct UserCommandTests {
    struct UserRow: Decodable, Equatable { var name: String; var keys: Int; var created: String }
    struct KeyRow: Decodable { var id: String; var label: String?; var created: String }
    struct MadeKey: Decodable { var id: String; var key: String; var label: String?; var user: String }

    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    static func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

    @Test func addReadsThePasswordFromStandardInputAndListsIt() throws {
        let box = try Sandbox(samples: false)
        try box.succeed("init")
        let add = try box.boomic(["user", "add", "anna"], input: "sesame\nignored\n")
        #expect(add.succeeded && add.stderr.isEmpty && add.lines == ["Added account anna."], "\(add)")
        #expect(try Self.mode(box.library + "/users.json") == 0o600)
        #expect(try Self.mode(box.library + "/users.key") == 0o600)
        // The password is the first line alone, and the token of Subsonic's example logs in.
        let auth = try Accounts(folder: box.library).authenticator()
        #expect(try auth.authenticate(user: "anna", token: "26719a1196d2a940705a59634eb18eab", salt: "c19b2d").get().name == "anna")

        try box.boomic(["user", "add", "ben"], input: "x\r\n").expectSuccess()
        let rows = try decodeJSON([UserRow].self, box.succeed("user", "ls", "--json").stdout)
        #expect(rows.map(\.name) == ["anna", "ben"] && rows.map(\.keys) == [0, 0])
        #expect(rows.allSatisfy { $0.created.count >= 20 })
        let plain = try box.succeed("user", "ls")
        #expect(plain.lines.count == 2 && plain.lines[0].hasPrefix("anna  0 API keys, added "), "\(plain)")
        #expect(try Accounts(folder: box.library).authenticator().authenticate(user: "ben", password: "x").get().name == "ben")
    }

    /// On a terminal the password is asked twice, and what is typed is never echoed.
    @Test func onATerminalThePasswordIsAskedTwiceWithoutEcho() throws {
        let box = try Sandbox(samples: false)
        try box.succeed("init")
        let typed = try Self.onTerminal(box, ["user", "add", "anna"], answers: ["s3cret-pw", "s3cret-pw"])
        #expect(typed.status == 0 && typed.output.contains("Password for anna: ") && typed.output.contains("Again: "), "\(typed)")
        #expect(typed.output.contains("Added account anna.") && !typed.output.contains("s3cret"), "\(typed)")
        #expect(try Accounts(folder: box.library).authenticator().authenticate(user: "anna", password: "s3cret-pw").get().name == "anna")
        let differ = try Self.onTerminal(box, ["user", "passwd", "anna"], answers: ["one", "two"])
        #expect(differ.status == 1 && differ.output.contains("the two passwords differ"), "\(differ)")
        #expect(try Accounts(folder: box.library).authenticator().authenticate(user: "anna", password: "s3cret-pw").get().name == "anna")
    }

    /// Runs boomic on a pseudo-terminal (Python's `pty`), typing each answer once its prompt
    /// (a line ending in ": ") has appeared; what the terminal showed, and the exit status.
    static func onTerminal(_ box: Sandbox, _ arguments: [String], answers: [String]) throws -> (output: String, status: Int32) {
        let script = """
            import os, pty, sys
            argv = sys.argv[1:]
            answers = os.environ["ANSWERS"].split("\\n")
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(argv[0], argv)
            out = b""
            def more():
                global out
                try:
                    d = os.read(fd, 4096)
                except OSError:
                    return False
                out += d
                return bool(d)
            mark = 0
            for a in answers:
                while not out[mark:].endswith(b": "):
                    if not more(): break
                os.write(fd, a.encode() + b"\\n")
                mark = len(out)
            while more():
                pass
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(out.decode(errors="replace"))
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let run = try ChildProcess.run(
            systemPython, ["-c", script, box.executable, "--library", box.library] + arguments,
            environment: ["ANSWERS": answers.joined(separator: "\n")])
        return (run.stdout, run.status)
    }

    @Test func errorsAreOneLineAndChangeNothing() throws {
        let box = try Sandbox(samples: false)
        let noLibrary = try box.boomic(["user", "add", "anna"], input: "pw\n")
        #expect(noLibrary.status == 1 && noLibrary.errorLines.count == 1 && noLibrary.stderr.contains("no library at"), "\(noLibrary)")
        try box.succeed("init")
        try box.boomic(["user", "add", "anna"], input: "pw\n").expectSuccess()
        let before = Self.bytes(box.library + "/users.json")
        let cases: [([String], String, String)] = [
            (["user", "add", "Anna"], "pw\n", "there is an account named 'Anna' already"),
            (["user", "add", "ben"], "", "no password on standard input"),
            (["user", "add", "ben"], "\n", "the password is empty"),
            (["user", "add", "a/b"], "pw\n", "'a/b' cannot name an account"),
            (["user", "rm", "nobody"], "", "there is no account named 'nobody'"),
            (["user", "passwd", "nobody"], "pw\n", "there is no account named 'nobody'"),
            (["user", "key", "add", "nobody"], "", "there is no account named 'nobody'"),
            (["user", "key", "ls", "nobody"], "", "there is no account named 'nobody'"),
            (["user", "key", "rm", "anna", "12345678"], "", "'anna' has no API key 12345678"),
        ]
        for (arguments, input, message) in cases {
            let run = try box.boomic(arguments, input: input)
            #expect(run.status == 1 && run.stdout.isEmpty && run.stderr.hasPrefix("Error: "), "\(run)")
            #expect(run.errorLines.count == 1 && run.stderr.contains(message), "\(run)")
        }
        #expect(Self.bytes(box.library + "/users.json") == before)
        let usage = try box.boomic(["user", "rm"], input: "")
        #expect(usage.status == 64, "\(usage)")
    }

    @Test func passwdRemoveAndAPIKeys() throws {
        let box = try Sandbox(samples: false)
        try box.succeed("init")
        try box.boomic(["user", "add", "anna"], input: "old\n").expectSuccess()
        try box.boomic(["user", "passwd", "anna"], input: "new\n").expectSuccess()
        var auth = try Accounts(folder: box.library).authenticator()
        #expect(auth.authenticate(user: "anna", password: "old") == .failure(.wrongCredentials))
        #expect(try auth.authenticate(user: "anna", password: "new").get().name == "anna")

        let made = try box.succeed("user", "key", "add", "anna", "--label", "phone")
        #expect(made.lines.count == 2 && made.lines[0].contains("(phone) for anna, shown only this once"), "\(made)")
        let key = made.lines[1]
        #expect(key.hasPrefix("boomic_"))
        let second = try decodeJSON([MadeKey].self, box.succeed("user", "key", "add", "anna", "--json").stdout)[0]
        #expect(second.user == "anna" && second.label == nil && second.key != key)
        // Only hashes are kept.
        let file = String(decoding: Self.bytes(box.library + "/users.json"), as: UTF8.self)
        #expect(!file.contains(key) && !file.contains(second.key) && !file.contains("new"))

        let keys = try decodeJSON([KeyRow].self, box.succeed("user", "key", "ls", "anna", "--json").stdout)
        #expect(keys.count == 2 && keys[0].label == "phone" && keys[1].id == second.id)
        #expect(try box.succeed("user", "ls", "--json").stdout.contains("\"keys\":2"))
        auth = try Accounts(folder: box.library).authenticator()
        #expect(try auth.authenticate(apiKey: key).get().name == "anna")

        let revoked = try box.succeed("user", "key", "rm", "anna", keys[0].id)
        #expect(revoked.lines == ["Revoked API key \(keys[0].id) (phone) of anna."])
        auth = try Accounts(folder: box.library).authenticator()
        #expect(auth.authenticate(apiKey: key) == .failure(.invalidAPIKey))
        #expect(try auth.authenticate(apiKey: second.key).get().name == "anna")
        #expect(try decodeJSON([KeyRow].self, box.succeed("user", "key", "ls", "anna", "--json").stdout).map(\.id) == [second.id])

        // Her bookmarks and saved play queue (listeners.json) go with her; another's stay.
        let listeners = try ListenerStateStore(libraryLocation: box.library)
        try listeners.setBookmark(SongID(UUID()), position: 5, comment: nil, for: "anna", at: 1)
        try listeners.setBookmark(SongID(UUID()), position: 7, comment: nil, for: "ben", at: 1)
        let removed = try box.succeed("user", "rm", "anna")
        #expect(removed.lines == ["Removed account anna and its 1 API key."])
        let after = try ListenerStateStore(libraryLocation: box.library)
        #expect(after.bookmarks(of: "anna").isEmpty && after.bookmarks(of: "ben").count == 1)
        #expect(try decodeJSON([UserRow].self, box.succeed("user", "ls", "--json").stdout).isEmpty)
        #expect(try box.succeed("user", "ls").lines == ["No accounts yet; 'boomic user add NAME' makes one."])
        #expect(try !Accounts(folder: box.library).authenticator().hasAccounts)
    }

    /// Accounts are not the library's facts: `undo` leaves them, `export` does not carry them,
    /// `backup` copies them beside FILE, as a pair that logs in once restored.
    @Test func undoAndExportLeaveAccountsAndBackupCopiesThem() throws {
        let box = try Sandbox(samples: false)
        try box.succeed("init")
        try box.succeed("taglist", "add", "mix", "+#jazz")
        // Without accounts, a backup writes no account files.
        try box.succeed("backup", box.root + "/empty.sqlite")
        #expect(!FileManager.default.fileExists(atPath: box.root + "/empty.sqlite.users.json"))

        try box.boomic(["user", "add", "anna"], input: "sesame\n").expectSuccess()
        let users = Self.bytes(box.library + "/users.json")
        try box.succeed("undo")
        #expect(Self.bytes(box.library + "/users.json") == users)
        let export = try box.succeed("export")
        #expect(!export.stdout.contains("anna") && !export.stdout.contains("users"))

        let target = box.root + "/b.sqlite"
        let backup = try box.succeed("backup", target)
        #expect(backup.lines.count == 2 && backup.lines[1].contains(target + ".users.json"), "\(backup)")
        #expect(try Self.mode(target + ".users.json") == 0o600 && Self.mode(target + ".users.key") == 0o600)
        #expect(Self.bytes(target + ".users.key") == Self.bytes(box.library + "/users.key"))
        // A second backup to the same name needs --force, for the account files too.
        try FileManager.default.removeItem(atPath: target)
        let again = try box.boomic("backup", target)
        #expect(again.status == 1 && again.stderr.contains(target + ".users.json already exists"), "\(again)")
        try box.succeed("backup", "--force", target)

        // Restored under the library's names, the copies log in.
        let restored = box.root + "/restored"
        try FileManager.default.createDirectory(atPath: restored, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: target + ".users.json", toPath: restored + "/users.json")
        try FileManager.default.copyItem(atPath: target + ".users.key", toPath: restored + "/users.key")
        #expect(try Accounts(folder: restored).authenticator().authenticate(user: "anna", password: "sesame").get().name == "anna")

        // With every account gone, --force removes the old copies: a restore brings back none.
        try box.succeed("user", "rm", "anna")
        try box.succeed("backup", "--force", target)
        #expect(!FileManager.default.fileExists(atPath: target + ".users.json"))
        #expect(!FileManager.default.fileExists(atPath: target + ".users.key"))
    }
}

extension ProcessRun {
    func expectSuccess(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(succeeded && stderr.isEmpty, "\(self)", sourceLocation: sourceLocation)
    }
}

extension Sandbox {
    /// `boomic --library LIBRARY ARGS…` with `input` on its standard input (a file, not a
    /// terminal, as in a script).
    func boomic(_ arguments: [String], input: String) throws -> ProcessRun {
        let base = root + "/run-" + UUID().uuidString
        try Data(input.utf8).write(to: URL(fileURLWithPath: base + ".in"))
        _ = FileManager.default.createFile(atPath: base + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: base + ".err", contents: nil)
        defer { for s in [".in", ".out", ".err"] { try? FileManager.default.removeItem(atPath: base + s) } }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--library", library] + arguments
        process.environment = ChildProcess.environment(["XDG_DATA_HOME": root + "/xdg"])
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        process.standardInput = FileHandle(forReadingAtPath: base + ".in")
        process.standardOutput = FileHandle(forWritingAtPath: base + ".out")
        process.standardError = FileHandle(forWritingAtPath: base + ".err")
        try process.run()
        process.waitUntilExit()
        return ProcessRun(
            arguments: ["boomic"] + arguments, status: process.terminationStatus,
            signaled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: Self.read(base + ".out"), as: UTF8.self),
            stderr: String(decoding: Self.read(base + ".err"), as: UTF8.self))
    }

    private static func read(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }
}
