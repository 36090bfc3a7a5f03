import BoomicCore
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicLibrary

/// The field table (`SongField.table`) is the one place a field is declared: walking it, every
/// field goes through `SongField`'s reads and writes, the checkpoint, the log's rows, a query
/// and a sort by its name. A field missing from any of them fails here, named. (`--json` and
/// `-f` formats: `FieldTableCommandTests`; MPD's tags: `MPDTagTableTests`.)
@Suite struct FieldTableTests {
    static let bare = Song(id: SongID(UUID(uuidString: "4beb7997-c399-4f68-a3ae-4262a693e293")!), path: "/music/a.flac")

    /// A value of the field's type, the same for every run, different from the default; and a
    /// query term that finds it by the field's name.
    static func sample(_ spec: SongFieldSpec) -> (value: FieldValue, term: String) {
        let name = spec.name
        switch spec.kind {
        case .string: return (.string("V-" + name), name + ":=V-" + name)
        case .int: return (.int(7), name + ":" + (spec.json == .bitsPerSecond ? "7000" : "7"))
        case .double:
            return spec.isDate ? (.double(86_400 * 365.5), name + ":1971") : (.double(2.5), name + ":2.5")
        case .bool: return (.bool(true), name + ":true")
        case .strings:
            switch spec.listForm {
            case .tags: return (.strings(["jazz"]), "#jazz")
            case .userFields: return (.strings(["mood=happy"]), "mood:happy")
            case .stickers: return (.strings(["playCount=3"]), name + ":playCount")
            case .names: return (.strings(["title"]), name + ":title")
            case .sorted: return (.strings(["genre=\"Jazz\""]), name + ":genre")
            case .plain, nil: return (.strings(["V-" + name]), name + ":V-" + name)
            }
        }
    }

    /// The table is in `SongField`'s order (`spec` is an index), names each field once, gives
    /// each checkpoint bit once, and the codec's slots are exactly its bits.
    @Test func tableIsInFieldOrderAndBitsAreUnique() {
        #expect(SongField.table.map(\.field) == SongField.allCases)
        for (i, f) in SongField.allCases.enumerated() { #expect(f.ordinal == i, "\(f)") }
        let bits = SongField.table.compactMap { spec -> Int? in
            if case .bit(let b, _) = spec.checkpoint { b } else { nil }
        }
        #expect(Set(bits).count == bits.count, "two fields share a checkpoint bit")
        #expect(bits.allSatisfy { (0..<128).contains($0) })
        #expect(SongCodec.slots.map(\.bit) == bits.sorted())
        #expect(SongField.table.filter { $0.checkpoint == .header }.map(\.field) == [.path])
        let names = SongField.table.compactMap(\.mpdTag)
        #expect(Set(names).count == names.count, "two fields claim one MPD tag")
    }

    /// The bits the decoder reads by hand are the table's bits of the fields they name.
    @Test func handReadBitsAreTheTables() {
        for bit in SongCodec.HandBit.allCases {
            let spec = SongField.table.first { String(describing: $0.field) == String(describing: bit) }
            guard case .bit(let b, _)? = spec?.checkpoint else {
                Issue.record("\(bit) names no field with a checkpoint bit")
                continue
            }
            #expect(b == bit.rawValue, "\(bit): the table says bit \(b)")
        }
    }

    /// Where each field comes from, as rescans, `modify` and undo read it: the table's origins
    /// give the sets the field switches gave before it (a cover is the file's, not the library's
    /// own: a rescan refreshes it).
    @Test func originsAreTheSetsRescansUse() {
        #expect(SongField.allCases.filter(\.isFileFact).map(\.name).sorted() == [
            "added", "bitdepth", "bitrate", "channels", "duration", "end", "file_values", "fingerprint", "format",
            "missing", "mtime", "path", "samplerate", "sheet", "size", "start"])
        #expect(SongField.allCases.filter(\.isLibraryOnly).map(\.name).sorted() == [
            "bookmark", "bookmark_speed", "favorite", "guessed", "lastplayed", "playcount", "rating", "skipcount",
            "stickers", "tags", "user_fields"])
        #expect(SongField.playFields.map(\.name) == ["playcount", "skipcount", "lastplayed", "bookmark", "bookmark_speed"])
        #expect(SongField.allCases.filter(\.isDate) == [.added, .lastplayed])
        #expect(SongField.art.isTag)
    }

    /// Every field is a stored property of `Song` and every stored property a field.
    @Test func tableCoversEveryStoredProperty() {
        let properties = Set(Song.storedPropertyNames).subtracting(["id"])
        let fields = Set(SongField.table.map { String(describing: $0.field) })
        #expect(properties == fields)
    }

    @Test(arguments: SongField.allCases) func fieldRoundTripsEverywhere(_ field: SongField) throws {
        let spec = field.spec
        let (value, term) = Self.sample(spec)
        var song = Self.bare
        field.set(value, in: &song)
        // SongField's accessors.
        #expect(field.value(in: song) == field.normalize(value), "\(field): set, then read")
        #expect(song != Self.bare, "\(field): setting it changes the song")
        #expect(spec.isSet(in: song) || field == .path)

        // The checkpoint: the value reaches the bytes and comes back.
        let bytes = SongCodec.encode([song])
        #expect(bytes != SongCodec.encode([Self.bare]), "\(field): the checkpoint writes it")
        #expect(try SongCodec.decode(bytes) == [song], "\(field): the checkpoint reads it back")

        // The log's rows: under the field's name, and back.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let row = try encoder.encode(song)
        let object = try #require(try JSONSerialization.jsonObject(with: row) as? [String: Any])
        #expect(object[spec.name] != nil, "\(field): the log writes it as \(spec.name)")
        #expect(try JSONDecoder().decode(Song.self, from: row) == song, "\(field): the log reads it back")

        // A query by its name finds it, and not the song without it; a sort by it parses.
        let user: Set<String> = spec.listForm == .userFields ? ["mood"] : []
        let query = try QueryParser.parse([term], userFields: user).query
        #expect(QueryMatcher(query).matches(song), "\(field): '\(term)' finds it")
        #expect(!QueryMatcher(query).matches(Self.bare), "\(field): '\(term)' finds only it")
        if spec.isSortable {
            #expect(try QueryParser.parse([spec.name + "+"]).sort.map(\.field) == [field], "\(field): sorts by its name")
        }
    }
}
