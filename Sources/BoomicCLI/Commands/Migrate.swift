import ArgumentParser

/// `boomic migrate`: bringing a library kept by another program into Boomic's log, each run
/// one undoable transaction of kind `migrate`.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Bring in a library kept by another program (beets, MPD).",
        subcommands: [MigrateBeets.self, MigrateMPD.self]
    )
}
