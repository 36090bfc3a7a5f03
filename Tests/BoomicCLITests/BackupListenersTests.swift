import BoomicCore
import BoomicLibrary
import BoomicTestSupport
import Foundation
import Testing

/// `boomic backup FILE` carries the API users' bookmarks and saved play queues
/// (`listeners.json`, not in the log) beside FILE, as it carries the accounts.
@Suite struct BackupListenersTests {
    @Test func backupCopiesListenersBesideTheFile() throws {
        let box = try Sandbox(samples: false)
        try box.succeed("init")
        let target = box.root + "/b.sqlite"
        let copy = target + ".listeners.json"
        // Nothing saved yet: no copy.
        try box.succeed("backup", target)
        #expect(!FileManager.default.fileExists(atPath: copy))
        try FileManager.default.removeItem(atPath: target)

        let song = SongID(UUID())
        let store = try ListenerStateStore(libraryLocation: box.library)
        try store.setBookmark(song, position: 61_000, comment: "the solo", for: "anna", at: 1_800_000_000)
        try store.savePlayQueue(.init(songs: [song], current: song, position: 5_000, changed: 1_800_000_001, changedBy: "Symfonium"),
                                for: "anna")

        let backup = try box.succeed("backup", target)
        #expect(backup.lines.last == "Copied the bookmarks and saved play queues to \(copy)", "\(backup)")
        #expect(FileManager.default.contents(atPath: copy) == FileManager.default.contents(atPath: box.library + "/listeners.json"))
        #expect((try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? Int) == 0o600)

        // Restored under the library's name, the copy gives anna her bookmark and queue back.
        let restored = box.root + "/restored"
        try FileManager.default.createDirectory(atPath: restored, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: copy, toPath: restored + "/listeners.json")
        let back = try ListenerStateStore(libraryLocation: restored)
        #expect(back.bookmarks(of: "anna").map(\.comment) == ["the solo"])
        #expect(back.playQueue(of: "anna")?.songs == [song])

        // A second backup to the same name needs --force, for this copy too.
        try FileManager.default.removeItem(atPath: target)
        let again = try box.boomic("backup", target)
        #expect(again.status == 1 && again.stderr.contains(copy + " already exists"), "\(again)")
        // With nothing saved any more, --force removes the old copy: a restore brings back none.
        try store.forget("anna")
        try FileManager.default.removeItem(atPath: box.library + "/listeners.json")
        try box.succeed("backup", "--force", target)
        #expect(!FileManager.default.fileExists(atPath: copy))
    }
}
