import Foundation
import Testing

/// Where Boomic follows beets, through the binary (issue 9, item 2.14): the user's own fields
/// (`modify mood=happy`) and bitrate in bit/s.
@Suite struct UserFieldCommandTests {
    /// `ls --json` objects as dictionaries, so that keys no record type knows can be read.
    static func objects(_ box: Sandbox, _ query: String...) throws -> [[String: Any]] {
        let text = try box.listing(query)
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func modifyCreatesAFieldThatQueriesJSONAndInfoSee() throws {
        let box = try Sandbox()
        try box.importSamples()
        let before = try box.historyCount()
        let preview = try box.succeed("modify", "artist:Miles", "mood=happy", "--dry-run")
        #expect(preview.stdout.contains("New field 'mood'"), "the preview says a field is created: \(preview)")
        // The change as the user wrote it, not the stored `name=value` list.
        #expect(preview.stdout.contains("    mood: ∅ → happy") && !preview.stdout.contains("user_fields"), "\(preview)")
        #expect(try box.historyCount() == before)

        try box.succeed("modify", "artist:Miles", "mood=happy", "-y")
        let happy = try Self.objects(box, "mood:happy")
        let miles = try box.songs("artist:Miles")
        #expect(!happy.isEmpty && happy.count == miles.count)
        #expect(happy.allSatisfy { $0["mood"] as? String == "happy" }, "--json has the field as a key")
        #expect(try Self.objects(box, "^mood:happy").allSatisfy { $0["mood"] == nil })
        #expect(try box.songs("mood:=~HAPPY").count == miles.count)
        let info = try box.succeed("info", "mood:happy")
        #expect(info.stdout.split(separator: "\n").contains { $0.hasPrefix("  mood ") && $0.hasSuffix(" happy") }, "\(info)")

        // Sorting by it: songs without it first, ascending.
        let sorted = try box.songs("mood+")
        #expect(sorted.suffix(miles.count).map(\.id).sorted() == miles.map(\.id).sorted())

        // Never in the files: there is nothing to write.
        #expect(try box.succeed("write").stdout == "Every file already holds the library's tags.\n")
        // A rescan keeps it.
        _ = try box.succeed("import")
        #expect(try box.songs("mood:happy").count == miles.count)
        // Undo takes it away, and with it the field.
        try box.succeed("undo", "-y")
        #expect(try box.boomic("ls", "mood:happy").status == 1, "no song has 'mood' any more")
    }

    @Test func aNameCloseToAKnownFieldNeedsNewField() throws {
        let box = try Sandbox()
        try box.importSamples()
        let listed = try box.listing()
        let refused = try box.boomic("modify", "artist:Miles", "yeer=1969", "-y")
        #expect(refused.status == 1 && refused.errorLines.count == 1, "\(refused)")
        #expect(refused.stderr.contains("'year'") && refused.stderr.contains("--new-field"), "\(refused)")
        #expect(try box.listing() == listed)

        try box.succeed("modify", "artist:Miles", "yeer=1969", "--new-field", "-y")
        #expect(try Self.objects(box, "yeer:1969").allSatisfy { $0["yeer"] as? String == "1969" })
        // Once it exists it is a known field: setting it again needs no flag.
        try box.succeed("modify", "yeer:1969", "yeer=1970", "-y")
        #expect(try box.songs("yeer:1970").count == box.songs("artist:Miles").count)
    }

    @Test func bitrateIsBitsPerSecondInJSONAndQueriesAndKbpsInText() throws {
        let box = try Sandbox()
        try box.importSamples()
        let songs = try box.songs()
        let rates = songs.compactMap(\.bitrate)
        #expect(!rates.isEmpty && rates.allSatisfy { $0 >= 8_000 && $0 % 1000 == 0 }, "bit/s, as beets stores it: \(rates)")
        let top = try #require(rates.max())
        #expect(try box.songs("bitrate:\(top)").count == rates.filter { $0 == top }.count)
        #expect(try box.songs("bitrate:\(top / 1000)k..").count == rates.filter { $0 == top }.count)
        #expect(try box.songs("bitrate:\(top / 1000)").isEmpty, "a bare number is bit/s")
        let text = try box.succeed("ls", "bitrate:\(top)", "-f", "$bitrate")
        #expect(text.stdout.split(separator: "\n").allSatisfy { $0 == "\(top / 1000)kbps" }, "\(text)")
    }
}
