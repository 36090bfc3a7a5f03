import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicPlayback
@testable import BoomicStation
import BoomicTestSupport
import Dispatch
import Foundation
import Testing

/// A resumed play keeps its key until its track starts: the state saved while the track is
/// still being opened names the same play, so a second crash and resume count the song once.
@Suite struct ResumeKeyTests {
    let dir = TempDir("resume-key")

    @Test func aSaveBeforeTheResumedTrackStartsKeepsItsPlay() throws {
        let session = try LibrarySession.open(at: dir.path, create: true, client: .init(command: "test", version: "0"))
        defer { session.close() }
        let song = SongID(UUID())
        var queue = PlayQueue(seed: 1).applying(.add([song], at: .end))
        queue.apply(.stop)
        let entry = try #require(queue.entries.first?.id)
        let key = PlayKey(entry: entry, started: 1_234_567)
        let store = try PlayerStateStore(libraryLocation: dir.path)
        var saved = PlayerState(queue: queue, entry: entry, frame: 44_100, play: key, song: nil)
        saved.queue.apply(.play(nil))
        try store.save(saved)
        // The decode thread is held in the song's lookup (a sleeping disk's open) until the
        // state has been saved: the window between the room's start and its track's.
        let gate = DispatchSemaphore(value: 0)
        let held = DispatchSemaphore(value: 0)
        let settings = RoomSettings(sound: SoundSettings(), realtime: false, record: false, keepsVolume: false, warnsEvents: false)
        let station = Station(oneRoom: FixedLibrary(session: session, basis: DataBasis()), store: store, output: .null,
                              settings: settings, start: .resumed, opening: { _ in
            held.signal()
            gate.wait()
        }, warn: { _ in })
        let room = try #require(station.player("default"))
        defer {
            gate.signal()
            room.quit()
        }
        held.wait()
        room.saveState()
        let now = try #require(try store.load())
        // The song is not in this library: the resume starts it from its start, as the same play.
        let place = try #require(saved.resumePoint(in: DataBasis()))
        #expect(now.entry == entry && now.play == key && now.frame == place.frame,
                "saved \(String(describing: now.entry)) \(String(describing: now.play)) \(now.frame)")
    }
}
