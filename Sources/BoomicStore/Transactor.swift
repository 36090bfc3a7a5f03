import Foundation
import Synchronization

/// The generic engine of DESIGN §1: an append-only log of transactions and the basis folded from it.
///
/// It knows nothing about music. It is built from a log file, the empty basis, the transaction
/// function `apply` (pure: `db(n) = apply(t(n), db(n-1))`), optionally a flatten function and a
/// checkpoint codec. It commits, generates-then-commits atomically on the latest basis, lists
/// history and rebuilds any earlier state.
///
/// ```swift
/// let store = try Transactor<Transaction, DataBasis>(
///     path: folder + "/library.sqlite", initial: DataBasis(), apply: { t, db in db.applying(t) },
///     codec: checkpointCodec, policy: CheckpointPolicy(weight: { $0.assertions.count }))
/// try store.generate { basis, head in
///     EditGeneration.modify(…, in: basis)   // nil when nothing would change: nothing is committed
/// }
/// print(store.head, store.basis.songs.count)
/// ```
///
/// Concurrency: one writer at a time per process (a `Mutex` around the write connection) and one
/// per file across processes (SQLite's write lock, taken by `BEGIN IMMEDIATE`). `basis` and `head`
/// are published under their own short-held `Mutex`, so readers never wait for a writer; history
/// and time travel use a second SQLite connection, which WAL lets read while another one writes.
/// Lock order, where several are held: writer, then reader, then the published state.
/// Everything is synchronous, as the transaction functions are (STYLE "Concurrency").
public final class Transactor<T: LoggedTransaction, Basis: Sendable>: Sendable {
    /// The SQLite file holding the log and its checkpoints.
    public let path: String

    let initial: Basis
    let apply: @Sendable (T, Basis) -> Basis
    let flatten: (@Sendable ([T]) -> T)?
    let applyAll: (@Sendable ([T], Basis) -> Basis)?
    let codec: CheckpointCodec<Basis>?
    let policy: CheckpointPolicy<T>
    /// The index of keys → transactions each commit keeps (`touches(of:)`), when there is one.
    let touchIndexing: TouchIndexing<T>?
    /// Set once a commit of this process leaves its rows of the index to the next catch-up.
    let touchesLeftBehind = Mutex(false)
    let verifiesWrites: Bool
    /// Set when the log could only be opened read-only (a full disk): why writing is impossible.
    let readOnlyBecause: StoreError?
    /// The newest checkpoint as a file beside the log, when the codec writes images.
    let imageFile: CheckpointImageFile?
    /// Where opening found its checkpoint.
    let openedFrom: CheckpointSource

    /// The latest state (`Snapshot`).
    let published: Mutex<Snapshot>
    let writer: Mutex<WriteSide>
    let reader: Mutex<ReadSide>
    /// Whether a commit leaves its basis to be applied when first read (`Snapshot`).
    let appliesCommitsWhenRead: Bool

    /// Opens the log at `path` (creating it when `create` allows), loads the newest usable
    /// checkpoint and replays the transactions after it.
    ///
    /// - Parameters:
    ///   - initial: the basis before the first transaction.
    ///   - apply: the transaction function; must be pure and deterministic, since replays rebuild
    ///     every state from it.
    ///   - flatten: combines transactions into one with the same effect; `basis(at:)` applies one
    ///     flattened transaction instead of folding a long tail.
    ///   - applyAll: `apply` folded over several transactions in order, and equal to that fold;
    ///     opening folds the tail after the checkpoint with it, so a basis can read ahead what the
    ///     whole tail touches rather than one transaction at a time. The head is never flattened:
    ///     it is exactly the fold of the log.
    ///   - codec: enables checkpoints; without it every open replays the whole log.
    ///   - policy: when checkpoints are written and how many are kept.
    ///   - verifiesWrites: read every body back before committing it and apply what was read, so
    ///     the log never holds a row this build cannot replay and the live basis is exactly what a
    ///     replay gives. Costs one JSON decode per commit.
    ///   - touchIndexing: what each transaction touched, for `touches(of:)`; recorded by every
    ///     commit once the index exists (a new log starts it with its first commit).
    ///   - appliesCommitsWhenRead: a commit leaves the basis after it to be applied by its first
    ///     reader, for a command that commits and exits: most never read it. A server keeps it
    ///     false, so that its commit thread applies what it commits and a reader on an event
    ///     loop never does.
    public convenience init(path: String, create: Bool = true, initial: Basis,
                            apply: @escaping @Sendable (T, Basis) -> Basis,
                            flatten: (@Sendable ([T]) -> T)? = nil,
                            applyAll: (@Sendable ([T], Basis) -> Basis)? = nil,
                            codec: CheckpointCodec<Basis>? = nil,
                            policy: CheckpointPolicy<T> = CheckpointPolicy(),
                            verifiesWrites: Bool = true,
                            touchIndexing: TouchIndexing<T>? = nil,
                            appliesCommitsWhenRead: Bool = false) throws {
        try self.init(path: path, create: create, initial: initial, apply: apply, flatten: flatten, applyAll: applyAll, codec: codec,
                      policy: policy, verifiesWrites: verifiesWrites, touchIndexing: touchIndexing,
                      appliesCommitsWhenRead: appliesCommitsWhenRead, denied: nil)
    }

    /// The public `init`, and `denied` to open as a library this user may not write even where
    /// `access(2)` says otherwise (tests run as root, whom permissions do not stop).
    init(path: String, create: Bool, initial: Basis, apply: @escaping @Sendable (T, Basis) -> Basis,
         flatten: (@Sendable ([T]) -> T)?, applyAll: (@Sendable ([T], Basis) -> Basis)? = nil,
         codec: CheckpointCodec<Basis>?, policy: CheckpointPolicy<T>, verifiesWrites: Bool,
         touchIndexing: TouchIndexing<T>?, appliesCommitsWhenRead: Bool = false, denied: StoreError?) throws {
        self.path = path
        self.appliesCommitsWhenRead = appliesCommitsWhenRead
        self.initial = initial
        self.apply = apply
        self.flatten = flatten
        self.applyAll = applyAll
        self.codec = codec
        self.policy = policy
        self.verifiesWrites = verifiesWrites
        self.touchIndexing = touchIndexing
        imageFile = codec?.decodeImage == nil ? nil : CheckpointImageFile(besideLog: path)

        var readOnly: StoreError? = create ? nil : denied ?? Self.writeDenied(path)
        if readOnly != nil { _ = try Self.readsImmutably(path, denied: denied) }
        let writeLog: SQLiteLog
        do {
            writeLog = try SQLiteLog(path: path, create: create, immutable: readOnly != nil)
        } catch let error as StoreError where readOnly == nil && !create && Self.canReadWithoutSharedMemory(path, after: error) {
            // A full disk (or a file size limit) cannot hold the `-shm` file SQLite needs to
            // read a WAL database that was closed cleanly. Then nothing is in the WAL, and no
            // other process can be writing (it would have made the `-shm`), so the database file
            // alone is the whole log: read it immutably, and refuse writes with the first error.
            readOnly = error
            writeLog = try SQLiteLog(path: path, create: false, immutable: true)
        }
        let readLog = try SQLiteLog(path: path, create: false, immutable: readOnly != nil)
        try readLog.checkIntact()
        readOnlyBecause = readOnly
        let readSide = ReadSide(log: readLog)
        let loaded = try Self.replay(readSide, to: nil, initial: initial, apply: apply, flatten: nil, applyAll: applyAll,
                                     codec: codec, policy: policy, image: imageFile, writesImage: readOnly == nil)
        openedFrom = loaded.source
        published = Mutex(Snapshot(head: loaded.head, basis: loaded.basis))
        writer = Mutex(WriteSide(log: writeLog, lastCheckpoint: loaded.checkpoint, tail: loaded.tail))
        reader = Mutex(readSide)
        writer.withLock { maybeCheckpoint($0, published.withLock { $0 }) }
    }

    /// Whether opening failed for want of room for SQLite's `-shm` file while the log can still
    /// be read whole: the error is an I/O or full-disk one, there is no usable `-shm` file, and the
    /// `-wal` file is absent or empty (a clean close leaves neither).
    static func canReadWithoutSharedMemory(_ path: String, after error: StoreError) -> Bool {
        let code: SQLiteResultCode
        switch error {
        case .sqlite(_, let c, _), .cannotOpen(_, let c, _): code = c
        default: return false
        }
        guard code.isSystemFailure else { return false }
        let fm = FileManager.default
        // A live `-shm` is at least one 32 KiB region; the failed attempt may have left a stub.
        if ((try? fm.attributesOfItem(atPath: path + "-shm")[.size] as? Int) ?? 0) >= 32_768 { return false }
        let wal = (try? fm.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return wal == 0
    }

    /// Why this user may not write the log at `path`, when the folder or the file is not writable
    /// (`access(2)`, so root may write anything but a read-only mount); nil when it may.
    static func writeDenied(_ path: String) -> StoreError? {
        let folder = (path as NSString).deletingLastPathComponent
        for p in [folder.isEmpty ? "." : folder, path] where access(p, W_OK) != 0 {
            return .readOnlyLibrary(path: p, reason: String(cString: strerror(errno)))
        }
        return nil
    }

    /// Whether the log at `path` must be read as immutable: when this user may not write its
    /// folder or file. SQLite needs to create the -wal and -shm files beside the log even to read
    /// it, unless it reads it as immutable, which is right when the WAL holds nothing and no
    /// process writes meanwhile: only the owner can, and then a command of another user may fail
    /// and is run again.
    static func readsImmutably(_ path: String, denied: StoreError? = nil) throws -> Bool {
        guard let denied = denied ?? writeDenied(path) else { return false }
        guard walIsEmpty(path) else {
            guard case let .readOnlyLibrary(folder, reason) = denied else { throw denied }
            throw StoreError.unreadableWithoutWriting(path: folder, reason: reason)
        }
        return true
    }

    /// Whether the `-wal` file beside `path` is absent or empty (as a clean close leaves it).
    static func walIsEmpty(_ path: String) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0) == 0
    }

    /// The latest basis this instance knows: after its own commits and the last `refresh()`.
    /// An owed basis is applied outside the published lock: `head` and a commit publishing its
    /// state never wait for it (readers of that same basis do, for the one application).
    public var basis: Basis { published.withLock { $0 }.basis }

    /// The seq of the latest transaction `basis` includes; 0 for an empty log.
    public var head: Int { published.withLock { $0.head } }

    /// Both at once, consistent with each other.
    public var state: (head: Int, basis: Basis) {
        let s = published.withLock { $0 }
        return (s.head, s.basis)
    }

    // MARK: Writing

    /// Appends `t` to the log and applies it. Returns its seq.
    ///
    /// Commits after catching up on what other processes committed, like `generate` (which also
    /// explains `verifying`); a transaction computed on an older basis is the caller's to
    /// reconcile, so prefer `generate` for anything computed from the basis.
    @discardableResult
    public func commit(_ t: T, verifying: Bool? = nil) throws -> Int {
        // A closure that returns a value always commits, so the result is never nil.
        try generate(verifying: verifying) { _, _ in t }!.seq
    }

    /// Runs the generation function `g` on the latest basis under the write lock and commits what
    /// it returns, atomically: no other process or thread can commit between reading and writing.
    ///
    /// Inside `BEGIN IMMEDIATE` it first replays what other processes committed since our head,
    /// then calls `g(basis, head)`. `nil` commits nothing (a change that changes nothing);
    /// if `g` throws, nothing is written and the error is rethrown. `g` must not call back into
    /// this transactor's writing methods (the write lock is not reentrant).
    ///
    /// `verifying` overrides the transactor's `verifiesWrites` for this commit: reading back a
    /// 50,000-song import costs about as much as encoding it (a second or so), a one-song edit
    /// nothing noticeable.
    ///
    /// `lockWait` bounds the wait for the write lock, this process's and SQLite's together
    /// (a server answering a client that gives up after 5 s); past it, `StoreError.busy` and
    /// nothing is written. Nil: SQLite's busy timeout alone (30 s).
    ///
    /// - Returns: the new seq and the transaction as stored (`basis` is the state after it);
    ///   nil when `g` was.
    @discardableResult
    public func generate(verifying: Bool? = nil, lockWait: Duration? = nil,
                         _ g: (Basis, Int) throws -> T?) throws -> (seq: Int, transaction: T)? {
        let verifies = verifying ?? verifiesWrites
        if let readOnlyBecause { throw readOnlyBecause }
        guard let lockWait else { return try writer.withLock { w in try generate(&w, verifies: verifies, until: nil, g) } }
        let deadline = ContinuousClock.now + lockWait
        while true {
            if let done = try writer.withLockIfAvailable({ w in try generate(&w, verifies: verifies, until: deadline, g) }) {
                return done
            }
            guard ContinuousClock.now < deadline else {
                throw StoreError.busy(function: "generate", message: "another commit of this process held the library")
            }
            usleep(2_000)
        }
    }

    /// `generate`'s work under the writer's lock; SQLite's lock is waited for until `deadline`.
    private func generate(_ w: inout sending WriteSide, verifies: Bool, until deadline: ContinuousClock.Instant?,
                          _ g: (Basis, Int) throws -> T?) throws -> (seq: Int, transaction: T)? {
        if let deadline {
            let left = (deadline - .now).components
            let milliseconds = left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000
            w.log.connection.setBusyTimeout(milliseconds: Int32(clamping: max(1, milliseconds)))
        }
        defer { if deadline != nil { w.log.connection.setBusyTimeout(milliseconds: SQLiteConnection.defaultBusyTimeout) } }
        do {
            var snapshot = published.withLock { $0 }
            var tail: [TailItem] = []
            var committed: (seq: Int, transaction: T)?
            // Not `connection.transaction { … }`: a closure capturing both `w` and `g` would tie the
            // write side to the caller's isolation, which `Mutex` forbids.
            let connection = w.log.connection
            do {
                try connection.begin(immediate: true)
                try catchUp(w, &snapshot, &tail)
                if let t = try g(snapshot.basis, snapshot.head) {
                    let seq = snapshot.head + 1
                    let body = try encode(t, w.encoder)
                    let stored = verifies ? try Self.decode(body, seq: nil, w.decoder) : t
                    try w.log.append(LogRow(seq: seq, id: stored.id.uuidString.lowercased(), time: stored.timestamp,
                                            kind: stored.kindName, label: stored.label, body: body))
                    try recordTouchesInCommit(w, seq: seq, stored, limited: true)
                    committed = (seq, stored)
                }
                try connection.commit()
            } catch {
                connection.rollback()
                // What we caught up on was committed by others and stays true; publish it anyway.
                publish(w, snapshot, tail)
                throw error
            }
            guard let committed else {
                publish(w, snapshot, tail)
                return nil
            }
            // Applied after COMMIT: apply cannot fail, and other processes need not wait for it.
            snapshot = appliesCommitsWhenRead
                ? Snapshot(head: committed.seq, owing: committed.transaction, after: snapshot, apply: apply)
                : Snapshot(head: committed.seq, basis: apply(committed.transaction, snapshot.basis))
            tail.append(TailItem(seq: committed.seq, weight: policy.weight(committed.transaction)))
            publish(w, snapshot, tail)
            maybeCheckpoint(w, snapshot)
            w.log.connection.checkpointWAL()
            return (committed.seq, committed.transaction)
        }
    }

    /// Appends many transactions in one SQLite transaction: all of them or none (`import-json`
    /// rebuilding a library from an export). `expectedHead` guards against appending onto a log
    /// that is not the one the caller checked (say, empty).
    ///
    /// - Returns: the seq of the last one; the head unchanged when `ts` is empty.
    @discardableResult
    public func appendAll(_ ts: [T], expectedHead: Int? = nil) throws -> Int {
        if let readOnlyBecause { throw readOnlyBecause }
        return try writer.withLock { w in
            var snapshot = published.withLock { $0 }
            var tail: [TailItem] = []
            let connection = w.log.connection
            let first: Int
            do {
                try connection.begin(immediate: true)
                try catchUp(w, &snapshot, &tail)
                if let expectedHead, snapshot.head != expectedHead {
                    throw StoreError.headMoved(expected: expectedHead, found: snapshot.head)
                }
                first = snapshot.head + 1
                for (i, t) in ts.enumerated() {
                    let body = try encode(t, w.encoder)
                    try w.log.append(LogRow(seq: first + i, id: t.id.uuidString.lowercased(), time: t.timestamp,
                                            kind: t.kindName, label: t.label, body: body))
                    try recordTouchesInCommit(w, seq: first + i, t)
                }
                try connection.commit()
            } catch {
                connection.rollback()
                publish(w, snapshot, tail)
                throw error
            }
            publish(w, snapshot, tail)
            // Checkpoints where the policy would have left them one commit at a time, so time
            // travel into the middle of an imported history is as fast as anywhere else; but
            // only those its thinning keeps, written once. Writing each due one and thinning
            // after would encode and store a whole basis for nothing 90 times in 100: 20 s of
            // 28 for an `import-json` of 10,000 transactions at 50,000 songs.
            let kept = checkpointsKept(w, first: first, ts, sizeGuess: plannedCheckpointSize(w, snapshot.basis, ts))
            for (i, t) in ts.enumerated() {
                snapshot = Snapshot(head: first + i, basis: apply(t, snapshot.basis))
                publish(w, snapshot, [TailItem(seq: first + i, weight: policy.weight(t))])
                if kept.contains(first + i) {
                    // Only the last one becomes the image file: the others are older at once.
                    _ = try? writeCheckpoint(w, snapshot, busyTimeout: 0, writesImage: first + i == kept.max())
                }
            }
            w.log.connection.checkpointWAL()
            return snapshot.head
        }
    }

    /// Catches up on transactions other processes committed since our head.
    ///
    /// - Returns: how many transactions were applied.
    @discardableResult
    public func refresh() throws -> Int {
        try writer.withLock { w in
            var snapshot = published.withLock { $0 }
            let before = snapshot.head
            var tail: [TailItem] = []
            defer { publish(w, snapshot, tail) }
            try catchUp(w, &snapshot, &tail)
            return snapshot.head - before
        }
    }

    /// Closes both SQLite connections, checkpointing the WAL first; `basis` and `head` stay
    /// readable, every later read or write of the log throws.
    ///
    /// For a process that keeps its transactor to the end instead of freeing it: SQLite folds the
    /// `-wal` file back into the database file and deletes it when the last connection closes, so
    /// a process that exits with its connections open leaves the latest transactions in the
    /// `-wal` file alone. Never waits: a connection in use by another thread (a process exiting
    /// in the middle of a read) is left open, and its transactions are in the database file
    /// anyway since every commit checkpoints.
    ///
    /// - Returns: the bytes of disk the `-wal` file still waits for, when the disk had no room to
    ///   fold it in (`SQLiteConnection.roomShortfall`): then the newest transactions are in the
    ///   `-wal` file alone, and a copy of the database file without it does not hold them.
    @discardableResult
    public func close() -> Int? {
        _ = reader.withLockIfAvailable { r in r.log.connection.close() }
        return writer.withLockIfAvailable { w -> Int? in
            let connection = w.log.connection
            connection.checkpointWAL()
            let shortfall = connection.roomShortfall()
            if shortfall != nil { connection.keepWALOnClose() }
            connection.close()
            return shortfall
        } ?? nil
    }

    // MARK: Internals shared by the writing paths

    /// Applies the rows after `snapshot.head` in order, recording their weights in `tail`.
    func catchUp(_ w: WriteSide, _ snapshot: inout Snapshot, _ tail: inout [TailItem]) throws {
        try w.log.forEachRow(where: "seq > ?", [.int(snapshot.head)]) { row in
            let t = try Self.decode(row.body, seq: row.seq, w.decoder)
            snapshot = Snapshot(head: row.seq, basis: apply(t, snapshot.basis))
            tail.append(TailItem(seq: row.seq, weight: policy.weight(t)))
        }
    }

    /// Makes `snapshot` the published state if it is newer, and remembers the tail's weights.
    func publish(_ w: WriteSide, _ snapshot: Snapshot, _ tail: [TailItem]) {
        published.withLock { current in
            if snapshot.head > current.head { current = snapshot }
        }
        w.tail.append(contentsOf: tail.filter { $0.seq > w.lastCheckpoint })
    }
}
