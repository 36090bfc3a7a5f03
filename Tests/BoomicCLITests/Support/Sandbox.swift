import BoomicTestSupport
import Foundation
import Testing

/// A temporary folder for one test: its own library (`--library`), its own XDG data folder (so
/// nothing ever falls back to the real `~/.local/share/boomic`) and, when asked, its own copy of
/// `Samples/` that the test may move, rewrite and delete. Removed when the value goes away.
final class Sandbox: Sendable {
    let root: String
    let library: String
    /// The copy of `Samples/` (only filled when made with `samples: true`).
    let music: String
    let executable: String
    let hasBrokenFiles: Bool

    /// - Parameters:
    ///   - samples: copy `Samples/` to `music`.
    ///   - brokenFiles: keep `Samples/Broken/` in the copy; most tests want a clean stderr.
    ///   - untidy: keep `Samples/Untidy/` (disc folders, an untagged rip), whose guesses add a
    ///     transaction to the import's.
    ///   - cueImage: keep `Samples/CUE Image/` (one file, three songs: not in the per-file
    ///     manifest, which most tests count the library by).
    ///   - parent: the folder to make the sandbox in (ending in `/`); the system's temporary one by default.
    init(samples: Bool = true, brokenFiles: Bool = false, untidy: Bool = false, cueImage: Bool = false,
         in parent: String = NSTemporaryDirectory(), _ label: String = #function) throws {
        executable = try BoomicExecutable.require()
        hasBrokenFiles = samples && brokenFiles
        let name = label.filter { $0.isLetter || $0.isNumber }
        root = parent + "boomic-cli-\(name)-\(UUID().uuidString.prefix(8))"
        library = root + "/library"
        music = root + "/music"
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/xdg", withIntermediateDirectories: true)
        if samples {
            try fm.copyItem(atPath: Repo.samples, toPath: music)
            if !brokenFiles { try fm.removeItem(atPath: music + "/Broken") }
            if !untidy { try fm.removeItem(atPath: music + "/" + ManifestEntry.untidyFolder) }
            if !cueImage { try fm.removeItem(atPath: music + "/" + Repo.cueImageFolder) }
        }
    }

    /// A sandbox over a copy (`cp -a`) of `template`'s library, whose music folder is
    /// `template`'s own: for tests that each start from one library, built once per process
    /// (`forProcess`), and change only their copy of it, never the music files the copies share.
    init(copying template: Sandbox, _ label: String = #function) throws {
        executable = template.executable
        hasBrokenFiles = template.hasBrokenFiles
        let name = label.filter { $0.isLetter || $0.isNumber }
        root = NSTemporaryDirectory() + "boomic-cli-\(name)-\(UUID().uuidString.prefix(8))"
        library = root + "/library"
        music = template.music
        try FileManager.default.createDirectory(atPath: root + "/xdg", withIntermediateDirectories: true)
        try Fault.copy(template.library, to: library)
    }

    /// A sandbox for the test process's whole life (a `static let`'s, never deinitialized),
    /// removed when the process exits: the template of `init(copying:)`.
    static func forProcess(samples: Bool = true, _ label: String = #function) throws -> Sandbox {
        try Sandbox(samples: samples, in: TempDir.forProcess("boomic-cli-templates").path + "/", label)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    // MARK: Running boomic

    /// `boomic --library LIBRARY ARGS…`
    func boomic(_ arguments: [String], environment: [String: String?] = [:]) throws -> ProcessRun {
        try bare(["--library", library] + arguments, environment: environment)
    }

    func boomic(_ arguments: String...) throws -> ProcessRun { try boomic(arguments) }

    /// `boomic ARGS…` with no `--library`: only the sandbox's XDG folder to fall back on.
    func bare(_ arguments: [String], environment: [String: String?] = [:]) throws -> ProcessRun {
        var env: [String: String?] = ["XDG_DATA_HOME": root + "/xdg"]
        env.merge(environment) { $1 }
        return try ChildProcess.run(executable, arguments, environment: env, directory: root)
    }

    /// Runs `boomic` and records an issue (with the whole run) unless it exits 0 with nothing
    /// on stderr.
    @discardableResult
    func succeed(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessRun {
        try succeed(arguments, sourceLocation: sourceLocation)
    }

    @discardableResult
    func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessRun {
        let run = try boomic(arguments)
        #expect(run.succeeded && run.stderr.isEmpty, "\(run)", sourceLocation: sourceLocation)
        return run
    }

    /// Imports the sample copy (remembering it as the music folder, so that a bare `import`
    /// rescans it); the broken files' warnings are checked in ImportRoundTripTests.
    @discardableResult
    func importSamples(sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessRun {
        let run = try boomic("import", music)
        #expect(run.succeeded && (hasBrokenFiles || run.stderr.isEmpty), "\(run)", sourceLocation: sourceLocation)
        return run
    }

    // MARK: Reading the library back

    /// `ls --json` exactly as printed: undo must give back these very bytes.
    func listing(_ query: [String] = [], asOf: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let run = try boomic(["ls", "--json"] + (asOf.map { ["--as-of", $0] } ?? []) + query)
        try #require(run.succeeded && run.stderr.isEmpty, "\(run)", sourceLocation: sourceLocation)
        return run.stdout
    }

    /// `ls --json`, decoded.
    func songs(_ query: String..., asOf: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> [SongRecord] {
        try SongRecord.decode(listing(query, asOf: asOf, sourceLocation: sourceLocation), sourceLocation: sourceLocation)
    }

    /// The one song a query matches.
    func song(_ query: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> SongRecord {
        let found = try SongRecord.decode(listing(query, sourceLocation: sourceLocation), sourceLocation: sourceLocation)
        try #require(found.count == 1, "\(query) matches \(found.count) songs", sourceLocation: sourceLocation)
        return found[0]
    }

    /// `history --json`, newest first.
    func history(sourceLocation: SourceLocation = #_sourceLocation) throws -> [HistoryRecord] {
        let run = try boomic("history", "--json")
        try #require(run.succeeded && run.stderr.isEmpty, "\(run)", sourceLocation: sourceLocation)
        return try decodeJSON([HistoryRecord].self, run.stdout, sourceLocation: sourceLocation)
    }

    func historyCount(sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        try history(sourceLocation: sourceLocation).count
    }

    // MARK: Files

    /// An absolute path inside the sample copy.
    func file(_ relative: String) -> String { music + "/" + relative }

    /// Rewrites tags of an audio file with mutagen, as another tagger would.
    func retag(_ relative: String, _ tags: [String: String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        // Easy keys where mutagen has them; WAV's ID3 chunk needs frames.
        let script = """
            import json, sys, mutagen
            from mutagen.id3 import TIT2, TCON
            tags = json.loads(sys.argv[2])
            f = mutagen.File(sys.argv[1], easy=True)
            if f.__class__.__name__ == "WAVE":
                frames = {"title": TIT2, "genre": TCON}
                for k, v in tags.items():
                    f.tags.add(frames[k](encoding=3, text=[v]))
            else:
                for k, v in tags.items():
                    f[k] = v
            f.save()
            """
        let json = String(decoding: try JSONSerialization.data(withJSONObject: tags), as: UTF8.self)
        let run = try ChildProcess.run(systemPython, ["-c", script, file(relative), json])
        try #require(run.succeeded, "\(run)", sourceLocation: sourceLocation)
    }
}

/// Decodes JSON, recording the text when it does not parse.
func decodeJSON<T: Decodable>(_ type: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
    do {
        return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    } catch {
        Issue.record("not a JSON \(T.self): \(error)\n\(text.prefix(2000))", sourceLocation: sourceLocation)
        throw error
    }
}
