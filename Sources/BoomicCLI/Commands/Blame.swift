import ArgumentParser
import BoomicCore
import BoomicLibrary
import Foundation

struct BlameCommand: ParsableCommand, TakesTerms {
    static let configuration = CommandConfiguration(
        commandName: "blame",
        abstract: "Say, for each matching song and field, which transaction set its current value.",
        discussion: "Example: boomic blame album:'Kind of Blue' genre"
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The query, then optionally field names to explain (default: the tag fields).")
    var arguments: [String] = []
    var terms: [String] { get { arguments } set { arguments = newValue } }

    struct Row: Encodable {
        var id: String, path: String, field: String, value: FieldValue, seq: Int, transaction: String
        var time: String, kind: String, label: String
    }

    func run() throws {
        var terms: [String] = [], fields: [SongField] = []
        for a in arguments {
            if !a.contains(":"), !a.hasPrefix("#"), !a.hasPrefix("^"), let f = FieldName.resolve(a) { fields.append(f) } else { terms.append(a) }
        }
        let lib = try Library.open(at: options.location, create: false)
        let parsed = try QueryReading.parse(terms, in: lib.basis)
        let songs = lib.basis.songs(matching: parsed)
        let shown = fields.isEmpty ? SongField.allCases.filter { $0.isTag || $0.isLibraryOnly } : fields
        let origins = try lib.blame(Set(songs.map(\.id)), fields: shown)
        var meta: [Int: LogEntryMeta] = [:]
        func info(_ seq: Int) throws -> LogEntryMeta {
            if let m = meta[seq] { return m }
            let t = try lib.entry(seq: seq).transaction
            let m = LogEntryMeta(time: t.timestamp, kind: t.kind.rawValue, label: t.label)
            meta[seq] = m
            return m
        }
        var rows: [Row] = []
        for s in songs {
            for f in shown {
                let v = f.value(in: s)
                guard let o = origins[s.id]?[f], !(v.isNull || v == .strings([])) || !fields.isEmpty else { continue }
                let m = try info(o.seq)
                rows.append(Row(id: s.id.description, path: s.path, field: f.name, value: v, seq: o.seq,
                                transaction: o.transaction.uuidString.lowercased(), time: Formatting.isoDate(m.time),
                                kind: m.kind, label: m.label))
            }
        }
        if output.json { try JSONOut.printArray(rows); return }
        var last = ""
        for r in rows {
            if r.id != last, let s = lib.basis[SongID(UUID(uuidString: r.id)!)] { Out.line(Terminal.bold(SongFormat.line(s))); last = r.id }
            Out.line("  \(r.field.padding(toLength: 22, withPad: " ", startingAt: 0)) \(ChangePrinter.shown(r.value, FieldName.resolve(r.field)!))  \(Terminal.dim("← \(r.seq) \(Formatting.localTime(try info(r.seq).time)) \(Terminal.printable(r.label))"))")
        }
    }

    struct LogEntryMeta { var time: Double; var kind: String; var label: String }
}
