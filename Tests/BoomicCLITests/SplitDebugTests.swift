import BoomicTestSupport
import Foundation
import Testing

/// `scripts/install` puts the program in place without its debugging information, which goes
/// into a file of its own (`scripts/split-debug`): an installed `boomic` carried 88 MB of
/// symbols and DWARF it never executes (issue 33, item 14).
@Suite struct SplitDebugTests {
    /// The sections that hold debugging information or the full symbol table.
    static func debugSections(_ binary: String) throws -> [String] {
        let run = try ChildProcess.run("/usr/bin/readelf", ["-S", "-W", binary])
        #expect(run.succeeded, "\(run)")
        return run.lines.compactMap { line in
            line.firstMatch(of: /\s(\.debug_\w+|\.symtab)\s/).map { String($0.output.1) }
        }
    }

    static func buildID(_ binary: String) throws -> String? {
        let run = try ChildProcess.run("/usr/bin/readelf", ["-n", binary])
        return run.lines.lazy.compactMap { $0.firstMatch(of: /Build ID: ([0-9a-f]+)/).map { String($0.output.1) } }.first
    }

    @Test func theProgramLosesItsDebugInformationToAFileNamedByItsBuildID() throws {
        let built = try BoomicExecutable.require() + "-ffmpeg"
        try withTemporaryDirectory { dir in
            let binary = dir + "/boomic-ffmpeg", debugDir = dir + "/lib/debug"
            try FileManager.default.copyItem(atPath: built, toPath: binary)
            #expect(try !Self.debugSections(binary).isEmpty, "the debug build has no debugging information to split")
            let id = try #require(try Self.buildID(binary))

            let split = try ChildProcess.run(Repo.root + "/scripts/split-debug", [binary, debugDir])
            #expect(split.succeeded, "\(split)")
            let debugFile = "\(debugDir)/.build-id/\(id.prefix(2))/\(id.dropFirst(2)).debug"
            #expect(split.lines == [debugFile])

            #expect(try Self.debugSections(binary) == [], "debugging information left in the program")
            #expect(try Self.buildID(binary) == id)
            let kept = try Self.debugSections(debugFile)
            #expect(kept.contains(".debug_info") && kept.contains(".symtab"), "\(kept)")
            let size = { (p: String) in (try? FileManager.default.attributesOfItem(atPath: p)[.size] as? Int) ?? 0 }
            #expect(size(binary) < size(built))
            // The two are linked, and the program still runs.
            let link = try ChildProcess.run("/usr/bin/readelf", ["--string-dump=.gnu_debuglink", binary])
            #expect(link.stdout.contains("\(id.dropFirst(2)).debug"), "\(link)")
            let help = try ChildProcess.run(binary, ["--help"])
            #expect(help.succeeded && help.stdout.hasPrefix("usage: boomic-ffmpeg"), "\(help)")
        }
    }

    @Test func aMissingProgramIsOneLineAndNoDebugFile() throws {
        try withTemporaryDirectory { dir in
            let run = try ChildProcess.run(Repo.root + "/scripts/split-debug", [dir + "/nothing", dir + "/debug"])
            #expect(run.status == 66 && run.errorLines == ["split-debug: no such file: \(dir)/nothing"], "\(run)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/debug"))
        }
    }
}
