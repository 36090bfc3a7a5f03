import BoomicCore
import BoomicStore
import Foundation
import Synchronization

/// One open library folder: the Transactor over its log, its music folders, its art, and a feed
/// of what changes. Every front opens a library through this: the CLI for one command, the
/// player and the server for hours, on many threads.
///
/// Reads (`basis`, history, time travel) never wait for a writer and may come from any thread.
/// Commits made by other processes are seen after `refresh()`, which costs one pragma when
/// nothing changed; `watch(every:)` calls it on a timer. Nothing here prints or prompts: flows
/// report through `LibraryEvents`, and asking the user stays with the front.
public final class LibrarySession: Sendable {
    /// The library folder (absolute).
    public let location: String
    public let transactor: Transactor<Transaction, DataBasis>
    /// Who commits through this session, kept as each transaction's provenance.
    public let client: Client

    public static let logName = "library.sqlite"

    /// A front's name for its commits: the command line as typed (`boomic modify …`) or, for the
    /// server, what the client sent; and the version of Boomic that made them.
    public struct Client: Sendable {
        public var command: String
        public var version: String

        public init(command: String, version: String) {
            self.command = command
            self.version = version
        }
    }

    private let feed = Mutex(Feed())
    private let own = Mutex<OwnCommits?>(nil)
    /// The entry `entry(seq:keeping:)` was last asked to keep: `undo` reads the step it takes
    /// back to check it, then the span to take back, which begins with that step (a 9,000-song
    /// rollback is a 1.4 MB row). A row never changes once written, so the copy stays good; only
    /// a caller that reads the span next asks, so a server does not hold an import's songs.
    let keptEntry = Mutex<LogEntry<Transaction>?>(nil)

    /// What this session committed: the first and last seq and how many (others' commits may
    /// lie between them). Kept as three numbers, so a server recording plays for months holds
    /// no list.
    public struct OwnCommits: Sendable, Equatable {
        public var first: Int
        public var last: Int
        public var count: Int
    }

    /// The transactions this session committed, nil when none: a front that reports a change
    /// after making it (the CLI prints "Saved … (transaction 7)") says from this that the change
    /// is made when the report cannot be written, so that nobody makes it twice.
    public var committedHere: OwnCommits? { own.withLock { $0 } }

    private func recordOwn(first: Int, last: Int, count: Int) {
        guard count > 0 else { return }
        own.withLock { o in
            o = o.map { OwnCommits(first: $0.first, last: last, count: $0.count + count) }
                ?? OwnCommits(first: first, last: last, count: count)
        }
    }

    private struct Feed {
        /// The head the subscribers were last told about.
        var told = 0
        var lastDataVersion: Int?
        var subscribers: [Int: AsyncStream<LibraryChange>.Continuation] = [:]
        var nextToken = 0
    }

    private init(location: String, transactor: Transactor<Transaction, DataBasis>, client: Client) {
        self.location = location
        self.transactor = transactor
        self.client = client
        let head = transactor.head
        feed.withLock { $0.told = head }
    }

    /// When a checkpoint (a merge of the delta into a new image) is due: after 100 transactions
    /// or 5,000 of `Transaction.replayWeight` since the last one.
    ///
    /// Which are kept: the older ones weigh at most twice the newest or 64 MiB, and none splits
    /// a replay lighter than 5,000 (about 1,200 small edits, 40–60 ms to read). An image is
    /// 10.5 MB at 50,000 songs, so such a library keeps six besides the newest and reads any past
    /// state within a twelfth of its history; a smaller one keeps what its history needs, and at
    /// a million songs (210 MB each) twice the newest rules.
    public static let checkpointPolicy = CheckpointPolicy<Transaction>(every: 100, maxWeight: 5_000, sizeFloor: 64 << 20,
                                                                       minimumGap: 5_000, weight: { $0.replayWeight })

    /// A policy under which no commit writes a checkpoint: for processes that leave the merge
    /// to one after them (`mergesAfter`). It keeps what `checkpointPolicy` keeps.
    private static let neverDue: CheckpointPolicy<Transaction> = {
        var policy = checkpointPolicy
        policy.every = .max
        policy.maxWeight = .max
        return policy
    }()

    /// Whether `boomic merge` has work: a checkpoint due, or rows of the song index a commit of
    /// this process left to it.
    public var isMergeDue: Bool {
        transactor.leftTouchesBehind || transactor.isCheckpointDue(under: Self.checkpointPolicy)
    }

    /// Records the song index's missing rows, then writes the checkpoint that is due, if one is:
    /// O(change) and O(library), so never inside a command's budget.
    ///
    /// - Returns: whether a checkpoint was written.
    @discardableResult
    public func mergeIfDue() throws -> Bool {
        // A cache, as the checkpoint: what another writer keeps it from recording, the next merge does.
        try? transactor.catchUpTouchIndex()
        let wrote = try transactor.checkpointIfDue(under: Self.checkpointPolicy)
        // Commits made while the checkpoint was written: their own merges left at once, finding
        // `merge.lock` held by this one.
        if wrote { try? transactor.catchUpTouchIndex() }
        return wrote
    }

    /// Opens the library at `location`; with `create`, makes the folder and the log first.
    ///
    /// - Parameter mergesAfter: commits never write a checkpoint themselves; the caller asks
    ///   `isMergeDue` once its work is done and has `mergeIfDue` run outside it (the CLI: a
    ///   detached `boomic merge` after the command's output). Otherwise a commit that makes one
    ///   due writes it before returning (`serve`, on the thread that commits; the tests).
    /// - Parameter appliesCommitsWhenRead: its commits leave the basis after them to be applied
    ///   by its first reader (`Transactor`'s), for a command that commits and exits: most never
    ///   read it. Not for a server, whose readers may be event loops that must not do that work.
    public static func open(at location: String, create: Bool, client: Client, mergesAfter: Bool = false,
                            appliesCommitsWhenRead: Bool = false) throws -> LibrarySession {
        let fm = FileManager.default
        let log = location + "/" + logName
        if !fm.fileExists(atPath: log) {
            guard create else {
                throw LibraryError("no library at \(location); run 'boomic init' or 'boomic import DIR' first, or pass --library")
            }
            do {
                try fm.createDirectory(atPath: location, withIntermediateDirectories: true)
            } catch {
                throw LibraryError("cannot create the library folder \(location): \(error.localizedDescription)")
            }
        }
        let t = try Transactor<Transaction, DataBasis>(
            path: log, create: create, initial: DataBasis(),
            apply: { t, b in b.applying(t) },
            flatten: { ts in Flatten.transactions(ts)! },
            // The open's fold of the tail: updates kept as patches until their songs are read.
            applyAll: { ts, b in b.applying(transactions: ts, keepingPatches: true) },
            codec: BasisCodec.codec,
            policy: mergesAfter ? neverDue : checkpointPolicy,
            // A command that commits and exits has a merge after it to record a large commit's
            // rows; a resident session (`serve`, `play`) has none until it ends.
            touchIndexing: mergesAfter && appliesCommitsWhenRead ? songTouchesLeavingLarge : songTouches,
            appliesCommitsWhenRead: appliesCommitsWhenRead
        )
        return LibrarySession(location: location, transactor: t, client: client)
    }

    /// The song → transactions index (`blame`): per song, what each transaction's assertions on
    /// it did (`SongTouch`), keyed by the song id as `SongID.description` spells it.
    static let songTouches = TouchIndexing<Transaction>(format: 1) { t in
        t.songTouches.map { (key: $0.song.description, info: SongTouch.stored($0.touches)) }
    }

    /// `songTouches` for a command that has a merge run after it: a commit of more than 256
    /// assertions (about 2 ms of rows; a rollback's 9,000 were 70 ms) leaves its rows to the merge.
    static let songTouchesLeavingLarge: TouchIndexing<Transaction> = {
        var indexing = songTouches
        indexing.commitLimit = 256
        indexing.size = { $0.assertions.count }
        return indexing
    }()

    /// Closes the log's connections (folding the `-wal` file back into `library.sqlite`); the
    /// basis stays readable, every later read of the log or commit throws.
    ///
    /// - Returns: the bytes of disk still missing when the disk had no room to fold the `-wal`
    ///   file in (`Transactor.close`): the newest transactions are then in it alone.
    @discardableResult
    public func close() -> Int? {
        let subscribers = feed.withLock { f in
            defer { f.subscribers = [:] }
            return f.subscribers.values
        }
        for s in subscribers { s.finish() }
        return transactor.close()
    }

    public var basis: DataBasis { transactor.basis }
    public var head: Int { transactor.head }

    // MARK: Seeing other processes' commits

    /// Catches up on what other processes committed, and tells the subscribers. Cheap when
    /// nothing changed: one `PRAGMA data_version`, no read of the log.
    ///
    /// - Returns: what changed since the subscribers were last told, nil when nothing did.
    @discardableResult
    public func refresh() throws -> LibraryChange? {
        let version = try transactor.dataVersion()
        let moved = feed.withLock { f in
            defer { f.lastDataVersion = version }
            return f.lastDataVersion != version
        }
        if moved { try transactor.refresh() }
        return try publish()
    }

    /// Refreshes whenever the log's files change (inotify), and at least every `net`; every
    /// `poll` where inotify cannot watch the folder. Until cancelled or the session is closed;
    /// a failed refresh (the library folder gone, a damaged log) is handed to `failed` and ends it.
    public func watch(poll: Duration = .milliseconds(250), net: Duration = .seconds(5),
                      failed: @escaping @Sendable (any Error) -> Void = { _ in }) -> LibraryWatch {
        LibraryWatch(session: self, poll: poll, net: net, failed: failed)
    }

    /// What changes, as it happens: one element per refresh or commit that changed something,
    /// covering every transaction in order (nothing is skipped if a subscriber is slow: elements
    /// are buffered). Ends when the session closes.
    public func changes() -> AsyncStream<LibraryChange> {
        let (stream, continuation) = AsyncStream<LibraryChange>.makeStream()
        let token = feed.withLock { f in
            f.nextToken += 1
            f.subscribers[f.nextToken] = continuation
            return f.nextToken
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.feed.withLock { $0.subscribers.removeValue(forKey: token) }
        }
        return stream
    }

    /// Tells the subscribers about the transactions after the last told head. With nobody
    /// listening (a one-command process), nothing is read.
    private func publish() throws -> LibraryChange? {
        try feed.withLock { f in
            let head = transactor.head
            guard head > f.told else { return nil }
            let change: LibraryChange
            if f.subscribers.isEmpty {
                change = LibraryChange(from: f.told, to: head)
            } else {
                let ts = try transactor.entries(from: f.told + 1, through: head).map(\.transaction)
                change = LibraryChange(from: f.told, transactions: ts)
                for s in f.subscribers.values { s.yield(change) }
            }
            f.told = head
            return change
        }
    }

    // MARK: Committing

    /// Throws, in one line naming the permission, when this session cannot commit (a library
    /// the user may not write is opened read-only). Every flow that changes something asks
    /// before its preview: a change that cannot be made must not be shown as if it could.
    public func requireWritable() throws {
        try transactor.requireWritable()
    }

    /// Generates on the latest basis and commits, with provenance; nil when nothing changes.
    ///
    /// - Parameter command: overrides the client's command for this commit (the server names
    ///   the protocol command that made it).
    /// - Parameter lockWait: how long to wait for the write lock (`Transactor.generate`); past
    ///   it, `StoreError.busy` and nothing is committed.
    /// - Parameter id: the transaction's id, when the change has an identity of its own (a play's
    ///   key); a new random one otherwise.
    /// - Parameter caller: the account and program a network API call came from, kept in the
    ///   provenance (`user`, `client`).
    @discardableResult
    public func commit(kind: Transaction.Kind, message: String?, undoes: [UUID]? = nil, redoes: UUID? = nil,
                       verifying: Bool? = nil, command: String? = nil, lockWait: Duration? = nil, id: UUID? = nil,
                       caller: Caller? = nil,
                       _ generate: (DataBasis) throws -> (assertions: [Assertion], label: String)?) throws
        -> (seq: Int, transaction: Transaction)? {
        try commit(kind: kind, message: message, undoes: undoes, redoes: redoes, verifying: verifying, command: command,
                   lockWait: lockWait, id: id, caller: caller) { basis, _ in try generate(basis) }
    }

    /// `commit`, with the seq of the state `generate` is given: a generation that read the log
    /// up to some head (a rollback taking back the transactions after its target) reads only
    /// what others committed after it.
    @discardableResult
    public func commit(kind: Transaction.Kind, message: String?, undoes: [UUID]? = nil, redoes: UUID? = nil,
                       verifying: Bool? = nil, command: String? = nil, lockWait: Duration? = nil, id: UUID? = nil,
                       caller: Caller? = nil,
                       _ generate: (_ basis: DataBasis, _ head: Int) throws -> (assertions: [Assertion], label: String)?) throws
        -> (seq: Int, transaction: Transaction)? {
        // Reading a body back before committing it guards against a Codable bug; for an import of
        // tens of thousands of songs it is a third of the commit. Imports come from one
        // well-tested path (the JSON round-trip law runs on thousands of random transactions);
        // so do rollbacks of thousands of songs (a diff), whose callers pass `verifying: false`.
        let verify = verifying ?? (kind != .import && kind != .rescan)
        let client = self.client
        let r = try transactor.generate(verifying: verify, lockWait: lockWait) { basis, head in
            guard let (assertions, label) = try generate(basis, head) else { return nil }
            let parent = head == 0 ? nil : try transactor.summaries(from: head, through: head).first.flatMap { UUID(uuidString: $0.id) }
            return Transaction(
                id: id ?? UUID(), parent: parent, timestamp: Date().timeIntervalSince1970, kind: kind, label: label,
                provenance: .init(command: command ?? client.command, message: message, version: client.version,
                                  user: caller?.user, client: caller?.client),
                assertions: assertions, undoes: undoes, redoes: redoes)
        }
        if let r { recordOwn(first: r.seq, last: r.seq, count: 1) }
        _ = try? publish()
        return r.map { ($0.seq, $0.transaction) }
    }

    /// Appends whole transactions as they are (`import-json`), onto a log of `expectedHead`.
    public func appendAll(_ ts: [Transaction], expectedHead: Int) throws {
        let last = try transactor.appendAll(ts, expectedHead: expectedHead)
        recordOwn(first: last - ts.count + 1, last: last, count: ts.count)
        _ = try? publish()
    }

    // MARK: Reading

    /// The basis at REF, or the latest when `ref` is nil (`--as-of`).
    public func basis(asOf ref: String?) throws -> DataBasis {
        guard let ref else { return basis }
        return try basis(at: resolve(ref))
    }

    /// The basis at REF (or the latest), seen through a taglist when `view` names one (`--view`).
    ///
    /// With `--as-of`, the taglist is taken as it was defined then, so the view shows what that
    /// taglist held at that moment; a taglist created later is applied with its current rules.
    public func basis(asOf ref: String?, view: String?) throws -> DataBasis {
        let b = try basis(asOf: ref)
        guard let view else { return b }
        return b.view(through: try taglist(view: view, in: b), timeZone: .current)
    }

    /// The taglist `--view` names, as `b` (the basis at REF) defines it, else as the library
    /// does now: for a command that reads through it without building the view
    /// (`DataBasis.songs(matching:through:)`).
    public func taglist(view: String, in b: DataBasis) throws -> Taglist {
        if let (_, t) = b.taglist(named: view) { return t }
        return try TaglistGeneration.find(view, in: basis).1
    }

    /// The entry at `seq`; with `keeping`, kept for the span a rollback or undo reads next
    /// (`transactions(after:through:)`), which then does not decode it again.
    public func entry(seq: Int, keeping: Bool = false) throws -> LogEntry<Transaction> {
        if let kept = keptEntry.withLock({ $0 }), kept.seq == seq { return kept }
        let e = try transactor.entry(seq: seq)
        if keeping { keptEntry.withLock { $0 = e } }
        return e
    }

    public func summaries(newestFirst: Bool, limit: Int?, includePlays: Bool) throws -> [LogSummary] {
        try transactor.summaries(limit: limit, newestFirst: newestFirst,
                                 excludingKind: includePlays ? nil : Transaction.Kind.play.rawValue)
    }

    /// Which transaction set each field's current value (`blame`): song fields (all of them when
    /// neither `fields` nor `userFields` names any) and user fields by name.
    ///
    /// Walks each song's own history in the song → transactions index (`Transactor.touches`), so
    /// the cost follows the songs' histories, not the log: no body is decoded except the updates
    /// of `user_fields` when user fields are asked (their values decide).
    public func blame(_ songs: Set<SongID>, fields: [SongField], userFields names: [String] = []) throws
        -> (fields: [SongID: [SongField: Blame.Origin]], userFields: [SongID: [String: Blame.Origin]]) {
        let asked = fields.isEmpty && names.isEmpty ? SongField.allCases : fields
        let index = try transactor.touches(of: songs.map(\.description))
        var history: [SongID: Blame.Touches] = [:]
        for id in songs {
            history[id] = try (index[id.description] ?? []).map { t in
                guard let touches = SongTouch.touches(stored: t.info) else {
                    throw LibraryError("the index of what each transaction touched is damaged at transaction \(t.seq) "
                        + "(\(t.info)); run 'boomic verify --repair'")
                }
                return (t.seq, touches)
            }
        }
        let fieldSeqs = asked.isEmpty ? [:] : Blame.origins(of: songs, fields: asked, history: history)
        var decoded: [Int: Transaction] = [:]
        let nameSeqs = names.isEmpty ? [:] : try Blame.origins(of: songs, userFields: names, history: history) { seq, id, n, open in
            let t = try decoded[seq] ?? entry(seq: seq).transaction
            decoded[seq] = t
            let mine = t.assertions.filter { $0.songID == id }
            guard n < mine.count, case .updateSong(_, let patch) = mine[n] else { return [] }
            return Blame.userFieldsSet(by: patch, among: open)
        }
        var ids: [Int: UUID] = [:]
        func origin(_ seq: Int) throws -> Blame.Origin {
            if let id = ids[seq] { return Blame.Origin(seq: seq, transaction: id) }
            guard let s = try transactor.summaries(from: seq, through: seq).first, let id = UUID(uuidString: s.id) else {
                throw StoreError.noSuchSeq(seq, head: head)
            }
            ids[seq] = id
            return Blame.Origin(seq: seq, transaction: id)
        }
        return (try fieldSeqs.mapValues { try $0.mapValues(origin) }, try nameSeqs.mapValues { try $0.mapValues(origin) })
    }
}
