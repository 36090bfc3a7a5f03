import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicPlayback
@testable import BoomicStation
import BoomicTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// A play is committed only after a save that holds it and names its song with its key: a
/// crash between the commit and the next save then resumes that same play, which counts once
/// (`PlayCrashTests.killedAndResumedPlaysCountEachSongOnce` counted a song twice under load,
/// when the save at a song's start was still being written as its play was committed).
@Suite struct CommitAfterSaveTests {
    /// The state writer's saves are held from the first, as a slow disk holds them: the first
    /// song ends meanwhile, and its play is not committed until the writer has saved the place
    /// that names it (committed with no state file written, a crash then starts the queue anew
    /// and the song counts twice).
    @Test func aPlayIsCommittedOnlyOnceASaveNamesIt() throws {
        let fixture = try StationFixture(songs: 2, seconds: 1)
        let store = try PlayerStateStore(libraryLocation: fixture.dir.path)
        let queue = PlayQueue(seed: 1).applying(.add(fixture.songs, at: .end))
        let (first, second) = (queue.entries[0].id, queue.entries[1].id)
        let gate = SaveGate()
        let settings = RoomSettings(sound: SoundSettings(), realtime: true, record: true, keepsVolume: false, warnsEvents: false)
        let room = RoomPlayer(library: fixture.library, store: store, start: .queue(queue), sink: Sinks.open(.null),
                              settings: settings, room: "default", tell: { _ in }, saving: gate.hold, warn: { _ in })
        defer {
            gate.release()
            room.quit()
        }
        let playcount = { fixture.session.basis[fixture.songs[0]]?.playcount ?? 0 }
        #expect(gate.awaitHeld())
        try waitUntil("the first song to end while the saves are held") { room.status.entry == second }
        // What a crash now would leave: the file as the held saves left it.
        // The wait is the test: no commit within 2 s while the saves are held.
        let committedWhileHeld = (try? waitUntil("a commit while the saves are held", timeout: .seconds(2)) { playcount() > 0 }) != nil
        #expect(!committedWhileHeld, "the first song's play was committed with no state file written")
        #expect(try store.load() == nil)
        gate.release()
        try waitUntil("the play committed once the saves go") { playcount() == 1 }
        // The save that holds the play names the first song in that play, or the second.
        let holding = gate.saved.filter { state in state.pending.contains { $0.song == fixture.songs[0] } }
        #expect(!holding.isEmpty && holding.allSatisfy { state in
            state.entry == second || state.entry == first && state.pending.contains { $0.key == state.play }
        }, "\(holding.map { "entry \(String(describing: $0.entry)), play \(String(describing: $0.play))" })")
    }
}

/// Holds the state writer's saves until the test lets go, keeping every state it was given.
private final class SaveGate: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let open = DispatchSemaphore(value: 0)
    private let states = Mutex<[PlayerState]>([])
    private let isOpen = Atomic<Bool>(false)

    var hold: @Sendable (PlayerState) -> Void {
        { [self] state in
            states.withLock { $0.append(state) }
            guard !isOpen.load(ordering: .acquiring) else { return }
            entered.signal()
            open.wait()
            open.signal()
        }
    }

    var saved: [PlayerState] { states.withLock { $0 } }
    /// Waits (up to 10 s) until a save is held.
    func awaitHeld() -> Bool { entered.wait(timeout: .now() + 10) == .success }
    func release() {
        isOpen.store(true, ordering: .releasing)
        open.signal()
    }
}
