import BoomicTestSupport
import Foundation
import Testing

/// `boomic eq`: profiles kept in the library with history — saved from bands or an AutoEq file
/// (which may then go), listed and shown, used by `play --eq NAME` exactly as the same spec
/// inline, removed and brought back by undo, seen as they were with --as-of.
@Suite struct EQCommandTests {
    @Test func profilesAreLibraryEntitiesWithHistory() throws {
        let box = try Sandbox(samples: false)
        _ = try PlayCommandTests.toneAlbum(box, seconds: 2.5)
        try box.succeed("eq", "save", "Warm", "60=+4,150=+2,15k=-3")
        let autoEq = box.root + "/headphones.txt"
        try "Preamp: -4.5 dB\nFilter 1: ON PK Fc 105 Hz Gain 3.5 dB Q 0.7\nFilter 2: ON HSC Fc 8000 Hz Gain -2 dB Q 0.7\n"
            .write(toFile: autoEq, atomically: true, encoding: .utf8)
        try box.succeed("eq", "save", "HD 600", autoEq)
        try FileManager.default.removeItem(atPath: autoEq)   // the profile holds the spec itself

        let ls = try box.succeed("eq", "ls").lines
        #expect(ls.first?.hasPrefix("HD 600") == true && ls.dropFirst().first?.hasPrefix("Warm") == true, "\(ls)")
        #expect(ls.contains { $0.hasPrefix("rock") }, "presets are listed too")
        let json = try box.succeed("eq", "ls", "--json").stdout
        #expect(json.contains("\"name\":\"HD 600\"") && json.contains("\"kind\":\"parametric\""), "\(json)")
        let show = try box.succeed("eq", "show", "warm").stdout
        #expect(show.contains("sliders: 60=+4 150=+2") && show.contains("15k=-3") && show.contains("response at the centres: 60 +4, 150 +2"), "\(show)")

        // A preset's name is refused; an unknown profile is one line, exit 1.
        let preset = try box.boomic("eq", "save", "Rock", "60=+1")
        #expect(preset.status == 1 && preset.errorLines.count == 1, "\(preset)")
        let unknown = try box.boomic("eq", "show", "Nope")
        #expect(unknown.status == 1 && unknown.errorLines.count == 1, "\(unknown)")
        let unknownPlay = try box.boomic("play", "--output", "null", "--eq", "Nope")
        #expect(unknownPlay.status == 1 && unknownPlay.errorLines.count == 1, "\(unknownPlay)")

        // --eq NAME plays exactly as the same spec given inline.
        let byName = box.root + "/by-name.wav", inline = box.root + "/inline.wav"
        try box.succeed("play", "--no-record", "--output", "wav:" + byName, "--eq", "warm")
        try box.succeed("play", "--no-record", "--output", "wav:" + inline, "--eq", "60=+4,150=+2,15k=-3")
        let a = try PlayCommandTests.wavData(byName), b = try PlayCommandTests.wavData(inline)
        #expect(!a.isEmpty && a == b, "a saved profile plays differently from its spec inline")

        // History: each save and the removal are transactions; undo brings a profile back.
        let saved = try box.succeed("history").stdout
        #expect(saved.contains("eq save Warm") && saved.contains("eq save HD 600"), "\(saved)")
        try box.succeed("eq", "rm", "warm")
        #expect(!(try box.succeed("eq", "ls").stdout.contains("Warm")))
        #expect(try box.succeed("eq", "ls", "--as-of", "HEAD~1").stdout.contains("Warm"), "--as-of sees it as it was")
        try box.succeed("undo", "-y")
        #expect(try box.succeed("eq", "show", "Warm").stdout.contains("60=+4"))
        // Saving over a profile changes it (a new transaction); saving the same is nothing.
        try box.succeed("eq", "save", "warm", "60=+6")
        #expect(try box.succeed("eq", "show", "Warm").stdout.contains("60=+6"))
        #expect(try box.succeed("eq", "save", "warm", "60=+6").stdout.contains("nothing changed"))
    }
}
