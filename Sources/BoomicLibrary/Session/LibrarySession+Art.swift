import BoomicMedia
import BoomicSystem
import Glibc

extension LibrarySession {
    /// The library's picture store, `art/`, reading cover files from inside `musicFolders`
    /// only (the remembered folders unless given).
    ///
    /// Pictures get the library's own permissions: the read and write bits `library.sqlite`
    /// has (SQLite makes it 0644 less the umask; `chmod 600` it and pictures stored from then
    /// on are 0600), and `art/`, when made, those of the library folder.
    public func artStore(musicFolders: [String]? = nil) throws(MediaError) -> ArtStore {
        let mode = (try? SystemCall.status(of: location + "/" + Self.logName)).map { $0.st_mode & 0o666 }
        return try ArtStore(directory: location + "/art", musicFolders: musicFolders ?? ((try? folders()) ?? []), fileMode: mode)
    }
}
