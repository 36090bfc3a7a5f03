import BoomicAccounts
import BoomicLibrary
import ArgumentParser
import BoomicStore
import BoomicSystem
import Foundation

struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the library's log and checkpoints to FILE: a consistent snapshot, even while other boomic processes commit.",
        discussion: """
            FILE is a complete library.sqlite: to restore, put it in a library folder under that name. \
            Copying library.sqlite with cp is not a backup while boomic runs (it misses what is \
            still in library.sqlite-wal, and a commit during the copy tears it). Cover pictures \
            (art/) and folders.json are not copied: boomic import rebuilds them. The accounts \
            (users.json and its key users.key, which are not in the log) are copied to \
            FILE.users.json and FILE.users.key, mode 0600, when there are any, and the API users' \
            bookmarks and saved play queues (listeners.json) to FILE.listeners.json, mode 0600, \
            when there is one. Refuses to replace an existing FILE (or those copies) unless --force.
            """
    )

    @OptionGroup var options: LibraryOptions
    @Argument(help: "Where to write the copy.", completion: .file())
    var file: String
    @Flag(help: "Replace FILE if it exists.")
    var force = false

    func run() throws {
        guard !file.isEmpty else { throw CLIError("the backup file name is empty; name the file to write") }
        let target = Paths.absolute(file)
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: target, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw CLIError("\(target) is a folder; name a file to write the backup to") }
            if !force { throw CLIError("\(target) already exists; pass --force to replace it, or name another file") }
        }
        let accountCopies = (users: target + ".users.json", key: target + ".users.key")
        let listenersCopy = target + "." + ListenerStateStore.fileName
        for copy in [accountCopies.users, accountCopies.key, listenersCopy] where !force && fm.fileExists(atPath: copy) {
            throw CLIError("\(copy) already exists; pass --force to replace it, or name another file")
        }
        let folder = (target as NSString).deletingLastPathComponent
        guard fm.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError("the folder \(folder) does not exist; create it first or name another file")
        }
        guard access(folder, W_OK) == 0 else {
            throw CLIError("you may not write to \(folder) (\(String(cString: strerror(errno)))); name another file")
        }
        let lib = try Library.open(at: options.location, create: false)
        // Written beside the target and renamed: a failed or killed backup never leaves a
        // half-written FILE, nor destroys the old one that --force replaces.
        let tmp = folder + "/." + (target as NSString).lastPathComponent + ".\(getpid()).tmp"
        try? SystemCall.unlink(tmp)
        let head: Int
        do {
            head = try lib.transactor.backup(to: tmp)
            do {
                try Self.sync(tmp)
                if force {
                    try SystemCall.rename(tmp, to: target)
                } else {
                    // link fails when the target appeared meanwhile: never replaced without --force.
                    try SystemCall.link(tmp, to: target)
                    try? SystemCall.unlink(tmp)
                }
            } catch {
                throw Self.fileError(error, target)
            }
        } catch {
            try? SystemCall.unlink(tmp)
            throw error
        }
        try? SystemCall.syncDirectory(folder)
        Out.line("Backed up \(Formatting.count(head, "transaction")) to \(target)")
        try backUpAccounts(to: accountCopies, target: target)
        try backUpListeners(to: listenersCopy, target: target)
    }

    /// The API users' bookmarks and saved play queues are not in the log either: copied beside
    /// FILE, or, when there are none, a stale copy that --force replaces is removed. The server
    /// replaces `listeners.json` by a rename, so the copy is one whole version of it.
    private func backUpListeners(to copy: String, target: String) throws {
        let source = options.location + "/" + ListenerStateStore.fileName
        guard let bytes = FileManager.default.contents(atPath: source) else {
            if force { try? SystemCall.unlink(copy) }
            return
        }
        do {
            try AtomicFile.write(bytes, to: copy, mode: 0o600)
        } catch {
            throw CLIError("the log is backed up to \(target), but not the bookmarks and play queues: cannot write \(copy) (\(error.reason))")
        }
        Out.line("Copied the bookmarks and saved play queues to \(copy)")
    }

    /// The accounts are not in the log: copied beside FILE as a pair (the users file is useless
    /// without its key), or, when there are none, stale copies that --force replaces are removed
    /// so that a restore brings back no accounts that no longer exist.
    private func backUpAccounts(to copies: (users: String, key: String), target: String) throws {
        let copied: Bool
        do {
            copied = try Accounts(folder: options.location).copy(usersTo: copies.users, keyTo: copies.key)
        } catch {
            throw CLIError("the log is backed up to \(target), but not the accounts: \(error.localizedDescription)")
        }
        if copied {
            Out.line("Copied the accounts to \(copies.users) and their key to \(copies.key) (together they log in as every account: keep them private)")
        } else if force {
            for copy in [copies.users, copies.key] { try? SystemCall.unlink(copy) }
        }
    }

    /// Flushes the copy to disk before it takes the target's name.
    static func sync(_ path: String) throws(SystemError) {
        let file = try FileDescriptor(path: path, flags: O_RDONLY)
        try file.sync()
        try file.close()
    }

    /// What a failed step means for the backup at `target`.
    static func fileError(_ error: SystemError, _ target: String) -> CLIError {
        let (verb, path): (String, String)
        switch error.operation {
        case .link where error.isExisting:
            return CLIError("\(target) already exists; pass --force to replace it, or name another file")
        case .open: (verb, path) = ("read back", error.path)
        case .sync: (verb, path) = ("flush", error.path)
        case .rename: (verb, path) = ("replace", target)
        default: (verb, path) = ("create", target)
        }
        return CLIError("cannot \(verb) \(path) (\(error.reason)); check the folder exists and you may write to it")
    }
}
