import BoomicCore
import Foundation

/// A change to the songs a query matches (`modify`, `tag`, `remove`), in two steps so that a front
/// can show it and ask first: `preview` is the change on the basis the session holds now, and
/// `commit` generates it again on the latest basis under the write lock (another process may
/// have committed meanwhile) and commits that. Nothing is asked or printed here.
public struct EditFlow: Sendable {
    public let lib: LibrarySession
    public let kind: Transaction.Kind
    /// The change on the basis the session holds now: what to show.
    public let preview: [Assertion]
    /// The songs the query matched when the preview was made.
    public let matched: [Song]
    private let generate: @Sendable (DataBasis) throws -> [Assertion]
    private let label: @Sendable ([Assertion]) -> String

    init(lib: LibrarySession, kind: Transaction.Kind, query: ParsedQuery,
         label: @escaping @Sendable ([Assertion]) -> String,
         generate: @escaping @Sendable (DataBasis, [SongID]) -> [Assertion]) throws {
        try lib.requireWritable()
        self.lib = lib
        self.kind = kind
        self.label = label
        let basis = lib.basis
        matched = try basis.songs(matching: query)
        preview = generate(basis, matched.map(\.id))
        self.generate = { b in generate(b, try b.songs(matching: query).map(\.id)) }
    }

    /// Commits the change as generated on the latest basis; nil when that changes nothing.
    /// - Parameter caller: who asked through a network front (the web page): kept in the
    ///   provenance and said at the end of the label.
    public func commit(message: String?, caller: Caller? = nil) throws -> (seq: Int, transaction: Transaction)? {
        try lib.commit(kind: kind, message: message, caller: caller) { basis in
            let a = try generate(basis)
            return a.isEmpty ? nil : (a, label(a) + (caller?.byLine ?? ""))
        }
    }

    /// Any other change generated from the latest basis (`revert`, a playlist or taglist edit).
    public init(lib: LibrarySession, kind: Transaction.Kind, label: String,
                generate: @escaping @Sendable (DataBasis) -> [Assertion]) throws {
        try lib.requireWritable()
        self.lib = lib
        self.kind = kind
        self.label = { _ in label }
        matched = []
        preview = generate(lib.basis)
        self.generate = generate
    }

    /// Sets fields (`FIELD=VALUE`, `FIELD!`) on the songs matching `query`.
    public static func modify(_ lib: LibrarySession, query: ParsedQuery, set assignments: [FieldAssignment]) throws -> EditFlow {
        // A label is one line of `history`: a pasted lyric or a multi-line comment is cut there
        // (the body keeps the whole value).
        let what = assignments.map { $0.value.isNull ? "\($0.name)!" : "\($0.name)=\($0.value.brief(as: $0.field))" }
            .joined(separator: " ")
        // A rename carries the album's or artist's star and rating along (`AnnotationGeneration.carried`).
        return try EditFlow(lib: lib, kind: .edit, query: query,
                            label: { "modify \(what) (\(songs($0.count { $0.songID != nil })))" }) { b, ids in
            AnnotationGeneration.carried(EditGeneration.modify(b, songs: ids, set: assignments), on: b)
        }
    }

    /// Adds and removes tags (`#jazz`, `#instruments:piano`) on the songs matching `query`.
    public static func tag(_ lib: LibrarySession, query: ParsedQuery, add: [String], remove: [String]) throws -> EditFlow {
        let what = (add.map { "+#" + $0.drop { $0 == "#" } } + remove.map { "-#" + $0.drop { $0 == "#" } }).joined(separator: " ")
        return try EditFlow(lib: lib, kind: .tag, query: query, label: { "tag \(what) (\(songs($0.count)))" }) { b, ids in
            EditGeneration.tag(b, songs: ids, add: add, remove: remove)
        }
    }

    /// Removes the songs matching `query` from the library (their files stay).
    /// - Parameter described: the query as the user wrote it, for the label.
    public static func remove(_ lib: LibrarySession, query: ParsedQuery, described: String) throws -> EditFlow {
        try EditFlow(lib: lib, kind: .remove, query: query, label: { "remove \(described) (\(songs($0.count)))" }) { b, ids in
            EditGeneration.remove(b, songs: ids)
        }
    }

    private static func songs(_ n: Int) -> String { "\(n) song\(n == 1 ? "" : "s")" }
}
