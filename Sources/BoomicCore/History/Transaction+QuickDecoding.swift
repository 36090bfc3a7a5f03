import Foundation

/// The log's rows read without Codable: `diff`, `--as-of`, rollback and undo read thousands of
/// rows, and `JSONDecoder` spends most of each in Codable's generic machinery.
///
/// The quick path reads the shapes the log is made of (a transaction; add, update and delete
/// assertions; songs in the current spelling) exactly as the `Codable` conformances do, and hands
/// the rest to `JSONDecoder`: a taglist, playlist, EQ or annotation assertion is decoded from its
/// own bytes, and a body it does not read the same way (an old spelling, a duplicate key, a
/// number `JSONDecoder` might take another way, anything malformed) makes it give up, so the
/// caller decodes the whole body with `JSONDecoder`, whose result and error are the reference.
/// Law (`QuickDecodingLawTests`): on every body, random and damaged, the quick result is nil or
/// equal, byte for byte once encoded, to `JSONDecoder`'s.
extension Transaction {
    /// The transaction in `body`, or nil when the quick path cannot vouch for reading it as
    /// `JSONDecoder` would.
    public static func quickly(from body: UnsafeRawBufferPointer) -> Transaction? {
        var c = JSONCursor(body)
        do {
            let t = try read(&c)
            try c.end()
            return t
        } catch {
            return nil
        }
    }

    private static func read(_ c: inout JSONCursor) throws(JSONCursor.Miss) -> Transaction {
        var id: UUID?, parent: UUID?, timestamp: Double?, kind: String?, label: String?
        var provenance = Provenance(), assertions: [Assertion]?, undoes: [UUID]?, redoes: UUID?
        var seen = Seen()
        try c.object { (c: inout JSONCursor, key) throws(JSONCursor.Miss) in
            switch key {
            case _ where key.is("id"): try seen.first(0); id = try c.uuid()
            case _ where key.is("parent"): try seen.first(1); parent = c.null() ? nil : try c.uuid()
            case _ where key.is("timestamp"): try seen.first(2); timestamp = try c.double()
            case _ where key.is("kind"): try seen.first(3); kind = try c.string()
            case _ where key.is("label"): try seen.first(4); label = try c.string()
            case _ where key.is("provenance"):
                try seen.first(5)
                if !c.null() { provenance = try readProvenance(&c) }
            case _ where key.is("assertions"):
                try seen.first(6)
                var out: [Assertion] = []
                try c.array { (c: inout JSONCursor) throws(JSONCursor.Miss) in out.append(try readAssertion(&c)) }
                assertions = out
            case _ where key.is("undoes"):
                try seen.first(7)
                if !c.null() {
                    var out: [UUID] = []
                    try c.array { (c: inout JSONCursor) throws(JSONCursor.Miss) in out.append(try c.uuid()) }
                    undoes = out
                }
            case _ where key.is("redoes"): try seen.first(8); redoes = c.null() ? nil : try c.uuid()
            default: try c.skip()
            }
        }
        guard let id, let timestamp, let kind, let label, let assertions else { throw JSONCursor.Miss() }
        return Transaction(id: id, parent: parent, timestamp: timestamp, kind: Kind(rawValue: kind), label: label,
                           provenance: provenance, assertions: assertions, undoes: undoes, redoes: redoes)
    }

    private static func readProvenance(_ c: inout JSONCursor) throws(JSONCursor.Miss) -> Provenance {
        var p = Provenance()
        var seen = Seen()
        try c.object { (c: inout JSONCursor, key) throws(JSONCursor.Miss) in
            func text(_ bit: Int) throws(JSONCursor.Miss) -> String? {
                try seen.first(bit)
                return c.null() ? nil : try c.string()
            }
            switch key {
            case _ where key.is("command"): p.command = try text(0)
            case _ where key.is("message"): p.message = try text(1)
            case _ where key.is("version"): p.version = try text(2)
            case _ where key.is("user"): p.user = try text(3)
            case _ where key.is("client"): p.client = try text(4)
            default: try c.skip()
            }
        }
        return p
    }

    /// One assertion: a song's add, update or delete read here; the list kinds decoded from
    /// their own bytes by `JSONDecoder`, as they are few and small.
    private static func readAssertion(_ c: inout JSONCursor) throws(JSONCursor.Miss) -> Assertion {
        guard c.next() == UInt8(ascii: "{") else { throw JSONCursor.Miss() }
        let start = c.at
        var out: Assertion?
        var elsewhere = false
        try c.object { (c: inout JSONCursor, key) throws(JSONCursor.Miss) in
            // One key per assertion: with several, which one `Assertion.init(from:)` takes is
            // its order of tries, not the quick path's business.
            guard out == nil, !elsewhere else { throw JSONCursor.Miss() }
            switch key {
            case _ where key.is("add"): out = .addSong(try readSong(&c))
            case _ where key.is("delete"): out = .deleteSong(try readSong(&c))
            case _ where key.is("update"): out = try readUpdate(&c)
            default:
                try c.skip()
                elsewhere = true
            }
        }
        if let out { return out }
        guard elsewhere else { throw JSONCursor.Miss() }
        let data = Data(c.bytes(from: start))
        guard let a = try? JSONDecoder().decode(Assertion.self, from: data) else { throw JSONCursor.Miss() }
        return a
    }

    private static func readUpdate(_ c: inout JSONCursor) throws(JSONCursor.Miss) -> Assertion {
        var id: SongID?, patch: SongPatch?
        var seen = Seen()
        try c.object { (c: inout JSONCursor, key) throws(JSONCursor.Miss) in
            switch key {
            case _ where key.is("id"): try seen.first(0); id = SongID(try c.uuid())
            case _ where key.is("fields"):
                try seen.first(1)
                var p: SongPatch = [:]
                try c.object { (c: inout JSONCursor, name) throws(JSONCursor.Miss) in
                    guard let field = SongField.byLogName[String(decoding: name, as: UTF8.self)], p[field] == nil else {
                        throw JSONCursor.Miss()
                    }
                    p[field] = try readChange(&c, field)
                }
                patch = p
            default: try c.skip()
            }
        }
        guard let id, let patch else { throw JSONCursor.Miss() }
        return .updateSong(id, patch)
    }

    /// `{"new": …, "old": …}`, both required, each normalised for its field as `Assertion`'s
    /// decoding does.
    private static func readChange(_ c: inout JSONCursor, _ field: SongField) throws(JSONCursor.Miss) -> FieldChange {
        var old: FieldValue?, new: FieldValue?
        try c.object { (c: inout JSONCursor, key) throws(JSONCursor.Miss) in
            switch key {
            case _ where key.is("old"): guard old == nil else { throw JSONCursor.Miss() }; old = try readValue(&c)
            case _ where key.is("new"): guard new == nil else { throw JSONCursor.Miss() }; new = try readValue(&c)
            default: try c.skip()
            }
        }
        guard let old, let new else { throw JSONCursor.Miss() }
        return FieldChange(old: field.normalize(old), new: field.normalize(new))
    }

    /// A `FieldValue` as its `init(from:)` reads one: null, text, a whole number, a list of
    /// texts, a number with a fraction, or a flag.
    static func readValue(_ c: inout JSONCursor) throws(JSONCursor.Miss) -> FieldValue {
        switch c.next() {
        case UInt8(ascii: "\""): return .string(try c.string())
        case UInt8(ascii: "["): return .strings(try c.strings())
        case UInt8(ascii: "n"): guard c.null() else { throw JSONCursor.Miss() }; return .null
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try c.bool())
        default:
            switch try c.number() {
            case .int(let i): return .int(i)
            case .double(let d): return .double(d)
            }
        }
    }

    /// A song in the log's current spelling (a row without `file_values` is an older one: a miss).
    private static func readSong(_ c: inout JSONCursor) throws(JSONCursor.Miss) -> Song {
        let table = SongField.table
        var values = [FieldValue?](repeating: nil, count: table.count)
        var id: SongID?
        try c.object { (c: inout JSONCursor, key) throws(JSONCursor.Miss) in
            if key.is("id") {
                guard id == nil else { throw JSONCursor.Miss() }
                id = SongID(try c.uuid())
            } else if let field = SongField.byLogName[String(decoding: key, as: UTF8.self)] {
                let k = field.ordinal
                guard values[k] == nil else { throw JSONCursor.Miss() }
                if c.null() {
                    values[k] = .null
                    return
                }
                // Read as the field's type, as `decodeFields` asks the container for it.
                switch table[k].access {
                case .text: values[k] = .string(try c.string())
                case .number: values[k] = .int(try c.int())
                case .decimal: values[k] = .double(try c.double())
                case .flag: values[k] = .bool(try c.bool())
                case .list: values[k] = .strings(try c.strings())
                }
            } else {
                try c.skip()
            }
        }
        guard let id, values[SongField.fileValues.ordinal] != nil else { throw JSONCursor.Miss() }
        var song = Song(id: id, path: "")
        // Every field set in the table's order, absent ones too, as `decodeFields` does; a
        // field always written may be neither absent nor null.
        for (spec, value) in zip(table, values) {
            if spec.log == .always && (value ?? .null) == .null { throw JSONCursor.Miss() }
            switch (spec.access, value ?? .null) {
            case (.text(_, let set), .string(let s)): set(&song, s)
            case (.text(_, let set), _): set(&song, nil)
            case (.number(_, let set, _), .int(let i)): set(&song, i)
            case (.number(_, let set, _), _): set(&song, nil)
            case (.decimal(_, let set, _), .double(let d)): set(&song, d)
            case (.decimal(_, let set, _), _): set(&song, nil)
            case (.flag(_, let set), .bool(let b)): set(&song, b)
            case (.flag(_, let set), _): set(&song, false)
            case (.list(_, let set), .strings(let xs)): set(&song, xs)
            case (.list(_, let set), _): set(&song, [])
            }
        }
        return song
    }

    /// Which keys of an object were met, to give up on a duplicate (`JSONDecoder` keeps one of
    /// them, and which is its business).
    private struct Seen {
        var bits: UInt32 = 0
        mutating func first(_ bit: Int) throws(JSONCursor.Miss) {
            guard bits & (1 << bit) == 0 else { throw JSONCursor.Miss() }
            bits |= 1 << bit
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The bytes are `name`'s UTF-8.
    fileprivate func `is`(_ name: StaticString) -> Bool {
        guard count == name.utf8CodeUnitCount else { return false }
        return memcmp(baseAddress!, name.utf8Start, count) == 0
    }
}

extension SongField {
    /// Fields by the name the log spells them with (their raw value).
    static let byLogName: [String: SongField] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
}
