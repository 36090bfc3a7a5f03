import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// Undo and redo are rollbacks planned by `UndoStack` from the log alone (DESIGN §1). These laws
/// compare them with the undo every editor has: a stack of (before, after) states per command.
@Suite("Undo and redo")
struct UndoTests {
    @Test("every undo and redo in the random histories does what an editor's undo stack would")
    func undoFollowsTheEditorModel() {
        for h in Histories.all {
            typealias Step = (id: UUID, before: DataBasis, after: DataBasis)
            var done: [Step] = [], undone: [Step] = []
            for (i, t) in h.transactions.enumerated() {
                let context = "seed \(h.seed) seq \(i + 1) (\(t.label))"
                switch t.kind {
                case .undo:
                    let ids = t.undoes ?? []
                    guard !ids.isEmpty, ids.count <= done.count else {
                        Issue.record("\(context): undoes \(ids.count) of \(done.count) steps")
                        break
                    }
                    var target = h.bases[i]
                    for id in ids {
                        let step = done.removeLast()
                        #expect(step.id == id, "\(context): undoes the newest steps, newest first")
                        undone.append(step)
                        target = step.before
                    }
                    expectSame(h.bases[i + 1], target, "\(context): state before the undone steps")
                    if let oldest = ids.compactMap(h.seq(of:)).min() {
                        expectSame(h.bases[i + 1], h.bases[oldest - 1], "\(context): basis(seq - 1) of the oldest undone step")
                    }
                case .redo:
                    guard let step = undone.popLast(), step.id == t.redoes else {
                        Issue.record("\(context): redoes something that was not the last undone step")
                        break
                    }
                    done.append(step)
                    expectSame(h.bases[i + 1], step.after, "\(context): state after the redone step")
                case .play:
                    // Plays are facts, not commands: no undo step, and the redo stack stays.
                    // (The histories undo with `--plays`; PlayTests checks undo without it.)
                    break
                default:
                    done.append((t.id, h.bases[i], h.bases[i + 1]))
                    undone.removeAll()
                }
            }
            #expect(h.stack.done.map(\.id) == done.map(\.id), "seed \(h.seed): done stack")
            #expect(h.stack.undone.map(\.id) == undone.map(\.id), "seed \(h.seed): undone stack")
        }
    }

    @Test("undo after any command gives back the basis before it; redo the basis after it")
    func undoAfterEveryCommand() {
        for h in Histories.all {
            let commands = h.transactions.indices.map { $0 + 1 }.filter { ![Transaction.Kind.undo, .redo, .play].contains(h.transactions[$0 - 1].kind) }
            var rng = SplitMix64(seed: h.seed ^ 0x0D0)
            for s in commands.shuffled(using: &rng).prefix(5).sorted() {
                var branch = h.prefix(s)
                let context = "seed \(h.seed), after seq \(s) (\(h.transactions[s - 1].label))"
                let undid = branch.undo()
                #expect(undid, "\(context): nothing to undo")
                guard expectSame(branch.head, h.bases[s - 1], "\(context), undo") else { break }
                let redid = branch.redo()
                #expect(redid, "\(context): nothing to redo")
                guard expectSame(branch.head, h.bases[s], "\(context), undo then redo") else { break }
                let redidAgain = branch.redo(), undidAgain = branch.undo()
                #expect(!redidAgain, "\(context): a second redo has nothing to bring back")
                #expect(undidAgain, "\(context): the redone command can be undone again")
                expectSame(branch.head, h.bases[s - 1], "\(context), undo, redo, undo")
            }
        }
    }

    @Test("undo 2 then redo twice returns to HEAD")
    func undoTwoRedoTwo() {
        var checked = 0
        for h in Histories.all {
            var rng = SplitMix64(seed: h.seed ^ 0x2D0)
            for s in (0...h.seq).shuffled(using: &rng).prefix(5).sorted() {
                var branch = h.prefix(s)
                guard branch.stack.done.count >= 2 else { continue }
                let head = branch.head, older = branch.stack.done[branch.stack.done.count - 2]
                // Undone with `--plays`, plays after the newer step are taken back, and redo (which
                // brings back steps, not plays) cannot return them: PlayTests covers that case.
                if branch.transactions[older.seq...].contains(where: { $0.kind == .play }) { continue }
                let context = "seed \(h.seed), after seq \(s)"
                let undid = branch.undo(2)
                #expect(undid)
                expectSame(branch.head, h.bases[older.seq - 1], "\(context), undo 2")
                let redid = [branch.redo(), branch.redo()]
                #expect(redid == [true, true])
                guard expectSame(branch.head, head, "\(context), undo 2, redo, redo") else { break }
                checked += 1
            }
        }
        #expect(checked >= Seeds.atLeast(300), "only \(checked) states with two steps to undo")
    }

    @Test("after undo then a new command, redo has nothing")
    func newCommandClearsRedo() {
        for h in Histories.all {
            var rng = SplitMix64(seed: h.seed ^ 0x3D0)
            for s in (0...h.seq).shuffled(using: &rng).prefix(4).sorted() {
                var branch = h.prefix(s)
                guard branch.undo() else { continue }
                let context = "seed \(h.seed), after seq \(s)"
                #expect(branch.stack.redoPlan() != nil, "\(context): undo leaves something to redo")
                let committed = branch.commit(Self.someChange(on: branch.head), kind: .edit, label: "new edit")
                #expect(committed, "\(context)")
                #expect(branch.stack.redoPlan() == nil, "\(context)")
                let redid = branch.redo()
                #expect(!redid, "\(context)")
            }
        }
    }

    /// A change that is never a no-op: a fresh comment on a song, or a new song in an empty library.
    static func someChange(on basis: DataBasis) -> [Assertion] {
        guard let id = basis.songs.keys.sorted().first else {
            var ids = CountingIDSource(seed: 99)
            let f = facts("/new/song.flac", title: "New")
            return ImportGeneration.plan(basis: basis, roots: ["/new"], listed: [ListedFile(path: f.path, size: f.size, mtime: f.mtime)],
                                         read: [f], now: 0, ids: &ids).assertions
        }
        return EditGeneration.modify(basis, songs: [id], set: [FieldAssignment(field: .comment, value: .string("edited after an undo"))])
    }

    // MARK: UndoStack examples

    @Test("plays are not undo steps")
    func playsAreNotSteps() {
        var stack = UndoStack()
        stack.record(seq: 1, transaction: transaction(1))
        stack.record(seq: 2, transaction: transaction(2, kind: .play))
        let plan = stack.undoPlan(count: 1)
        #expect(plan?.steps.map(\.seq) == [1])
        #expect(plan?.targetSeq == 0)
        #expect(stack.undoPlan(count: 2) == nil)
    }

    @Test("undo takes back the newest steps first and returns to the state before the oldest")
    func undoPlan() {
        var stack = UndoStack()
        for n in 1...4 { stack.record(seq: n, transaction: transaction(n)) }
        let plan = stack.undoPlan(count: 3)
        #expect(plan?.steps.map(\.seq) == [4, 3, 2])
        #expect(plan?.targetSeq == 1)
        #expect(stack.undoPlan(count: 0) == nil)
        #expect(stack.undoPlan(count: 5) == nil)
        #expect(stack.redoPlan() == nil)

        stack.record(seq: 5, transaction: transaction(5, kind: .undo, undoes: [uuid(1_004), uuid(1_003)]))
        #expect(stack.done.map(\.seq) == [1, 2])
        #expect(stack.redoPlan()?.step.seq == 3)
        #expect(stack.redoPlan()?.targetSeq == 3)

        stack.record(seq: 6, transaction: transaction(6, kind: .redo, redoes: uuid(1_004)))
        #expect(stack.done.map(\.seq) == [1, 2], "a redo of a step that is not next changes nothing")
        stack.record(seq: 7, transaction: transaction(7, kind: .redo, redoes: uuid(1_003)))
        #expect(stack.done.map(\.seq) == [1, 2, 3])
        #expect(stack.undone.map(\.seq) == [4])

        stack.record(seq: 8, transaction: transaction(8, kind: .tag))
        #expect(stack.undone.isEmpty, "a new command clears redo")
        #expect(stack.done.map(\.seq) == [1, 2, 3, 8])
    }
}
