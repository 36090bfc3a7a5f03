/// `diff(a, b)` read from the log instead of from two states: the transactions between the two
/// seqs, flattened. In a linear log the older state is the common ancestor of both, so this costs
/// O(the transactions between them), where `DataBasis.diff` first needs both states (a checkpoint
/// decoded and a tail replayed) and then compares every song.
///
/// Law (for histories where each transaction was generated on the basis it applies to):
/// `diff(span(a, b), from: a, to: b) == basis(a).diff(to: basis(b))`, in both directions.
public enum LogDiff {
    /// The assertions that turn the state after `from` into the state after `to`.
    ///
    /// - Parameter span: the transactions after `min(from, to)` up to `max(from, to)`, in log order.
    public static func assertions(_ span: [Transaction], from: Int, to: Int) -> [Assertion] {
        let net = Flatten.assertions(span.lazy.flatMap(\.assertions))
        let directed = from <= to ? net : net.map(\.inverse)
        // Each entity read once rather than twice per comparison: a rollback sorts thousands,
        // and reading one copies its assertion's payload. The sort is stable, as before.
        let keys = directed.map(\.entity)
        return keys.indices.sorted { keys[$0] < keys[$1] }.map { directed[$0] }
    }

    /// The state after `seq`, from a later state `basis` and the transactions after `seq` up to
    /// it (in log order): their net change taken back. O(the change), and the result shares all
    /// but the changed songs with `basis`.
    public static func basis(_ basis: DataBasis, takingBack span: [Transaction]) -> DataBasis {
        basis.applying(Flatten.assertions(span.lazy.flatMap(\.assertions)).map(\.inverse))
    }
}
