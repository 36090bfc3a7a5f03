import ArgumentParser
import BoomicCore
import BoomicLibrary
import BoomicStore
import Foundation

struct BlameCommand: ParsableCommand, TakesTerms {
    static let configuration = CommandConfiguration(
        commandName: "blame",
        abstract: "Say, for each matching song and field, which transaction set its current value.",
        discussion: "Example: boomic blame album:'Kind of Blue' genre mood (mood: one of your own fields)"
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

    /// A field to explain: one of the song's, or one of the user's own (`mood`), which is blamed
    /// on the transaction that set its value, not on the last change to any user field.
    enum Named {
        case song(SongField)
        case user(String)
    }

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        var terms: [String] = [], named: [Named] = []
        var userFields: Set<String>?
        for a in arguments {
            guard !a.contains(":"), !a.hasPrefix("#"), !a.hasPrefix("^") else { terms.append(a); continue }
            if let f = FieldName.resolve(a) { named.append(.song(f)); continue }
            let names = userFields ?? lib.basis.userFieldNames
            userFields = names
            if names.contains(a.lowercased()) { named.append(.user(a.lowercased())) } else { terms.append(a) }
        }
        let parsed = try QueryReading.parse(terms, in: lib.basis)
        let songs = try lib.basis.songs(matching: parsed)
        let ids = Set(songs.map(\.id))
        let asked = !named.isEmpty
        if !asked {
            // The tag fields, and each user field the songs have on its own line.
            named = SongField.allCases.filter { ($0.isTag || $0.isLibraryOnly) && $0 != .userFields }.map(Named.song)
                + Set(songs.flatMap(\.userFieldMap.keys)).sorted().map(Named.user)
        }
        let fields = named.compactMap { if case .song(let f) = $0 { f } else { nil } }
        let users = named.compactMap { if case .user(let n) = $0 { n } else { nil } }
        let (origins, userOrigins) = try lib.blame(ids, fields: fields, userFields: users)
        var meta: [Int: LogEntryMeta] = [:]
        func info(_ seq: Int) throws -> LogEntryMeta {
            if let m = meta[seq] { return m }
            // The log row's columns: an import's body is tens of megabytes, never needed here.
            guard let t = try lib.transactor.summaries(from: seq, through: seq).first else {
                throw StoreError.noSuchSeq(seq, head: lib.head)
            }
            let m = LogEntryMeta(time: t.time, kind: t.kind, label: t.label)
            meta[seq] = m
            return m
        }
        var rows: [Row] = []
        for s in songs {
            for n in named {
                let name: String, v: FieldValue, origin: Blame.Origin?
                switch n {
                case .song(let f): (name, v, origin) = (f.name, f.value(in: s), origins[s.id]?[f])
                case .user(let u): (name, v, origin) = (u, s.userField(u).map(FieldValue.string) ?? .null, userOrigins[s.id]?[u])
                }
                guard let o = origin, !(v.isNull || v == .strings([])) || asked else { continue }
                let m = try info(o.seq)
                rows.append(Row(id: s.id.description, path: s.path, field: name, value: v, seq: o.seq,
                                transaction: o.transaction.uuidString.lowercased(), time: Formatting.isoDate(m.time),
                                kind: m.kind, label: m.label))
            }
        }
        if output.json { try JSONOut.printArray(rows); return }
        var last = ""
        for r in rows {
            if r.id != last, let s = lib.basis[SongID(UUID(uuidString: r.id)!)] { Out.line(Terminal.bold(SongFormat.line(s))); last = r.id }
            Out.line("  \(r.field.padding(toLength: 22, withPad: " ", startingAt: 0)) \(ChangePrinter.shown(r.value, FieldName.resolve(r.field) ?? .userFields))  \(Terminal.dim("← \(r.seq) \(Formatting.localTime(try info(r.seq).time)) \(Terminal.printable(r.label))"))")
        }
    }

    struct LogEntryMeta { var time: Double; var kind: String; var label: String }
}
