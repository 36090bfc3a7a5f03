import BoomicCore
import BoomicLibrary
import Foundation
import Testing

/// The field table reaches the command line: a song with every field of `SongField.table` set
/// shows each under its name in `ls --json` (but the ones the table hides there) and renders
/// each as `$name` in an `ls -f` template. A field missing from either fails here, named.
@Suite struct FieldTableCommandTests {
    /// A value of each field's type, set as `modify` and the log set it.
    static func everyField() -> Song {
        var song = Song(id: SongID(UUID()), path: "/nowhere/every field.flac")
        for spec in SongField.table where spec.field != .path {
            let value: FieldValue = switch spec.kind {
            case .string: .string("V-" + spec.name)
            case .int: .int(7)
            case .double: .double(86_400 * 365.5)
            case .bool: .bool(true)
            case .strings:
                switch spec.listForm {
                case .tags: .strings(["jazz"])
                case .userFields: .strings(["mood=happy"])
                case .stickers: .strings(["playCount=3"])
                case .names: .strings(["title"])
                case .sorted: .strings(["genre=\"Jazz\""])
                case .plain, nil: .strings(["V-" + spec.name])
                }
            }
            spec.field.set(value, in: &song)
        }
        return song
    }

    @Test func everyFieldShowsInJSONAndFormats() throws {
        let box = try Sandbox(samples: false)
        let song = Self.everyField()
        let t = Transaction(id: UUID(), parent: nil, timestamp: 1_795_392_887, kind: .import, label: "import (1 song)",
                            assertions: [.addSong(song)])
        let line = String(decoding: try ExportFormat.encoder().encode(ExportFormat.Line(seq: 1, transaction: t)), as: UTF8.self)
        try box.succeed("import-json", try box.exportFile("every.jsonl", [line]))

        let json = try box.succeed("ls", "--json").stdout
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let object = try #require(objects.first)
        for spec in SongField.table {
            switch spec.json {
            case .hidden: #expect(object[spec.name] == nil, "\(spec.name) is hidden in --json")
            case .topLevelKeys: #expect(object["mood"] as? String == "happy", "\(spec.name): a key each")
            default: #expect(object[spec.name] != nil, "--json shows \(spec.name)")
            }
        }

        let names = SongField.table.filter { $0.field != .userFields }.map(\.name)
        let rendered = try box.succeed("ls", "-f", names.map { "$" + $0 }.joined(separator: "|")).lines
        let pieces = try #require(rendered.first).split(separator: "|", omittingEmptySubsequences: false)
        #expect(pieces.count == names.count)
        for (name, piece) in zip(names, pieces) { #expect(!piece.isEmpty, "-f renders $\(name)") }
    }
}
