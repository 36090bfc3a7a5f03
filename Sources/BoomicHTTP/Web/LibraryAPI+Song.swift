import BoomicCore
import BoomicLibrary
import Foundation

extension LibraryAPI {
    /// One field of a song and its blame: the transaction that set the value it holds now
    /// (`boomic blame`'s walk, `LibrarySession.blame`), with when, what and who.
    struct Field: Encodable, Sendable {
        var field: String
        var value: FieldValue
        /// The value as `boomic show` writes it (`∅`, tags with `#`).
        var shown: String
        /// `date` for seconds since 1970 (`added`, `lastplayed`), else the value's kind.
        var kind: String
        /// `tag`, `file` (a fact of the file) or `library` (the library's own: rating, tags, plays).
        var group: String
        var blame: Origin?
    }

    struct Origin: Encodable, Sendable {
        var seq: Int
        var transaction: String
        var time: Double
        var kind: String
        var label: String
        var user: String?
        var client: String?
        var command: String?
    }

    struct SongDetail: Encodable, Sendable {
        var song: LibraryRows.Song
        var fields: [Field]
    }

    /// `GET api/songs/{id}`: the song and every field it has a value for (its own fields by
    /// name, then each user field), each with its blame.
    static func song(_ call: WebCall) async throws -> WebReply {
        let id = try call.path("id")
        let catalog = await call.catalog()
        guard case .song(let songID)? = CatalogID.parse(id), let song = catalog.basis[songID] else {
            throw WebError.notFound("No song \(brief(id)).")
        }
        let library = call.library
        let fields = try await MediaBlocking.run { () throws -> [Field] in
            try blamedFields(of: song, in: library)
        }
        return .json(SongDetail(song: .init(song, in: catalog), fields: fields))
    }

    /// Every field of `song` with a value, and the transaction behind each (read from the log
    /// backwards until every field is explained).
    static func blamedFields(of song: Song, in library: LibrarySession) throws -> [Field] {
        let shown = SongField.allCases.filter { $0 != .userFields && !isEmpty($0.value(in: song)) }
        let userNames = song.userFieldMap.keys.sorted()
        let (origins, userOrigins) = try library.blame([song.id], fields: SongField.allCases, userFields: userNames)
        var meta: [Int: Origin] = [:]
        func origin(_ found: Blame.Origin?) throws -> Origin? {
            guard let found else { return nil }
            if let known = meta[found.seq] { return known }
            let t = try library.entry(seq: found.seq).transaction
            let made = Origin(seq: found.seq, transaction: t.id.uuidString.lowercased(), time: t.timestamp, kind: t.kind.rawValue,
                              label: t.label, user: t.provenance.user, client: t.provenance.client, command: t.provenance.command)
            meta[found.seq] = made
            return made
        }
        var fields: [Field] = []
        for f in shown {
            let value = f.value(in: song)
            fields.append(Field(field: f.name, value: value, shown: value.shown(as: f), kind: kind(f),
                                group: f.isFileFact ? "file" : f.isLibraryOnly ? "library" : "tag",
                                blame: try origin(origins[song.id]?[f])))
        }
        for name in userNames {
            let value = song.userField(name).map(FieldValue.string) ?? .null
            fields.append(Field(field: name, value: value, shown: value.shown(as: .userFields), kind: "string", group: "user",
                                blame: try origin(userOrigins[song.id]?[name])))
        }
        return fields
    }

    static func isEmpty(_ value: FieldValue) -> Bool {
        switch value {
        case .null, .strings([]), .string(""): true
        default: false
        }
    }

    static func kind(_ field: SongField) -> String {
        if field.isDate { return "date" }
        switch field.kind {
        case .string: return "string"
        case .int: return "int"
        case .double: return "double"
        case .bool: return "bool"
        case .strings: return "strings"
        }
    }
}
