import BoomicCore
import BoomicLibrary

extension Serve {
    /// The remembered music folders; for a library that remembers none but holds songs (restored
    /// from `library.sqlite` alone, or rebuilt by `import-json`), the folder its songs imply, said
    /// on stderr: without a folder, every song would lie outside the tree clients browse and
    /// search, while `stats` counted them.
    static func musicFolders(_ lib: LibrarySession) -> [String] {
        let remembered = (try? lib.folders()) ?? []
        guard remembered.isEmpty, let inferred = lib.basis.inferredMusicFolder else { return remembered }
        Terminal.warn("boomic serve: the library remembers no music folder (no folders.json beside library.sqlite); "
                      + "serving its songs from \(inferred), the folder that holds them all; 'boomic import FOLDER' names one")
        return [inferred]
    }
}
