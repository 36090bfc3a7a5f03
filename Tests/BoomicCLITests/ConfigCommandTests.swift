import BoomicTestSupport
import Foundation
import Testing

/// The player's defaults from `$XDG_CONFIG_HOME/boomic/config.toml`: shown with their source by
/// `boomic config`, used by `play`, overridden by flags; a bad file is one line naming the key.
@Suite struct ConfigCommandTests {
    private func write(_ box: Sandbox, _ text: String) throws -> [String: String?] {
        let dir = box.root + "/config/boomic"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try text.write(toFile: dir + "/config.toml", atomically: true, encoding: .utf8)
        return ["XDG_CONFIG_HOME": box.root + "/config"]
    }

    @Test func settingsComeFromTheFileAndFlagsOverrideThem() throws {
        let box = try Sandbox(samples: false)
        _ = try PlayCommandTests.toneAlbum(box)
        let builtIn = try box.boomic(["config"], environment: ["XDG_CONFIG_HOME": box.root + "/none"])
        #expect(builtIn.succeeded && builtIn.lines.contains { $0.hasPrefix("output") && $0.contains("alsa") && $0.hasSuffix("built in") }, "\(builtIn)")

        let wav = box.root + "/from-config.wav"
        let env = try write(box, "output = \"wav:\(wav)\"\nvolume = 80\nreplaygain = \"album\"\n")
        let shown = try box.boomic(["config"], environment: env)
        let file = box.root + "/config/boomic/config.toml"
        #expect(shown.lines.contains { $0.hasPrefix("volume") && $0.contains("80") && $0.hasSuffix(file) }, "\(shown)")
        #expect(shown.lines.contains { $0.hasPrefix("eq") && $0.hasSuffix("built in") }, "\(shown)")
        let json = try box.boomic(["config", "--json"], environment: env)
        #expect(json.succeeded && json.stdout.contains("\"source\":\"\(file)\""), "\(json)")

        let played = try box.boomic(["play"], environment: env)
        #expect(played.succeeded && FileManager.default.fileExists(atPath: wav), "play did not use the configured output: \(played)")
        try FileManager.default.removeItem(atPath: wav)
        let overridden = try box.boomic(["play", "--output", "null"], environment: env)
        #expect(overridden.succeeded && !FileManager.default.fileExists(atPath: wav), "--output did not override the file: \(overridden)")
    }

    @Test(arguments: [
        ("volume = 300", "volume"), ("outptu = \"null\"", "outptu"), ("output = \"speakers\"", "output"),
        ("replaygain = \"loud\"", "replaygain"), ("preamp = \"-3\"", "preamp"), ("volume = [", "not TOML"),
        ("speed = 3", "speed"),
    ])
    func aBadFileIsOneLineNamingTheKey(_ text: String, _ named: String) throws {
        let box = try Sandbox(samples: false)
        let env = try write(box, text + "\n")
        for arguments in [["config"], ["play", "--output", "null"]] {
            let run = try box.boomic(arguments, environment: env)
            #expect(run.status == 1 && run.errorLines.count == 1 && run.stderr.contains(named) && run.stderr.contains("config.toml"), "\(run)")
        }
    }

    /// A config.toml that is there but cannot be read is one line naming it and a non-zero exit,
    /// never the built-in defaults in silence (issue 33, 12: playback at volume 100 on the
    /// default device). A FIFO is opened without blocking: reading one waited for a writer forever.
    @Test(arguments: ["folder", "fifo", "device", "no permission"])
    func anUnreadableFileIsOneLineNamingIt(_ kind: String) throws {
        if kind == "no permission", getuid() == 0 { return } // root reads a file of mode 000
        let box = try Sandbox(samples: false)
        let env = try write(box, "volume = 20\n")
        let file = box.root + "/config/boomic/config.toml"
        switch kind {
        case "folder":
            try FileManager.default.removeItem(atPath: file)
            try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
        case "fifo":
            try FileManager.default.removeItem(atPath: file)
            try #require(mkfifo(file, 0o644) == 0)
        case "device":
            try FileManager.default.removeItem(atPath: file)
            try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "/dev/null")
        default:
            try #require(chmod(file, 0) == 0)
        }
        for arguments in [["config"], ["play", "--output", "null"]] {
            let run = try box.boomic(arguments, environment: env)
            #expect(!run.signaled && run.status == 1 && run.errorLines.count == 1 && run.stderr.contains(file), "\(kind): \(run)")
        }
    }

    /// A NUL byte ends no parse in silence: the file, its line, and a non-zero exit.
    @Test func aNULByteIsOneLineNamingTheFileAndLine() throws {
        let box = try Sandbox(samples: false)
        let env = try write(box, "output = \"null\"\n\u{0}volume = 300\n")
        for arguments in [["config"], ["play", "--output", "null"]] {
            let run = try box.boomic(arguments, environment: env)
            #expect(run.status == 1 && run.errorLines.count == 1 && run.stderr.contains("config.toml:2:")
                    && run.stderr.contains("NUL"), "\(run)")
        }
    }

    /// A bad `eq` in the file: `boomic config` says so, and `play` names the file, its line and
    /// the key, never a `--eq` that was not given. A saved profile's name is a good `eq`.
    @Test(arguments: ["eq = \"60=+50\"", "eq = \"nosuchprofile\""])
    func aBadEQInTheFileIsNamedWithItsLine(_ setting: String) throws {
        let box = try Sandbox(samples: false)
        _ = try PlayCommandTests.toneAlbum(box)
        let env = try write(box, "volume = 80\n" + setting + "\n")
        for arguments in [["config"], ["play", "--output", "null"]] {
            let run = try box.boomic(arguments, environment: env)
            #expect(run.status == 1 && run.errorLines.count == 1 && run.stderr.contains("config.toml:2: eq ")
                    && !run.stderr.contains("--eq"), "\(run)")
        }
        let saved = try box.boomic(["eq", "save", "mine", "rock"])
        #expect(saved.succeeded, "\(saved)")
        let env2 = try write(box, "eq = \"mine\"\n")
        let shown = try box.boomic(["config"], environment: env2)
        #expect(shown.succeeded && shown.lines.contains { $0.hasPrefix("eq") && $0.contains("mine") }, "\(shown)")
    }

    /// `boomic config` opens the library only to look up an `eq` that names a saved profile: the
    /// settings of a file without one read even when the library is damaged.
    @Test func aDamagedLibraryHidesNoSettingThatNeedsIt() throws {
        let box = try Sandbox(samples: false)
        _ = try PlayCommandTests.toneAlbum(box)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: box.library + "/library.sqlite"))
        try file.seek(toOffset: 100)
        try file.write(contentsOf: Data(repeating: 0xA5, count: 4000))
        try file.close()
        let plain = try box.boomic(["config"], environment: try write(box, "volume = 80\neq = \"rock\"\n"))
        #expect(plain.succeeded && plain.lines.contains { $0.hasPrefix("volume") && $0.contains("80") }, "\(plain)")
        let profile = try box.boomic(["config"], environment: try write(box, "eq = \"mine\"\n"))
        #expect(profile.status == 1 && profile.errorLines.count == 1 && profile.stderr.contains("damaged"), "\(profile)")
    }
}
