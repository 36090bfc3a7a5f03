import ArgumentParser
import BoomicCore
import BoomicLibrary
import Foundation

struct Revert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revert",
        abstract: "Undo just one transaction, keeping every later change (like git revert).",
        discussion: """
            A field that a later transaction changed again is a conflict: it is reported and left \
            alone unless --force. The revert is itself a transaction. Play counts, skips, last plays and \
            bookmarks stay as they are unless --plays.
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @OptionGroup var confirm: ConfirmOptions
    @Flag(help: "Revert conflicting fields too, overwriting the later changes.")
    var force = false
    @Flag(help: "Also revert play counts, skips, last plays and bookmarks (left alone otherwise: plays are facts).")
    var plays = false
    @Argument(help: "The transaction to revert.")
    var ref: String

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let seq = try lib.resolve(ref)
        guard seq > 0 else { throw CLIError("state 0 is the empty library; name a transaction from 1 to \(lib.head)") }
        let target = try lib.entry(seq: seq).transaction
        let force = self.force, keepingPlays = !plays
        let preview = RevertGeneration.revert(target, on: lib.basis, force: force, keepingPlays: keepingPlays)
        let flow = try EditFlow(lib: lib, kind: .revert, label: "revert \(seq): \(target.label)") { basis in
            RevertGeneration.revert(target, on: basis, force: force, keepingPlays: keepingPlays).assertions
        }
        for c in preview.conflicts {
            let name = Self.name(of: c.entity, in: lib.basis, or: target)
            let what = c.field.map { "\($0.name) is now \(ChangePrinter.shown(c.current, $0)), not \(ChangePrinter.shown(c.expected, $0))" }
                ?? (!c.isOverridable ? "\(c.current)"
                    : c.song == nil ? "\(c.current), so reverting would undo that later change" : "the song \(c.current) (it was \(c.expected))")
            let outcome = !c.isOverridable ? "; left alone, even with --force (rename one of the lists first)"
                : force ? "; overwriting (--force)" : "; left alone (use --force to overwrite)"
            Terminal.warn("conflict: \(name): \(what)" + outcome)
        }
        guard !preview.assertions.isEmpty else {
            Out.line(target.kind == .play && !plays ? "Nothing to revert: a play changes only play fields; pass --plays to revert it." : "Nothing to revert.")
            return
        }
        for l in ChangePrinter.lines(for: preview.assertions, in: lib.basis, limit: 50) { Out.line(l) }
        if confirm.dryRun { Out.line("Dry run: \(ChangePrinter.count(preview.assertions)) would change."); return }
        guard Terminal.confirm("Revert transaction \(seq) (\(target.label)): change \(ChangePrinter.count(preview.assertions))?", yes: confirm.yes) else {
            Out.line("Nothing changed."); return
        }
        let c = try flow.commit(message: change.message)
        if let c { Out.line("Reverted \(seq) (transaction \(c.seq)); 'boomic undo' takes it back.") }
    }

    /// The entity's name now, else as the transaction knew it.
    static func name(of entity: EntityKey, in basis: DataBasis, or t: Transaction) -> String {
        var taglist: String?, playlist: String?, profile: String?
        for a in t.assertions where a.entity == entity {
            if case .taglist(_, let c) = a { taglist = (c.new ?? c.old)?.name }
            if case .playlist(_, let c) = a { playlist = (c.new ?? c.old)?.name }
            if case .eqProfile(_, let c) = a { profile = (c.new ?? c.old)?.name }
        }
        switch entity {
        case .song(let id): return basis[id].map(SongFormat.line) ?? id.description
        case .taglist(let id): return "taglist " + (basis.taglists[id]?.name ?? taglist ?? id.description)
        case .playlist(let id): return "playlist " + (basis.playlists[id]?.name ?? playlist ?? id.description)
        case .eqProfile(let id): return "EQ profile " + (basis.eqProfiles[id]?.name ?? profile ?? id.description)
        case .annotation(let key): return key.description
        }
    }
}
