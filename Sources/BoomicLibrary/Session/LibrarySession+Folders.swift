import BoomicCore
import BoomicSystem
import Foundation

extension LibrarySession {
    private var foldersFile: String { Self.foldersFile(at: location) }

    private static func foldersFile(at location: String) -> String { location + "/folders.json" }

    /// The remembered music folders, each once (a file written before they were kept unique
    /// may repeat one).
    public func folders() throws -> [String] {
        Self.folders(at: location)
    }

    /// The music folders the library at `location` remembers, read without opening it (an
    /// export of a damaged log carries them too).
    public static func folders(at location: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: foldersFile(at: location)) else { return [] }
        return unique((try? JSONDecoder().decode([String].self, from: data)) ?? [])
    }

    /// Remembers folders for `import` (absolute, normalised); returns the ones that were new. A
    /// folder remembered under another spelling (`asRemembered`) is not new.
    public func addFolders(_ new: [String]) throws -> [String] {
        let new = try asRemembered(new)
        var all = try folders()
        let known = Set(all.map(PathKey.init))
        let added = Self.unique(new).filter { !known.contains(PathKey($0)) }
        guard !added.isEmpty else { return [] }
        all += added
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(all)
        // Whole or not at all, and on disk before `import` goes on to scan them.
        do throws(SystemError) {
            try AtomicFile.write(data, to: foldersFile)
        } catch {
            throw LibraryError("cannot write \(foldersFile) (\(error.reason)); check that the library folder is writable")
        }
        return added
    }

    /// `given`, each folder that is a remembered one under another spelling (through a
    /// symbolic link, or the link's target) spelled as remembered: the same folder remembered
    /// twice would be walked twice and be two top-level directories to `boomic serve`, one of
    /// them empty (the scan lists a known file under its known path).
    public func asRemembered(_ given: [String]) throws -> [String] {
        let remembered = try folders()
        let known = Set(remembered.map(PathKey.init))
        var byRealPath: [PathKey: String] = [:]
        for folder in remembered {
            if let real = SystemCall.realPath(folder) { byRealPath[PathKey(real)] = byRealPath[PathKey(real)] ?? folder }
        }
        return given.map { folder in
            guard !known.contains(PathKey(folder)), let real = SystemCall.realPath(folder) else { return folder }
            return byRealPath[PathKey(real)] ?? folder
        }
    }

    /// Each path once (by bytes), in first-seen order.
    private static func unique(_ paths: [String]) -> [String] {
        var seen = Set<PathKey>()
        return paths.filter { seen.insert(PathKey($0)).inserted }
    }
}
