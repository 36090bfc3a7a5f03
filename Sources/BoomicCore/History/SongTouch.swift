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
        // Written as bytes: a rollback or an import records one per song it touches, tens of
        // thousands in a commit, where sorting and joining strings was most of the index's cost.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(touches.count * 24)
        for (i, t) in touches.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ";")) }
            switch t {
            case .add: bytes.append(contentsOf: "add".utf8)
            case .delete: bytes.append(contentsOf: "delete".utf8)
            case .update(let fields):
                bytes.append(contentsOf: "update".utf8)
                var ranks = fields.map { storedRank[$0.ordinal] }
                ranks.sort()
                for r in ranks {
                    bytes.append(UInt8(ascii: " "))
                    bytes.append(contentsOf: storedNames[r])
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The log names in the stored form's order (their byte order), as UTF-8.
    private static let storedNames: [[UInt8]] = SongField.allCases.map(\.rawValue).sorted().map { Array($0.utf8) }
    /// Each field's place in `storedNames`, by `SongField.ordinal`.
    private static let storedRank: [Int] = {
        let order = SongField.allCases.map(\.rawValue).sorted()
        return SongField.allCases.map { order.firstIndex(of: $0.rawValue)! }
    }()

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
        order.reserveCapacity(assertions.count)
        by.reserveCapacity(assertions.count)
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
