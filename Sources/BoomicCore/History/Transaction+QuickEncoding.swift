import Foundation

/// The log's rows written without Codable: a rollback or undo of thousands of songs spent a
/// quarter of its time in `JSONEncoder`'s generic machinery.
///
/// Writes exactly the bytes `JSONEncoder` writes with the log's settings (sorted keys, unescaped
/// slashes), following the same `Codable` conformances: a row does not depend on which path
/// wrote it. A taglist, playlist, EQ or annotation assertion is encoded by `JSONEncoder` and its
/// bytes spliced in, as they are few and small. Law (`QuickEncodingLawTests`): equal, byte for
/// byte, to `JSONEncoder`'s on every transaction of the random histories.
extension Transaction {
    /// The body `JSONEncoder` with sorted keys and unescaped slashes would write; nil when a value
    /// is one it refuses (a non-finite number), so that it says why.
    public func encodedQuickly() -> Data? {
        var out = JSONText(capacity: 256 + assertions.count * 160)
        // Keys in sorted order: assertions, id, kind, label, parent, provenance, redoes, timestamp, undoes.
        out.raw(#"{"assertions":["#)
        for (k, a) in assertions.enumerated() {
            if k > 0 { out.raw(",") }
            guard Self.write(a, to: &out) else { return nil }
        }
        out.raw("],")
        out.key("id"); out.string(id.lowercaseText)
        out.raw(","); out.key("kind"); out.string(kind.rawValue)
        out.raw(","); out.key("label"); out.string(label)
        if let parent { out.raw(","); out.key("parent"); out.string(parent.lowercaseText) }
        out.raw(","); out.key("provenance"); Self.write(provenance, to: &out)
        if let redoes { out.raw(","); out.key("redoes"); out.string(redoes.lowercaseText) }
        out.raw(","); out.key("timestamp")
        guard out.double(timestamp) else { return nil }
        if let undoes { out.raw(","); out.key("undoes"); out.strings(undoes.map { $0.lowercaseText }) }
        out.raw("}")
        return Data(out.bytes)
    }

    private static func write(_ p: Provenance, to out: inout JSONText) {
        var first = true
        func field(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            out.raw(first ? "{" : ",")
            first = false
            out.key(name)
            out.string(value)
        }
        field("client", p.client)
        field("command", p.command)
        field("message", p.message)
        field("user", p.user)
        field("version", p.version)
        out.raw(first ? "{}" : "}")
    }

    private static func write(_ a: Assertion, to out: inout JSONText) -> Bool {
        switch a {
        case .addSong(let s):
            out.raw(#"{"add":"#)
            guard write(s, to: &out) else { return false }
        case .deleteSong(let s):
            out.raw(#"{"delete":"#)
            guard write(s, to: &out) else { return false }
        case .updateSong(let id, let patch):
            out.raw(#"{"update":{"fields":{"#)
            for (k, field) in patch.keys.sorted(by: { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }).enumerated() {
                let change = patch[field]!
                if k > 0 { out.raw(",") }
                out.string(field.rawValue)
                out.raw(#":{"new":"#)
                guard write(change.new, to: &out) else { return false }
                out.raw(#","old":"#)
                guard write(change.old, to: &out) else { return false }
                out.raw("}")
            }
            out.raw(#"},"id":"#)
            out.string(id.description)
            out.raw("}")
        case .taglist, .playlist, .eqProfile, .annotation:
            guard let bytes = try? listEncoder.encode(a) else { return false }
            out.raw(bytes)
            return true
        }
        out.raw("}")
        return true
    }

    /// The log's own settings, for the few assertions written by `JSONEncoder`.
    private static let listEncoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    private static func write(_ v: FieldValue, to out: inout JSONText) -> Bool {
        switch v {
        case .null: out.raw("null")
        case .string(let s): out.string(s)
        case .int(let i): out.int(i)
        case .double(let d): return out.double(d)
        case .bool(let b): out.bool(b)
        case .strings(let xs): out.strings(xs)
        }
        return true
    }

    /// A song as `Song.encodeFields` and its id write it, the keys in sorted order.
    private static func write(_ song: Song, to out: inout JSONText) -> Bool {
        var first = true
        for entry in Song.logKeyOrder {
            guard let spec = entry else {
                out.raw(first ? "{" : ","); first = false
                out.key("id"); out.string(song.id.description)
                continue
            }
            let always = spec.log == .always
            func start() {
                out.raw(first ? "{" : ","); first = false
                out.string(spec.name); out.raw(":")
            }
            switch spec.access {
            case .text(let get, _):
                if let v = get(song) { start(); out.string(v) } else if always { start(); out.raw("null") }
            case .number(let get, _, _):
                let v = get(song) ?? 0
                if always || spec.isSet(in: song) { start(); out.int(v) }
            case .decimal(let get, _, let optional):
                if let v = get(song), always || optional || v != 0 {
                    start()
                    guard out.double(v) else { return false }
                }
            case .flag(let get, _):
                if always || get(song) { start(); out.bool(get(song)) }
            case .list(let get, _):
                let v = get(song)
                if always || !v.isEmpty { start(); out.strings(v) }
            }
        }
        out.raw(first ? "{}" : "}")
        return true
    }
}

extension Song {
    /// The log's keys of a song in `JSONEncoder`'s sorted order: a field's entry, nil for `id`.
    static let logKeyOrder: [SongFieldSpec?] = {
        let entries: [(String, SongFieldSpec?)] = SongField.table.map { ($0.name, $0) } + [("id", nil)]
        return entries.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }.map(\.1)
    }()
}
