import ArgumentParser
import BoomicAudio
import BoomicCore
import BoomicLibrary
import BoomicPlayback
import BoomicStation
import Foundation

struct Play: ParsableCommand, TakesTerms {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play songs: a query, a taglist, a playlist or whole albums.",
        discussion: """
            Without a QUERY (or list), the whole library plays in `ls` order. On a terminal a status \
            line shows what plays; otherwise one line per song goes to stdout and boomic exits when \
            the queue ends. SIGINT and SIGTERM save the queue and the position for --resume. \
            Example: boomic play --album artist:miles --output wav:/tmp/out.wav
            """
    )

    @OptionGroup var options: LibraryOptions
    @Option(help: ArgumentHelp("Play this taglist's songs.", valueName: "NAME"))
    var taglist: String?
    @Option(help: ArgumentHelp("Play this playlist.", valueName: "NAME"))
    var playlist: String?
    @Option(help: ArgumentHelp("Play whole albums holding a song that matches QUERY, in disc and track order.", valueName: "QUERY"))
    var album: String?
    @Flag(help: "Play in random order: every song once before any repeats.")
    var shuffle = false
    @Option(help: "The seed of the random order, to play the same order again.")
    var seed: UInt64?
    @Option(name: .customLong("repeat"), help: ArgumentHelp("At the end of the queue: off, all (start again) or one (the same song again).", valueName: "MODE"))
    var repeatMode: PlayQueue.Repeat = .off
    @Option(help: ArgumentHelp("Where to play: alsa, alsa:DEVICE, null or wav:FILE (default: config.toml's, else alsa).", valueName: "OUTPUT"))
    var output: String?
    @Option(help: ArgumentHelp("Equalizer: a preset (rock, jazz, …; see playback.md), an AutoEq/Equalizer APO file, or bands such as 60=+3,1k=-2.", valueName: "SPEC"))
    var eq: String?
    @Option(help: ArgumentHelp("ReplayGain: off, track, album or auto (album unless shuffling).", valueName: "MODE"))
    var replaygain: ReplayGainMode?
    @Option(help: ArgumentHelp("dB added to ReplayGain's gain, when it is on (e.g. --preamp -6).", valueName: "DB"))
    var preamp: Double?
    @Option(name: .customLong("replaygain-missing"), help: ArgumentHelp("dB for songs without ReplayGain values, when it is on.", valueName: "DB"))
    var replaygainMissing: Double?
    @Option(help: ArgumentHelp("Volume 0–100 (100: unchanged, bit-exact).", valueName: "N"))
    var volume: Int?
    @Option(help: ArgumentHelp("Tempo 0.5–2.0, pitch unchanged (1: unchanged, bit-exact).", valueName: "X"))
    var speed: Double?
    @Flag(help: "Render null and wav: outputs in real time instead of as fast as decoding allows.")
    var realtime = false
    @Option(help: ArgumentHelp("Stop after this long (30m, 1h, 90s), fading out over the last 10 s, or at the end of the current song (end).", valueName: "TIME"))
    var sleep: String?
    @Flag(help: "Continue the saved queue where it stopped.")
    var resume = false
    @Flag(help: "Record no plays (counts, skips, last played, bookmarks).")
    var noRecord = false
    @OptionGroup var read: ReadOptions
    @Argument(help: "The query (as for ls).")
    var query: [String] = []
    var terms: [String] { get { query } set { query = newValue } }

    func validate() throws {
        if let output {
            do { _ = try SinkSpec(parsing: output) } catch { throw ValidationError(error.localizedDescription) }
        }
        if let volume, !(0...100).contains(volume) { throw ValidationError("--volume takes 0 to 100, not \(volume)") }
        if let speed, !TempoStretcher.range.contains(speed) { throw ValidationError("--speed takes 0.5 to 2.0, not \(speed)") }
        for (name, db) in [("--preamp", preamp), ("--replaygain-missing", replaygainMissing)] {
            if let db, !(db.isFinite && abs(db) <= 60) { throw ValidationError("\(name) takes dB between -60 and 60") }
        }
        if let eq { try Self.checkEQ(eq) }
        if let sleep, sleep != "end" {
            do { _ = try DurationText.seconds(sleep) } catch {
                throw ValidationError("--sleep takes a time with its unit (30m, 1h, 90s) or 'end', not '\(sleep)'")
            }
        }
        if [taglist, playlist, album].compactMap({ $0 }).count > 1 {
            throw ValidationError("choose one of --taglist, --playlist and --album")
        }
    }

    func validateTerms() throws {
        if resume, !query.isEmpty || taglist != nil || playlist != nil || album != nil {
            throw ValidationError("--resume continues the saved queue; it takes no query or list")
        }
        if resume, read.asOf != nil || read.view != nil {
            throw ValidationError("--resume plays the saved queue from the library as it is now; it takes no --as-of or --view")
        }
    }

    func run() throws {
        var config = try PlayerConfig.load()
        config.output.override(output)
        config.replaygain.override(replaygain?.rawValue)
        config.preamp.override(preamp)
        config.replaygainMissing.override(replaygainMissing)
        config.eq.override(eq)
        config.volume.override(volume)
        config.speed.override(speed)
        let lib = try Library.open(at: options.location, create: false, resident: true)
        let sound = try Self.sound(config, profiles: lib.basis)
        let basis = try lib.basis(asOf: read.asOf, view: read.view)
        let store = try PlayerStateStore(libraryLocation: lib.location)
        let start: RoomStart
        if resume {
            guard let saved = try store.load() else {
                throw CLIError("nothing to resume: no queue was saved in \(store.statePath)")
            }
            if saved.playedToItsEnd {
                // Nothing is left to go on with (a run killed as it finished saved this); plays it
                // saved as pending are still recorded, each once by its key.
                if !noRecord {
                    PlayRecorder(session: lib, pending: saved.pending, warn: { Terminal.warn("boomic play: \($0)") }).flushPending()
                }
                Terminal.warn("boomic play: the saved queue played to its end; nothing to resume ('boomic play' starts a new one)")
                return
            }
            start = .resumed
        } else {
            let songs = try chosenSongs(in: basis)
            guard !songs.isEmpty else { throw CLIError("nothing to play: no song matches") }
            var queue = PlayQueue(seed: seed ?? UInt64.random(in: 0...UInt64.max))
                .applying(.add(songs.map(\.id), at: .end))
                .applying(.setRepeat(repeatMode))
            if shuffle { queue.apply(.setRandom(true)) }
            start = .queue(queue)
        }
        let spec = try SinkSpec(parsing: config.output.value)
        // A sound card paces itself; ALSA's own `null` and `file` plugins do not, and an alsa
        // output is always heard in real time, so the engine paces those by its clock.
        let paced: Bool
        if case .alsa = spec { paced = true } else { paced = realtime }
        // Carried out before the room plays, so that the sleep timer counts from the first sample.
        var first: [PlaybackCommand] = []
        if sleep == "end" {
            first.append(.queue(.setSingle(.oneshot)))
        } else if let sleep {
            first.append(.sleep(after: try DurationText.seconds(sleep)))
        }
        let settings = RoomSettings(sound: sound, realtime: paced, record: !noRecord && read.asOf == nil,
                                    speedGiven: speed != nil, keepsVolume: false, warnsEvents: false)
        // `--sleep end`: `single oneshot` waits paused at the next song's start (MPD's rule);
        // here the run ends there.
        let front = PlayerFront(stopsAtSongEnd: sleep == "end")
        let screen = Terminal.stdinIsTTY && Terminal.stdoutIsTTY ? PlayerScreen(front: front, basis: basis) : nil
        if let screen {
            front.show { screen.show($0) }
        } else {
            front.show { event in
                switch event {
                case let .started(_, song, _):
                    if let s = basis[song] { Out.line("▶ " + SongFormat.line(s)) }
                case let .warning(message):
                    Terminal.warn("boomic play: \(message)")
                default:
                    break
                }
            }
        }
        // `boomic play` is a station of one room, composed as `serve` composes each of its rooms.
        let station = Station(oneRoom: FixedLibrary(session: lib, basis: basis), store: store, output: spec, settings: settings,
                              start: start, first: first, watch: { front.hear($0) },
                              warn: { Terminal.warn("boomic play: \($0)") })
        guard let room = station.player("default") else { throw CLIError("the player did not start") }
        // An output hung in one call for `Station.hangLimit` ends the run as a failed one does.
        station.watchOutputs()
        defer { station.stopWatchingOutputs() }
        front.attach(room)
        let outcome: PlayerFront.Outcome
        if let screen {
            let timer = screen.start()
            outcome = front.run()
            timer.cancel()
            screen.finish()
        } else {
            outcome = front.run()
        }
        if !outcome.playedAny, outcome.failure == nil, !outcome.interrupted {
            throw CLIError("nothing playable: no song in the queue could be opened")
        }
        if let failure = outcome.failure { throw CLIError(failure.description) }
    }

    /// `--eq`'s syntax, checked while parsing (exit 64); a file that cannot be read, or a name
    /// that may be a saved profile, is looked up at run time (exit 1 when it is neither).
    static func checkEQ(_ spec: String) throws {
        do {
            _ = try EQSpec.resolve(spec, savedProfile: { _ in nil })
        } catch let error as EQSpecError {
            switch error {
            case .unreadableFile, .unknown: return
            default: throw ValidationError("--eq: \(error.localizedDescription)")
            }
        }
    }

    /// The sound settings in force: config.toml's under the flags; `--eq NAME` finds the
    /// library's saved profiles in `profiles`.
    static func sound(_ config: PlayerConfig, profiles: DataBasis) throws -> SoundSettings {
        let name = config.eq.value
        let eq: EQSpec?
        do {
            eq = try config.equalizer(savedProfile: EQCommand.savedProfile(in: profiles))
        } catch let error as ConfigError {
            throw error // config.toml's eq: the file, line and key, never a flag not given
        } catch {
            throw CLIError("--eq \(name): \(error.localizedDescription)")
        }
        return SoundSettings(eq: eq, eqName: name, replayGain: ReplayGainMode(rawValue: config.replaygain.value) ?? .off,
                             preamp: config.preamp.value, missing: config.replaygainMissing.value, volume: config.volume.value,
                             speed: config.speed.value)
    }

    private func chosenSongs(in basis: DataBasis) throws -> [Song] {
        if let name = taglist {
            guard let (_, list) = basis.taglist(named: name) else { throw CLIError("no taglist named '\(name)'; see 'boomic taglist ls'") }
            return basis.songs(in: list)
        }
        if let name = playlist {
            guard let (_, list) = basis.playlist(named: name) else { throw CLIError("no playlist named '\(name)'; see 'boomic playlist ls'") }
            return list.songs.compactMap { basis[$0] }
        }
        if let album {
            let terms = album.split(separator: " ").map(String.init)
            return Browse.wholeAlbums(of: try basis.songs(matching: QueryReading.parse(terms, in: basis)), in: basis)
        }
        return try basis.songs(matching: QueryReading.parse(query, in: basis))
    }
}

extension PlayQueue.Repeat: ExpressibleByArgument {}
extension ReplayGainMode: ExpressibleByArgument {}
