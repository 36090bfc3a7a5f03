import ArgumentParser
import BoomicCore
import BoomicLibrary
import Foundation

struct Loudness: ParsableCommand, TakesTerms {
    static let configuration = CommandConfiguration(
        commandName: "loudness",
        abstract: "Measure loudness (EBU R128) and store ReplayGain 2.0 values, in one transaction.",
        discussion: """
            Measures every matching song, and each album whose songs all match as one, on all cores, \
            and sets replaygain_track_gain/peak and replaygain_album_gain/peak (gain to -18 LUFS; \
            peak: the sample peak, 1.0 = full scale). Shows the values and asks on a terminal (-y to \
            skip). 'boomic write' then puts them into the files; 'boomic undo' takes them back. \
            A file that cannot be decoded is one warning line; the rest go on.
            """
    )

    @OptionGroup var options: LibraryOptions
    @OptionGroup var change: ChangeOptions
    @OptionGroup var confirm: ConfirmOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The songs to measure (none: every song).")
    var query: [String] = []
    var terms: [String] { get { query } set { query = newValue } }

    struct Row: Encodable {
        var id, path: String
        var loudness: Double?
        var replaygain_track_gain, replaygain_track_peak, replaygain_album_gain, replaygain_album_peak: Double?
        var album_loudness: Double?
    }

    func run() throws {
        let lib = try Library.open(at: options.location, create: false)
        let songs = try lib.basis.songs(matching: ChangeQuery.parse(query, in: lib.basis))
        if songs.isEmpty { throw CLIError("no songs match '\(query.joined(separator: " "))'", exitCode: 1) }
        let flow = try LoudnessFlow(lib: lib, songs: songs, events: TerminalEvents())
        if output.json {
            try JSONOut.printArray(flow.measurements.map { m in
                let v = flow.values[m.song.id]
                return Row(id: m.song.id.description, path: m.song.path, loudness: m.loudness.map { ($0 * 100).rounded() / 100 },
                           replaygain_track_gain: v?.trackGain, replaygain_track_peak: v?.trackPeak,
                           replaygain_album_gain: v?.albumGain, replaygain_album_peak: v?.albumPeak,
                           album_loudness: m.albumLoudness.map { ($0 * 100).rounded() / 100 })
            })
        } else {
            for m in flow.measurements {
                let v = flow.values[m.song.id]
                let track = m.loudness.map { String(format: "%7.2f LUFS", $0) } ?? "  silent    "
                let gain = v.map { String(format: "%+6.2f dB  peak %.6f", $0.trackGain, $0.trackPeak) } ?? ""
                let album = v?.albumGain.map { String(format: "  album %+6.2f dB", $0) } ?? ""
                Out.line("\(track)  \(gain)\(album)  \(SongFormat.line(m.song))")
            }
        }
        let preview = flow.preview
        let say: (String) -> Void = output.json ? { Terminal.warn($0) } : { Out.line($0) }
        guard !preview.isEmpty else { say("No changes to make: the songs already hold these values."); return }
        if confirm.dryRun { say("Dry run: \(Formatting.count(preview.count, "song")) would change."); return }
        guard Terminal.confirm("Store the ReplayGain values of \(Formatting.count(preview.count, "song"))?", yes: confirm.yes) else {
            say("Nothing changed."); return
        }
        if let c = try flow.commit(message: change.message, label: "loudness \(query.joined(separator: " "))".trimmingCharacters(in: .whitespaces)) {
            say("Stored ReplayGain values of \(Formatting.count(c.transaction.assertions.count, "song")) (transaction \(c.seq)); 'boomic write' puts them into the files, 'boomic undo' takes them back.")
        }
    }
}
