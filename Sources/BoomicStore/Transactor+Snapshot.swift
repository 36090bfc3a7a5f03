import Synchronization

extension Transactor {
    /// A basis and the seq it is the state after; replaced, never mutated in place.
    ///
    /// Its basis may be owed: a command that commits and exits (`appliesCommitsWhenRead`) never
    /// reads the state after its own commit, and applying a rollback of 9,000 songs to the basis
    /// was a quarter of that command's time. An owed basis is applied by its first reader, once.
    struct Snapshot: Sendable {
        var head: Int
        private var held: Held

        init(head: Int, basis: Basis) {
            self.head = head
            held = .ready(basis)
        }

        /// The state after `t`, applied to `before`'s basis when first read.
        init(head: Int, owing t: T, after before: Snapshot, apply: @escaping @Sendable (T, Basis) -> Basis) {
            self.head = head
            held = .owed(Owed(before: before, t: t, apply: apply))
        }

        var basis: Basis {
            switch held {
            case .ready(let b): b
            case .owed(let o): o.basis
            }
        }

        private enum Held: Sendable {
            case ready(Basis)
            case owed(Owed)
        }
    }

    /// A basis not applied yet, shared by the copies of its snapshot so that it is applied once.
    /// The lock is held while applying: a second reader waits for the first one's result rather
    /// than applying it again.
    final class Owed: Sendable {
        private let state: Mutex<State>

        private enum State {
            case pending(before: Snapshot, t: T, apply: @Sendable (T, Basis) -> Basis)
            case applied(Basis)
        }

        init(before: Snapshot, t: T, apply: @escaping @Sendable (T, Basis) -> Basis) {
            state = Mutex(.pending(before: before, t: t, apply: apply))
        }

        var basis: Basis {
            state.withLock { s in
                switch s {
                case .applied(let b):
                    return b
                case let .pending(before, t, apply):
                    let b = apply(t, before.basis)
                    // The basis before is let go: only the state after is kept.
                    s = .applied(b)
                    return b
                }
            }
        }
    }
}
