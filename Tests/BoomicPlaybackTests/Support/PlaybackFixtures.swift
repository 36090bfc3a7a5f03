import BoomicAudio
import BoomicCore
@testable import BoomicPlayback
import BoomicTestSupport
import Foundation
import Testing

/// Songs for the engine's tests: tracks cut at odd sample offsets from one continuous tone, as
/// FLAC, each with a song id, and the tone's own samples to compare with.
struct ToneAlbum {
    let dir: TempDir
    let songs: [PlayableSong]
    /// The whole tone, interleaved stereo 16-bit samples.
    let tone: [Int32]
    /// Where each track starts in `tone`, in frames, and the tone's length.
    let bounds: [Int]

    init(seconds: Double = 3) throws {
        dir = TempDir("boomic-engine")
        bounds = try ToneTracks.make(in: dir.path, seconds: seconds)
        let d = try Decoders.open(dir.path + "/tone.wav")
        var all: [Int32] = []
        while try d.read(into: &all, maxFrames: 8192) > 0 {}
        tone = all
        var random = SplitMix64(seed: 7)
        let folder = dir.path
        songs = try ToneTracks.cuts.indices.map { i in
            let file = folder + "/t\(i).flac"
            try toolOutput(["flac", "-s", "-f", "-o", file, folder + "/t\(i).wav"])
            return PlayableSong(id: SongID(random.uuid()), path: file)
        }
    }

    func resolver() -> @Sendable (SongID) -> PlayableSong? {
        let byID = Dictionary(uniqueKeysWithValues: songs.map { ($0.id, $0) })
        return { byID[$0] }
    }

    /// A queue of these songs, playing.
    func queue(_ indices: [Int]? = nil) -> PlayQueue {
        PlayQueue(seed: 1)
            .applying(.add((indices ?? Array(songs.indices)).map { songs[$0].id }, at: .end))
            .applying(.play(nil))
    }

    /// The tone's samples of track `i`.
    func samples(ofTrack i: Int) -> ArraySlice<Int32> { tone[(bounds[i] * 2)..<(bounds[i + 1] * 2)] }
}

/// Collects an engine's events until `idle` (or a time limit).
func events(of engine: PlaybackEngine, until stop: @escaping @Sendable (PlaybackEvent) -> Bool = { $0 == .idle },
            timeout: Duration = .seconds(20)) async -> [PlaybackEvent] {
    await withTaskGroup(of: [PlaybackEvent]?.self) { group in
        group.addTask {
            var seen: [PlaybackEvent] = []
            for await e in engine.events {
                seen.append(e)
                if stop(e) { break }
            }
            return seen
        }
        group.addTask {
            // A deadline, not a wait for the engine: a test that never sees its event fails.
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next()!
        group.cancelAll()
        return first ?? []
    }
}

/// Index of the first difference, for failure messages that name a place instead of printing arrays.
func firstDifference(_ a: some Collection<Int32>, _ b: some Collection<Int32>) -> Int? {
    var i = 0
    for (x, y) in zip(a, b) {
        if x != y { return i }
        i += 1
    }
    return a.count == b.count ? nil : i
}

/// Waits until the decode thread has begun two turns after this call, so that one whole turn ran
/// after it: the commands given before taken, what the output wrote followed, the status
/// published. (A command that changes nothing, and the generation the thread takes.)
func aWholeTurn(of engine: PlaybackEngine) async throws {
    for _ in 0..<2 {
        _ = engine.perform([.queue(.setConsume(engine.status.queue.consume))])
        let sent = engine.channel.shared.withLock { $0.generation }
        try await waitUntil("the decode thread to take every command sent") { engine.channel.shared.withLock { $0.taken >= sent } }
    }
}

/// Waits until the decode thread has decoded as far ahead as it goes: the ring full, or the
/// thread waiting with nothing more to do.
func decodedAhead(_ engine: PlaybackEngine) async throws {
    try await waitUntil("the ring decoded ahead") { engine.ring.isFull || engine.ring.engineWaiting.load(ordering: .acquiring) }
}
