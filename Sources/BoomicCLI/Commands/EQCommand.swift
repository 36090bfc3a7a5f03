import ArgumentParser
import BoomicAudio
import BoomicCore
import BoomicLibrary
import Foundation

struct EQCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eq",
        abstract: "Save, list, show and remove equalizer profiles (kept in the library, with history).",
        discussion: """
            A profile is saved from any --eq SPEC: a preset, another profile, an AutoEq or \
            Equalizer APO file (copied in: deleting the file later changes nothing), or bands such as \
            60=+3,1k=-2. 'boomic play --eq NAME' and config.toml's eq = "NAME" use it; each save and \
            removal is a transaction 'boomic undo' takes back. See Documentation/playback.md.
            """,
        subcommands: [Save.self, List.self, Show.self, Remove.self]
    )

    /// A saved profile's spec, for `--eq NAME` wherever a library is open.
    static func savedProfile(in basis: DataBasis) -> (String) -> EQSpec? {
        { name in basis.eqProfile(named: name)?.profile.spec }
    }

    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "save", abstract: "Save SPEC as the profile NAME (a new one, or replacing that profile).")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var change: ChangeOptions
        @Argument(help: "The profile's name.") var name: String
        @Argument(help: "A preset, a saved profile, an AutoEq/Equalizer APO file, or bands such as 60=+3,1k=-2.") var spec: String

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            let resolved: EQSpec
            do { resolved = try EQSpec.resolve(spec, savedProfile: EQCommand.savedProfile(in: lib.basis)) } catch {
                throw CLIError("--eq \(spec): \(error.localizedDescription)")
            }
            let c = try lib.commit(kind: .eq, message: change.message) { basis in
                let a = try EQProfileGeneration.save(name, spec: resolved, id: ListID(UUID()), on: basis)
                return a.isEmpty ? nil : (a, "eq save \(name)")
            }
            if let c {
                Out.line("Saved EQ profile '\(name)': \(resolved.summary) (transaction \(c.seq)).")
            } else {
                Out.line("EQ profile '\(name)' already holds that; nothing changed.")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the saved profiles, then the built-in presets.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: OutputOptions
        @Option(name: .customLong("as-of"), help: ArgumentHelp("The profiles as they were at REF.", valueName: "REF"))
        var asOf: String?

        struct Row: Encodable {
            var name: String
            var kind: String
            var builtIn: Bool
            var bands: Int
            var summary: String
        }

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            let basis = try lib.basis(asOf: asOf)
            let saved = basis.eqProfilesByName.map { _, p in
                Row(name: p.name, kind: p.spec.kindName, builtIn: false, bands: p.spec.bands.count, summary: p.spec.summary)
            }
            let presets = EQPreset.all.map { preset in
                let spec = EQSpec(graphic: preset.sliders)
                return Row(name: preset.name, kind: "graphic", builtIn: true, bands: 0, summary: spec.summary)
            }
            if output.json { try JSONOut.printArray(saved + presets); return }
            for r in saved { Out.line("\(Terminal.bold(Terminal.printable(r.name)))  " + Terminal.dim("\(r.kind): \(r.summary)")) }
            if saved.isEmpty { Out.line(Terminal.dim("No saved profiles yet; 'boomic eq save NAME SPEC' makes one.")) }
            for r in presets { Out.line("\(r.name)  " + Terminal.dim("built in: \(r.summary)")) }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "A profile's (or preset's) bands, preamp, and the whole chain's gain at the six graphic centres.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: OutputOptions
        @Option(name: .customLong("as-of"), help: ArgumentHelp("The profile as it was at REF.", valueName: "REF"))
        var asOf: String?
        @Argument(help: "The profile's (or a preset's) name.") var name: String

        struct Shown: Encodable {
            var name: String
            var builtIn: Bool
            var spec: EQSpec
            /// dB of the designed filters at each graphic centre, at 44.1 kHz.
            var response: [String: Double]
            /// The gain applied before them so that nothing clips (minus the largest boost).
            var preamp: Double
        }

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            let basis = try lib.basis(asOf: asOf)
            let spec: EQSpec, builtIn: Bool, shownName: String
            if let preset = EQPreset.named(name) {
                (spec, builtIn, shownName) = (preset, true, name.lowercased())
            } else {
                let (_, profile) = try EQProfileGeneration.find(name, in: basis)
                (spec, builtIn, shownName) = (profile.spec, false, profile.name)
            }
            let design = spec.design(sampleRate: 44_100)
            var response: [String: Double] = [:]
            for f in EQSpec.graphicFrequencies {
                response[Self.hz(f)] = ((design.response(at: f) - design.gain) * 10).rounded() / 10
            }
            if output.json {
                let data = try JSONOut.encoder().encode(Shown(name: shownName, builtIn: builtIn, spec: spec, response: response,
                                                                 preamp: (design.gain * 10).rounded() / 10))
                Out.bytes(data)
                Out.line()
                return
            }
            Out.line(Terminal.bold(Terminal.printable(shownName)) + Terminal.dim(builtIn ? "  (built-in preset)" : "  (saved profile)"))
            if spec.graphic.contains(where: { $0 != 0 }) {
                Out.line("  sliders: " + zip(EQSpec.graphicFrequencies, spec.graphic).map { "\(Self.hz($0))=\(Self.db($1))" }.joined(separator: " "))
            }
            for b in spec.bands {
                Out.line("  \(b.kind.rawValue) \(Self.hz(b.frequency)) \(Self.db(b.gain)) dB Q \(b.q)")
            }
            if !spec.curve.isEmpty { Out.line("  GraphicEQ curve: \(spec.curve.count) points") }
            if let preamp = spec.preamp { Out.line("  preamp: \(Self.db(preamp)) dB") }
            Out.line("  response at the centres: " + EQSpec.graphicFrequencies.map { "\(Self.hz($0)) \(Self.db(response[Self.hz($0)] ?? 0))" }
                .joined(separator: ", ") + " dB")
            Out.line("  automatic preamp: \(Self.db(design.gain)) dB (minus the largest boost, so nothing clips)")
        }

        static func hz(_ f: Double) -> String {
            f >= 1000 ? "\(Self.trimmed(f / 1000))k" : Self.trimmed(f)
        }

        static func db(_ v: Double) -> String { (v > 0 ? "+" : "") + trimmed((v * 10).rounded() / 10) }

        static func trimmed(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a saved profile ('boomic undo' brings it back).")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var change: ChangeOptions
        @Argument(help: "The profile's name.") var name: String

        func run() throws {
            let lib = try Library.open(at: options.location, create: false)
            let c = try lib.commit(kind: .eq, message: change.message) { basis in
                (try EQProfileGeneration.remove(name, on: basis), "eq rm \(name)")
            }
            if let c { Out.line("Removed EQ profile '\(name)' (transaction \(c.seq)); 'boomic undo' brings it back.") }
        }
    }
}
