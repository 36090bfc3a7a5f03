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
}
