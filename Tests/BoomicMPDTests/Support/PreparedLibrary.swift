import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation

/// A library made once per test process, for conversations that each need their own copy of a
/// big one: committing thousands of songs (and the checkpoint that follows) costs far more than
/// copying the folder it leaves. `ServerConversation.run(…, library:)` copies `library` into the
/// test's own temporary folder and opens the copy; the template itself is never opened again, so
/// no test sees another's changes.
///
/// The songs' paths are in `music`, a folder apart from the library, shared by every copy (the
/// server only reads it, and its files need not exist: the conversations list and queue songs).
struct PreparedLibrary: Sendable {
    /// The folder the songs' paths are in, the server's music folder.
    let music: String
    /// The closed library every conversation copies.
    let library: String
    private let folder: TempDir

    /// Commits `songs(music)` in one import transaction into a new library, and closes it.
    init(_ label: String, songs: (String) -> [Song]) throws {
        folder = TempDir.forProcess(label)
        music = folder.file("music")
        library = folder.file("library")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let session = try LibrarySession.open(at: library, create: true, client: .init(command: "test", version: "0"))
        defer { session.close() }
        let added = songs(music)
        if !added.isEmpty { _ = try session.commit(kind: .import, message: nil) { _ in (added.map(Assertion.addSong), "add") } }
    }
}
