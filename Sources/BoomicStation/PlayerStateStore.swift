import BoomicSystem
import Foundation

/// The player's state file and the lock that makes one player its owner.
///
/// The lock is an `flock` on `player/lock`, which holds the owner's pid for the message a second
/// player prints; the kernel drops it when the owner dies, even by `kill -9`, so a crashed player
/// never blocks the next one. The state is replaced atomically (`AtomicFile`).
public final class PlayerStateStore: Sendable {
    public let folder: String
    public var statePath: String { folder + "/state.json" }
    private let lock: FileDescriptor

    /// Takes the lock in `libraryLocation`'s `player` folder, or says which process holds it.
    public convenience init(libraryLocation: String) throws(PlayerError) {
        try self.init(folder: libraryLocation + "/player", owner: libraryLocation)
    }

    /// The state of one of the server's rooms: its own folder under the library's `player`.
    public convenience init(libraryLocation: String, room: String) throws(PlayerError) {
        try self.init(folder: libraryLocation + "/player/rooms/" + Self.folderName(room), owner: libraryLocation)
    }

    /// A room's name as a folder name: anything but letters, digits, `-` and `_` escaped.
    public static func folderName(_ room: String) -> String {
        room.unicodeScalars.map { c in
            (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_") ? String(c)
                : "%" + String(c.value, radix: 16, uppercase: true)
        }.joined()
    }

    private init(folder: String, owner libraryLocation: String) throws(PlayerError) {
        self.folder = folder
        let lockPath = folder + "/lock"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw PlayerError("cannot create \(folder) (\(error.localizedDescription)); check that the library folder is writable")
        }
        let file: FileDescriptor, owned: Bool
        do throws(SystemError) {
            file = try FileDescriptor(path: lockPath, flags: O_RDWR | O_CREAT, mode: 0o644)
            owned = try file.tryLock()
            if owned {
                try file.truncate()
                try file.write(Array("\(getpid())\n".utf8), at: 0)
            }
        } catch {
            throw PlayerError("cannot use \(lockPath) (\(error.reason)); check that the library folder is writable")
        }
        guard owned else {
            let pid = String(decoding: (try? file.readAll(limit: 32)) ?? [], as: UTF8.self)
            throw PlayerError.busy(owner: Int(pid.trimmingCharacters(in: .whitespacesAndNewlines)), folder: libraryLocation)
        }
        lock = file
    }

    /// The saved state, nil when none was saved.
    public func load() throws(PlayerError) -> PlayerState? {
        guard let data = FileManager.default.contents(atPath: statePath) else { return nil }
        let state: PlayerState
        do {
            state = try JSONDecoder.player.decode(PlayerState.self, from: data)
        } catch {
            throw PlayerError("\(statePath) is damaged (\(error.localizedDescription)); move it away to start afresh")
        }
        guard state.format == PlayerState.currentFormat else {
            throw PlayerError("\(statePath) has format \(state.format), which this boomic does not read")
        }
        return state
    }

    public func save(_ state: PlayerState) throws(PlayerError) {
        do {
            let data = try JSONEncoder.player.encode(state)
            try AtomicFile.write(data, to: statePath)
        } catch let error as SystemError {
            throw PlayerError("cannot save \(statePath) (\(error.reason))")
        } catch {
            throw PlayerError("cannot save \(statePath) (\(error.localizedDescription))")
        }
    }
}

/// Why the player cannot start or save: one line.
public struct PlayerError: Error, Sendable, Equatable, LocalizedError {
    public let message: String
    /// Another player owns the state (its pid when known).
    public let busyOwner: Int??

    public init(_ message: String) {
        self.message = message
        busyOwner = nil
    }

    private init(message: String, busyOwner: Int?) {
        self.message = message
        self.busyOwner = .some(busyOwner)
    }

    static func busy(owner: Int?, folder: String) -> PlayerError {
        let who = owner.map { "process \($0)" } ?? "another process"
        return PlayerError(message: "another player (\(who)) is playing from the library \(folder); stop it first", busyOwner: owner)
    }

    public var errorDescription: String? { message }
}

extension JSONEncoder {
    static var player: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .iso8601
        return e
    }
}

extension JSONDecoder {
    static var player: JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }
}
