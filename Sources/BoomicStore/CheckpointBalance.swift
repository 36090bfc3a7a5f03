/// Moving a stored checkpoint to where it saves the most replay, so that the checkpoints kept
/// spread over history instead of staying where they were first written.
///
/// Thinning alone only drops checkpoints, and it drops where the replay between neighbours is
/// lightest, which is always among the newest: an old checkpoint just after a big import stays
/// forever while the gap after it grows with every edit (a 10,000-transaction history kept its
/// checkpoints at 1, 201 and 9,901, and `--as-of 5000` replayed 4,800 transactions). So after
/// each checkpoint written by policy, one checkpoint other than the newest may move: it is
/// dropped, and one is written where the rows of the gap its removal leaves weigh closest to
/// half (built from the checkpoint before that gap and its rows up to the cut). The move chosen
/// is the one that leaves the lightest gaps, heaviest first; it is made only when its exact
/// weights say so. A move costs a replay of at most two gaps and an encode, done where
/// checkpoints are written (a merge after the command, `serve`'s commit thread), once per
/// checkpoint written; the number kept never changes.
///
/// A state is read from the nearer end of its gap (the checkpoint before it replayed forward,
/// the one after it or the head taken back), so the worst read is half the heaviest gap: with
/// an import as the first transaction and the library's rule, about a twelfth of the history at
/// 50,000 songs (the newest and six more), a quarter from 200,000 songs (the newest and two).
extension CheckpointPolicy {
    /// Which checkpoint to drop, and the gap its removal leaves, to be cut.
    struct Move: Equatable, Sendable {
        /// The seq of the checkpoint dropped (never the newest).
        var dropping: Int
        /// The checkpoint before it (0: the initial state) and the one after it.
        var after: Int
        var through: Int
    }

    /// The weights of the gaps between checkpoints (and before the first) that a checkpoint can
    /// narrow, the ones of two transactions or more, heaviest first.
    static func gapWeights(_ checkpoints: [StoredCheckpoint]) -> [Int] {
        var out: [Int] = []
        var previous = 0
        for c in checkpoints.sorted(by: { $0.seq < $1.seq }) {
            if c.seq - previous >= 2 { out.append(c.weight) }
            previous = c.seq
        }
        return out.sorted(by: >)
    }

    /// The move that the stored weights say leaves the lightest gaps, heaviest first, taking
    /// each cut to halve its gap; nil when no move would leave them lighter than they are.
    static func bestMove(_ checkpoints: [StoredCheckpoint]) -> Move? {
        let sorted = checkpoints.sorted { $0.seq < $1.seq }
        var best: (move: Move, gaps: [Int])?
        let now = gapWeights(sorted)
        for i in sorted.indices.dropLast() {
            let after = i > 0 ? sorted[i - 1].seq : 0, through = sorted[i + 1].seq
            guard through - after >= 2 else { continue }
            let merged = sorted[i].weight &+ sorted[i + 1].weight
            var guess = sorted
            guess[i] = StoredCheckpoint(seq: after + (through - after) / 2, weight: merged / 2, size: sorted[i].size)
            guess[i + 1].weight = merged - merged / 2
            let gaps = gapWeights(guess)
            guard gaps.lexicographicallyPrecedes(best?.gaps ?? now) else { continue }
            best = (Move(dropping: sorted[i].seq, after: after, through: through), gaps)
        }
        return best?.move
    }

    /// Where to cut the rows `rows` (a gap's, in seq order): the seq before its last row after
    /// which the rows up to it weigh closest to half (the earlier on a tie), and that weight.
    /// Nil for fewer than two rows.
    static func cut(_ rows: [TailItem]) -> (seq: Int, weight: Int)? {
        guard rows.count >= 2 else { return nil }
        let total = rows.reduce(0) { $0 &+ $1.weight }
        var best: (seq: Int, weight: Int, worse: Int)?
        var before = 0
        for row in rows.dropLast() {
            before &+= row.weight
            let worse = max(before, total &- before)
            if best == nil || worse < best!.worse { best = (row.seq, before, worse) }
        }
        return best.map { ($0.seq, $0.weight) }
    }

    /// `checkpoints` after `move` with the new one at `cut` (weighing its rows since the gap's
    /// start, the gap's end weighing the rest) and the thinning done, when that keeps the new
    /// one and leaves lighter gaps, heaviest first; nil when it does not.
    ///
    /// - Parameter size: the new checkpoint's size in bytes (an estimate before it is encoded).
    func moving(_ checkpoints: [StoredCheckpoint], _ move: Move, to cut: (seq: Int, weight: Int),
                size: Int) -> [StoredCheckpoint]? {
        var moved = checkpoints.sorted { $0.seq < $1.seq }
        guard cut.seq > move.after, cut.seq < move.through, cut.seq != move.dropping,
              let i = moved.firstIndex(where: { $0.seq == move.dropping }), i + 1 < moved.count,
              moved[i + 1].seq == move.through, (i == 0 ? 0 : moved[i - 1].seq) == move.after else { return nil }
        let merged = moved[i].weight &+ moved[i + 1].weight
        moved[i] = StoredCheckpoint(seq: cut.seq, weight: max(1, cut.weight), size: size)
        moved[i + 1].weight = max(1, merged &- cut.weight)
        let kept = thinned(moved)
        guard kept.contains(where: { $0.seq == cut.seq }),
              Self.gapWeights(kept).lexicographicallyPrecedes(Self.gapWeights(checkpoints)) else { return nil }
        return kept
    }
}
