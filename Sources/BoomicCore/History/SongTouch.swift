/// What one assertion of a transaction did to one song, as the song → transactions index keeps
/// it: enough for `blame` to explain every song field without decoding the transaction.
///
/// An add sets every field of the song, a delete ends its history (walking back), an update sets
/// exactly the fields of its patch. The values are not kept: only the user's own fields need them
/// (`Blame.userFieldsSet`), and those few transactions are decoded when asked.
public enum SongTouch: Hashable, Sendable {
    case add
    case delete
    case update(Set<SongField>)

    /// The stored form of one song's touches in one transaction, in the assertions' order:
    /// `add`, `delete` or `update` followed by the fields' log names (`SongField.rawValue`),
    /// sorted; entries separated by `;` (`update genre rating`, `delete;add`).
    public static func stored(_ touches: [SongTouch]) -> String {
        touches.map { t in
            switch t {
            case .add: "add"
            case .delete: "delete"
            case .update(let fields): (["update"] + fields.map(\.rawValue).sorted()).joined(separator: " ")
            }
        }.joined(separator: ";")
    }

    /// Reads `stored(_:)`'s form. A field name this build does not know (written by a newer one)
    /// is left out: no question this build can ask names it. Nil for text that is no such form.
    public static func touches(stored: String) -> [SongTouch]? {
        var out: [SongTouch] = []
        for entry in stored.split(separator: ";", omittingEmptySubsequences: false) {
            let words = entry.split(separator: " ")
            switch words.first {
            case "add" where words.count == 1: out.append(.add)
            case "delete" where words.count == 1: out.append(.delete)
            case "update": out.append(.update(Set(words.dropFirst().compactMap { SongField(rawValue: String($0)) })))
            default: return nil
            }
        }
        return out.isEmpty ? nil : out
    }
}

extension Transaction {
    /// Each song the transaction adds, changes or removes, with what each of its assertions on
    /// that song did, in the order the songs first appear.
    public var songTouches: [(song: SongID, touches: [SongTouch])] {
        var order: [SongID] = []
        var by: [SongID: [SongTouch]] = [:]
        for a in assertions {
            let touch: SongTouch
            switch a {
            case .addSong: touch = .add
            case .deleteSong: touch = .delete
            case .updateSong(_, let patch): touch = .update(Set(patch.keys))
            case .taglist, .playlist, .eqProfile, .annotation: continue
            }
            let id = a.songID!
            if by[id] == nil { order.append(id) }
            by[id, default: []].append(touch)
        }
        return order.map { ($0, by[$0]!) }
    }
}
