import BoomicSystem
import Foundation

/// What each music folder's cover files looked like to `stat` at the last import
/// (`Walk.covers`), kept in `folder-covers.json`. A song takes its folder's `cover.jpg` when it
/// has no picture of its own, so a cover added, replaced or removed changes songs whose files
/// did not change; comparing these marks is how a rescan sees it without reading a picture.
/// A cache: lost, the next import keeps new marks and reads nothing again for them.
extension LibrarySession {
    private var coverMarksFile: String { location + "/folder-covers.json" }

    /// The marks the last import kept; nil when none did (a library older than them).
    public func folderCoverMarks() -> [String: String]? {
        guard let data = FileManager.default.contents(atPath: coverMarksFile) else { return nil }
        return try? JSONDecoder().decode([String: String].self, from: data)
    }

    /// Keeps `marks`, whole or not at all. Best effort, as a cache: a failure only means the
    /// next import reads the songs of the folders that changed again, and finds nothing new.
    public func keepFolderCoverMarks(_ marks: [String: String]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(marks) else { return }
        try? AtomicFile.write(data, to: coverMarksFile)
    }
}
