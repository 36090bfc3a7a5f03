import BoomicAudio
import BoomicCore
import Dispatch
import Foundation
import Synchronization

/// `boomic loudness QUERY` (as beets' replaygain plugin): measures each song's EBU R128 loudness
/// and sample peak, and each album's as one, on all cores, and commits the ReplayGain 2.0 values
/// (`ReplayGainGeneration`) as one transaction. Two steps, so a front can show the values before
/// committing them (`--dry-run`). Nothing is printed here: files that cannot be decoded are
/// reported through `events` and the rest go on.
public struct LoudnessFlow: Sendable {
    /// One measured song, for the front to show.
    public struct Measurement: Sendable {
        public var song: Song
        /// Integrated loudness in LUFS; nil for silence (no gain is stored then).
        public var loudness: Double?
        public var peak: Double
        /// The album's loudness, when the album was measured whole.
        public var albumLoudness: Double?
        public var albumPeak: Double?
    }

    public let lib: LibrarySession
    /// In the order measured: by album, then songs without one, each in disc and track order.
    public let measurements: [Measurement]
    public let values: [SongID: ReplayGainGeneration.Values]
    /// The change on the basis the session holds now: what to show.
    public let preview: [Assertion]

    /// Measures the songs; an album's values are measured only when the songs hold all of it
    /// (every song of it the library has and can read), since an album's loudness is that of all
    /// its tracks together.
    public init(lib: LibrarySession, songs: [Song], events: any LibraryEvents) throws {
        try lib.requireWritable()
        self.lib = lib
        let basis = lib.basis
        for s in songs where s.missing { events.warn("skipped \(s.path): the file was missing at the last scan") }
        let present = songs.filter { !$0.missing }
        // Whole albums: every song of the album in the library is here.
        let chosen = Set(present.map(\.id))
        var albums: [AlbumKey: [Song]] = [:]
        var loose: [Song] = []
        for s in present {
            if let k = AlbumKey(s) { albums[k, default: []].append(s) } else { loose.append(s) }
        }
        var groups: [[Song]] = [], whole: [Bool] = []
        for k in albums.keys.sorted() {
            let ss = albums[k]!.sorted { ($0.disc ?? 0, $0.track ?? 0, $0.path) < ($1.disc ?? 0, $1.track ?? 0, $1.path) }
            let all = basis.albums[k].map { ids in ids.allSatisfy { chosen.contains($0) || basis[$0]?.missing == true } } ?? true
            if !all {
                events.warn("album '\(ss[0].album ?? "")' is only partly selected: measuring its songs' track gain only (select the whole album, e.g. album:'\(ss[0].album ?? "")', for its album gain)")
            }
            groups.append(ss)
            whole.append(all)
        }
        for s in loose.sorted(by: { $0.path < $1.path }) { groups.append([s]); whole.append(false) }

        let measured = Self.measure(groups, whole: whole, events: events)
        var values: [SongID: ReplayGainGeneration.Values] = [:]
        for m in measured {
            guard let l = m.loudness else {
                events.warn("skipped \(m.song.path): it is silent, so it has no loudness to correct")
                continue
            }
            values[m.song.id] = ReplayGainGeneration.Values(
                trackGain: ReplayGainGeneration.gain(loudness: l), trackPeak: ReplayGainGeneration.peak(m.peak),
                albumGain: m.albumLoudness.map(ReplayGainGeneration.gain(loudness:)), albumPeak: m.albumPeak.map(ReplayGainGeneration.peak))
        }
        measurements = measured
        self.values = values
        preview = ReplayGainGeneration.assertions(values, on: basis)
    }

    /// Commits the values on the latest basis, as one transaction; nil when nothing changes.
    public func commit(message: String?, label: String) throws -> (seq: Int, transaction: Transaction)? {
        let values = self.values
        return try lib.commit(kind: .edit, message: message) { basis in
            let a = ReplayGainGeneration.assertions(values, on: basis)
            return a.isEmpty ? nil : (a, "\(label) (\(a.count) song\(a.count == 1 ? "" : "s"))")
        }
    }

    // MARK: Measuring on all cores

    /// Songs are handed out one at a time to one worker per core, in album order; the meters of an
    /// album are kept until its last song is measured, then the album is measured from them and
    /// they are freed, so at most a few albums' meters are alive at once.
    private static func measure(_ groups: [[Song]], whole: [Bool], events: any LibraryEvents) -> [Measurement] {
        let jobs = groups.enumerated().flatMap { g, ss in ss.indices.map { (group: g, index: $0) } }
        let total = jobs.count
        let progress = events.progress("Measuring loudness", total: total)
        let state = Mutex(State(groups: groups))
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, total))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                guard let job = state.withLock({ s -> (group: Int, index: Int)? in
                    guard s.next < jobs.count else { return nil }
                    defer { s.next += 1 }
                    return jobs[s.next]
                }) else { return }
                let song = groups[job.group][job.index]
                var meter: Meter?
                do { meter = Meter(try LoudnessMeter.measure(song.path)) } catch {
                    events.warn("skipped \(error.localizedDescription)")
                }
                let finished = state.withLock { s in s.record(meter, group: job.group, index: job.index) }
                if let done = finished {
                    // This worker alone holds the album's meters now.
                    if whole[job.group], done.contains(where: { $0 == nil }), done.contains(where: { $0 != nil }) {
                        events.warn("album '\(groups[job.group][0].album ?? "")': not every song could be read, so it gets no album gain")
                    }
                    let album = whole[job.group] && done.allSatisfy { $0 != nil } ? done.compactMap { $0?.meter } : []
                    let loudness = LoudnessMeter.loudness(of: album)
                    let peak = album.map(\.samplePeak).max()
                    let rows = zip(groups[job.group], done).compactMap { song, m in
                        m.map { Measurement(song: song, loudness: $0.meter.loudness, peak: $0.meter.samplePeak,
                                            albumLoudness: loudness, albumPeak: loudness == nil ? nil : peak) }
                    }
                    state.withLock { $0.results[job.group] = rows }
                }
                progress.advance()
            }
        }
        progress.finish()
        return state.withLock { s in s.results.flatMap { $0 } }
    }

    /// A meter handed from the worker that measured a song to the one that finishes its album.
    /// It is used by one thread at a time: the handover goes through `State`'s Mutex, which
    /// orders the first worker's last use before the second's first.
    private final class Meter: @unchecked Sendable {
        let meter: LoudnessMeter
        init(_ meter: LoudnessMeter) { self.meter = meter }
    }

    private struct State: ~Copyable {
        var next = 0
        var pending: [[Meter?]]
        var left: [Int]
        var results: [[Measurement]]

        init(groups: [[Song]]) {
            pending = groups.map { [Meter?](repeating: nil, count: $0.count) }
            left = groups.map(\.count)
            results = [[Measurement]](repeating: [], count: groups.count)
        }

        /// Stores one song's meter (nil when it could not be read); the album's meters when it was
        /// the album's last song, handed out once and forgotten here.
        mutating func record(_ meter: Meter?, group: Int, index: Int) -> [Meter?]? {
            pending[group][index] = meter
            left[group] -= 1
            guard left[group] == 0 else { return nil }
            defer { pending[group] = [] }
            return pending[group]
        }
    }
}
