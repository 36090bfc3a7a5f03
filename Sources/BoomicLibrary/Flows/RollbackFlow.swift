import BoomicCore
import Foundation

/// The shared body of rollback, undo and redo, in two steps so that a front can show the change
/// and ask before making it: `init` works out the change from the latest basis to the target
/// state (the preview), `commit` commits it under the write lock, worked out again when another
/// process committed in between. Never asks anything itself.
///
/// The change is read from the log when that is less to read (`LibrarySession.rollbackReading`): the
/// transactions after the target, flattened and taken back, O(them), with no state built; else
/// it is the diff of the head and the target state read from its checkpoint and tail, over the
/// songs the song → transactions index names for the transactions between (every song when the
/// index lacks some of them).
public struct RollbackFlow: Sendable {
    public let lib: LibrarySession
    public let targetSeq: Int
    public let kind: Transaction.Kind
    /// The label's start (`rollback to 12`, `undo 14, 15`); the count of changes is added.
    public let label: String
    public let undoes: [UUID]?
    public let redoes: UUID?
    /// For undo and redo: works the plan out again under the write lock. The plan was made on
    /// what this session last read; if another process committed since, the steps differ and
    /// going ahead would take back (or bring back) something the user was not shown.
    public let replan: (@Sendable (LibrarySession) throws -> (steps: [UUID], targetSeq: Int)?)?
    /// The last seq of the log the plan was read from (`UndoStack.readThrough`): while the log
    /// still ends there, the plan stands and `replan` is not asked (it reads every transaction's
    /// summary again).
    public let plannedThrough: Int?
    /// Whether the play fields go back too (`--plays`). Without it they stay as they are:
    /// plays are facts, so undoing an edit made before some plays keeps those plays.
    public let plays: Bool
    /// The head the preview was computed on.
    public let head: Int
    /// What would change, computed on the basis after `head`.
    public let preview: [Assertion]
    /// Where the change comes from; kept to work it out again when others committed meanwhile.
    private let source: Source

    /// The transactions after the target up to `head`, taken back (O(them)); or the target
    /// state itself, diffed with the head over the songs touched between, when its checkpoint
    /// and tail are less to read.
    private enum Source: Sendable {
        case log([Transaction])
        case state(DataBasis)
    }

    /// - Parameter reading: how the change is read (`LibrarySession.StateReading`): the cheaper
    ///   way unless a test forces one.
    public init(lib: LibrarySession, targetSeq: Int, kind: Transaction.Kind, label: String,
                undoes: [UUID]? = nil, redoes: UUID? = nil, plays: Bool = false,
                replan: (@Sendable (LibrarySession) throws -> (steps: [UUID], targetSeq: Int)?)? = nil,
                plannedThrough: Int? = nil,
                reading: LibrarySession.StateReading = .cheaper) throws {
        try lib.requireWritable()
        self.lib = lib
        self.targetSeq = targetSeq
        self.kind = kind
        self.label = label
        self.undoes = undoes
        self.redoes = redoes
        self.replan = replan
        self.plannedThrough = plannedThrough
        self.plays = plays
        let (head, latest) = lib.transactor.state
        self.head = head
        switch try lib.rollbackReading(to: targetSeq, from: head, reading) {
        case .takingBack:
            let span = try lib.transactions(after: targetSeq, through: head)
            source = .log(span)
            preview = Self.change(takingBack: span, plays: plays)
        case .comparing(let touched):
            let target = try lib.basis(at: targetSeq, reading: .fromCheckpoint)
            source = .state(target)
            preview = Self.change(from: latest, to: target, songs: touched, plays: plays)
        }
    }

    /// Whether the change is the span after the target taken back (not a diff of two states).
    var takesBackTheLog: Bool {
        if case .log = source { return true }
        return false
    }

    /// An undo or redo that changes nothing is still recorded: the undo stack is rebuilt from
    /// the log, and a step left out would be undone again by the next undo.
    public var isStackStep: Bool { kind == .undo || kind == .redo }

    /// Nothing to do: the library already is as it was at the target.
    public var changesNothing: Bool { preview.isEmpty && !isStackStep }

    /// Commits the change, computed again on the latest basis; nil when that changes nothing.
    /// Throws when, for undo and redo, another process changed what the steps are.
    /// - Parameter caller: who asked through a network front (the web page): kept in the
    ///   provenance and said at the end of the label.
    public func commit(message: String?, caller: Caller? = nil) throws -> (seq: Int, transaction: Transaction)? {
        let shown = undoes ?? redoes.map { [$0] } ?? []
        // A rollback is a diff: above a few thousand assertions, reading the body back (a JSON
        // decode of every update) is a sixth of the command; the round-trip law covers diffs.
        return try lib.commit(kind: kind, message: message, undoes: undoes, redoes: redoes,
                              verifying: preview.count <= 2_000 ? nil : false, caller: caller) { basis, now in
            if let replan, now != plannedThrough {
                guard let now = try replan(lib), now.steps == shown, now.targetSeq == targetSeq else {
                    throw LibraryError("the library changed while this \(kind) was waiting (another boomic committed); nothing was changed, run it again")
                }
            }
            let a = try change(on: basis, at: now)
            return a.isEmpty && !isStackStep ? nil : (a, "\(label) (\(Self.count(a)))" + (caller?.byLine ?? ""))
        }
    }

    /// The change from `basis`, the state after `now` (the latest, under the write lock), to
    /// the target: the preview when nobody committed since it was made (the same state), else
    /// worked out again, from the log reading only what was committed after `head`.
    private func change(on basis: DataBasis, at now: Int) throws -> [Assertion] {
        if now == head { return preview }
        switch source {
        case .log(let span):
            return Self.change(takingBack: span + (try lib.transactions(after: head, through: now)), plays: plays)
        case .state(let target):
            return Self.change(from: basis, to: target, songs: try lib.songsTouched(after: targetSeq, through: now), plays: plays)
        }
    }

    /// The diff from `current` to `target`, without the play fields unless `plays`: over `songs`
    /// alone when they are known (those the transactions between touched), else over every song.
    static func change(from current: DataBasis, to target: DataBasis, songs: [SongID]?, plays: Bool) -> [Assertion] {
        let all = songs.map { EditGeneration.rollback(from: current, to: target, songs: $0) }
            ?? EditGeneration.rollback(from: current, to: target)
        return plays ? all : EditGeneration.keepingPlays(all)
    }

    /// The same change read from the log: `span`, the transactions after the target up to the
    /// current state, taken back.
    static func change(takingBack span: [Transaction], plays: Bool) -> [Assertion] {
        let all = EditGeneration.rollback(takingBack: span)
        return plays ? all : EditGeneration.keepingPlays(all)
    }

    /// "3 songs", "1 taglist", "2 songs and 1 playlist": what a list of assertions changes.
    public static func count(_ assertions: [Assertion]) -> String {
        var songs = 0, taglists = 0, playlists = 0, profiles = 0, annotations = 0
        for a in assertions {
            switch a {
            case .addSong, .updateSong, .deleteSong: songs += 1
            case .taglist: taglists += 1
            case .playlist: playlists += 1
            case .eqProfile: profiles += 1
            case .annotation: annotations += 1
            }
        }
        let parts = [(songs, "song"), (taglists, "taglist"), (playlists, "playlist"), (profiles, "EQ profile"),
                     (annotations, "album or artist annotation")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        return parts.isEmpty ? "nothing" : parts.joined(separator: " and ")
    }
}
