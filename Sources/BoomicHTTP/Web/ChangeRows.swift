import BoomicCore
import Foundation

/// Assertions as the page shows a diff or a preview: one row per song and field
/// (`song`, `field`, `before` → `after`), as `boomic show` and the previews print them.
enum ChangeRows {
    /// One line of a diff. `op` is `add`, `delete` or `update`; `field` is nil for a whole
    /// song, list or profile added or removed; `before`/`after` are nil where a side has nothing.
    struct Row: Encodable, Sendable, Equatable {
        var op: String
        var entity: String
        var field: String?
        var before: String?
        var after: String?
    }

    /// The rows of at most `limit` assertions, with how many assertions were left out.
    /// `basis` names a song an update touches (an update carries only its fields).
    static func rows(_ assertions: [Assertion], in basis: DataBasis, limit: Int = 500) -> (rows: [Row], more: Int) {
        var out: [Row] = []
        for a in assertions.prefix(limit) {
            switch a {
            case .addSong(let s): out.append(Row(op: "add", entity: name(of: s), field: nil, before: nil, after: s.path))
            case .deleteSong(let s): out.append(Row(op: "delete", entity: name(of: s), field: nil, before: s.path, after: nil))
            case .updateSong(let id, let patch):
                let song = basis[id].map(name(of:)) ?? id.description
                for (field, change) in patch.sorted(by: { $0.key < $1.key }) where !bookkeeping.contains(field) {
                    if field == .userFields {
                        out += userFieldRows(song, change.old, change.new)
                    } else {
                        out.append(Row(op: "update", entity: song, field: field.name,
                                       before: shown(change.old, field), after: shown(change.new, field)))
                    }
                }
            case .taglist(_, let c):
                out += entityRows("taglist", field: "rules", c) { $0.arguments.joined(separator: " ") }
            case .playlist(_, let c):
                out += entityRows("playlist", field: "songs", c) { "\($0.songs.count) songs" }
            case .eqProfile(_, let c):
                out += entityRows("EQ profile", field: "profile", c) { $0.spec.summary }
            case .annotation(let key, let c):
                func starred(_ a: Annotation?) -> String? { a?.starred.map(iso) }
                func rating(_ a: Annotation?) -> String? { a?.rating.map(String.init) }
                let op = c.old == nil ? "add" : c.new == nil ? "delete" : "update"
                if starred(c.old) != starred(c.new) {
                    out.append(Row(op: op, entity: key.description, field: "starred", before: starred(c.old), after: starred(c.new)))
                }
                if rating(c.old) != rating(c.new) {
                    out.append(Row(op: op, entity: key.description, field: "rating", before: rating(c.old), after: rating(c.new)))
                }
            }
        }
        return (out, max(0, assertions.count - limit))
    }

    /// Fields the library keeps for itself (`file_values`: what a file held before an edit).
    static let bookkeeping: Set<SongField> = [.fileValues]

    /// A song as people read it: artist - album - title, leaving out what it lacks; a song
    /// without tags by its file name.
    static func name(of s: Song) -> String {
        [s.artist ?? "", s.album ?? "", s.title ?? (s.path.split(separator: "/").last.map(String.init) ?? s.path)]
            .filter { !$0.isEmpty }.joined(separator: " - ")
    }

    /// A value as text; nil for no value. A moment (`lastplayed`, `added`) as an ISO date.
    static func shown(_ v: FieldValue, _ f: SongField) -> String? {
        if v.isNull { return nil }
        if f.isDate, let t = v.double { return iso(t) }
        return v.shown(as: f)
    }

    static func iso(_ t: Double) -> String {
        Date(timeIntervalSince1970: t).formatted(.iso8601)
    }

    /// A user field's change by name (`mood: ∅ → happy`), not the stored `name=value` list.
    static func userFieldRows(_ song: String, _ old: FieldValue, _ new: FieldValue) -> [Row] {
        func map(_ v: FieldValue) -> [String: String] {
            guard case .strings(let entries) = v else { return [:] }
            var out: [String: String] = [:]
            for e in entries {
                guard let eq = e.firstIndex(of: "=") else { continue }
                out[String(e[..<eq])] = String(e[e.index(after: eq)...])
            }
            return out
        }
        let (was, now) = (map(old), map(new))
        return Set(was.keys).union(now.keys).sorted().filter { was[$0] != now[$0] }.map {
            Row(op: "update", entity: song, field: $0, before: was[$0], after: now[$0])
        }
    }

    /// A list or profile added, removed or changed: its name, and what `body` says of it as `field`.
    static func entityRows<V: NamedList>(_ kind: String, field: String, _ c: EntityChange<V>, body: (V) -> String) -> [Row] {
        switch (c.old, c.new) {
        case (nil, let new?): return [Row(op: "add", entity: "\(kind) \(new.name)", field: nil, before: nil, after: body(new))]
        case (let old?, nil): return [Row(op: "delete", entity: "\(kind) \(old.name)", field: nil, before: body(old), after: nil)]
        case (let old?, let new?):
            var out: [Row] = []
            if old.name != new.name { out.append(Row(op: "update", entity: "\(kind) \(old.name)", field: "name", before: old.name, after: new.name)) }
            if body(old) != body(new) { out.append(Row(op: "update", entity: "\(kind) \(new.name)", field: field, before: body(old), after: body(new))) }
            return out
        case (nil, nil): return []
        }
    }
}
