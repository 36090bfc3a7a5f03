import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicPlayback
@testable import BoomicStation
import BoomicTestSupport
import Foundation
import Synchronization

/// A library of tones in a temporary folder, and what a station over it told.
final class StationFixture: Sendable {
    let dir = TempDir("station")
    let session: LibrarySession
    let songs: [SongID]

    /// `seconds`: each song's length (sox writes them); `song` changes each before it is added.
    init(songs count: Int = 2, seconds: Int = 30, song change: (inout Song) -> Void = { _ in }) throws {
        session = try LibrarySession.open(at: dir.path, create: true, client: .init(command: "test", version: "0"))
        var made: [Song] = []
        for i in 0..<count {
            let path = dir.path + "/tone\(i).wav"
            try toolOutput(["sox", "-R", "-n", "-r", "44100", "-b", "16", "-c", "2", path, "synth", String(seconds), "sine", String(440 + 110 * i)])
            var song = Song(id: SongID(UUID()), path: path)
            song.title = "Tone \(i)"
            change(&song)
            made.append(song)
        }
        _ = try session.commit(kind: .import, message: nil) { _ in (made.map(Assertion.addSong), "add") }
        songs = made.map(\.id)
    }

    deinit { session.close() }

    var library: FixedLibrary { FixedLibrary(session: session, basis: session.basis) }

    static let settings = RoomSettings(sound: SoundSettings(), realtime: true, record: false, keepsVolume: true, warnsEvents: true)
}

/// What a station told its subscriber, in order.
final class Told: Sendable {
    private let list = Mutex<[StationChange]>([])
    init(_ station: Station) { station.subscribe { [self] change in list.withLock { $0.append(change) } } }
    var changes: [StationChange] { list.withLock { $0 } }
    /// How many changes told `what` (in any room).
    func count(_ what: RoomChange) -> Int { changes.filter { $0.what.contains(what) }.count }
}

/// Holds a player's thread where it resolves a song to open (a sleeping disk's open), until
/// the test lets go.
final class OpenGate: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let open = DispatchSemaphore(value: 0)
    private let isOpen = Atomic<Bool>(false)
    var hold: @Sendable (SongID) -> Void {
        { [self] _ in
            guard !isOpen.load(ordering: .acquiring) else { return }
            entered.signal()
            open.wait()
            open.signal()
        }
    }
    /// Waits (up to 10 s) until the player's thread is held.
    func awaitHeld() -> Bool { entered.wait(timeout: .now() + 10) == .success }
    func release() {
        isOpen.store(true, ordering: .releasing)
        open.signal()
    }
}
