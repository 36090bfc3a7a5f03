/// The generation function of a play: a `PlayRecord` becomes the assertions of one `play`
/// transaction, on the latest basis.
///
/// It touches only the play fields, and computes them from the basis it is given (the head, under
/// the write lock): `playcount` is the head's plus one, so two players' plays both count and a
/// concurrent `modify` of any other field is never overwritten by a stale copy of the song.
public enum PlayGeneration {
    /// The assertions for `record`; nil when its song is no longer in the library (removed while
    /// it played), empty when the record changes nothing (a quit with the bookmark already there).
    public static func record(_ record: PlayRecord, on basis: DataBasis) -> [Assertion]? {
        guard let old = basis[record.song] else { return nil }
        var new = old
        switch record.outcome {
        case .played:
            new.playcount = old.playcount + 1
            new.lastplayed = record.time
        case .skipped:
            new.skipcount = old.skipcount + 1
        case .bookmarkOnly:
            break
        }
        new.bookmark = record.bookmark?.position
        new.bookmarkSpeed = record.bookmark.flatMap { $0.speed == 1 ? nil : $0.speed }
        let patch = old.patch(to: new)
        return patch.isEmpty ? [] : [.updateSong(record.song, patch)]
    }

    /// The transaction's label: `play Artist - Album - Title`, `skip …`, `bookmark … at 12:34`.
    public static func label(_ record: PlayRecord, song: Song) -> String {
        let name = [song.artist, song.title ?? song.path.split(separator: "/").last.map(String.init)]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " - ")
        switch record.outcome {
        case .played: return "play \(name)"
        case .skipped: return "skip \(name)"
        case .bookmarkOnly:
            guard let b = record.bookmark else { return "bookmark \(name) cleared" }
            let s = Int(b.position.rounded(.down))
            let at = s >= 3600 ? "\(s / 3600):\(pad(s / 60 % 60)):\(pad(s % 60))" : "\(s / 60):\(pad(s % 60))"
            return "bookmark \(name) at \(at)" + (b.speed == 1 ? "" : " (speed \(b.speed))")
        }
    }

    private static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

extension EditGeneration {
    /// `assertions` without their play fields (`SongField.isPlayField`): what undo, redo,
    /// revert and rollback commit unless `--plays`, so that taking back an edit never takes back
    /// the listening done since. Updates left with nothing are dropped; adds and deletes stay
    /// whole (a song brought back comes back as it was).
    public static func keepingPlays(_ assertions: [Assertion]) -> [Assertion] {
        assertions.compactMap { a in
            guard case .updateSong(let id, let patch) = a, patch.keys.contains(where: \.isPlayField) else { return a }
            let kept = patch.filter { !$0.key.isPlayField }
            return kept.isEmpty ? nil : .updateSong(id, kept)
        }
    }
}
