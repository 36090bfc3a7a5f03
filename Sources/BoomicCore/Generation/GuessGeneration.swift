/// The generation function for what Boomic guesses after an import: values a file lacks, read
/// from where it lies (DESIGN §1). Committed as a transaction of its own (kind `guess`) right
/// after the import's, so `undo` takes back the guesses alone.
///
/// The rules (Documentation/import.md):
/// - a folder named as a disc (`CD2`, `Disc 2`, `disc-3`, `CD2 - Bonus`: `NameGuess.discNumber`)
///   gives its songs that disc, and `disctotal` the highest disc among its sibling folders;
/// - an album tag with a disc suffix (`Foo (CD1)`, `Foo [Disc 2]`: `NameGuess.albumWithoutDisc`)
///   becomes `Foo`, and gives that disc;
/// - a folder where some file has no title gets title, track, artist (and disc) from its file
///   names, one pattern for the whole folder (`NameGuess.fromFileNames`, as beets' fromfilename);
/// - a file with no tags at all also gets its album (and year, `Album (1999)`) from its folder,
///   or from the folder above a disc folder, and its album artist from the folder above that,
///   when both lie inside a music folder (`Artist/Album/`).
///
/// A guess fills only what the file lacks: a tag in the file always wins. It is applied the way
/// `modify` applies a value (`Song.edit`), so rescans keep it while the file lacks the tag, and
/// the field is marked in `Song.guessed`. A field the user set (no mark, a value the file lacks)
/// is never guessed over; a marked one is guessed again when its song is.
public enum GuessGeneration {
    /// How many songs took guesses, and how many took each field.
    public struct Summary: Equatable, Sendable {
        public var songs = 0
        public var fields: [SongField: Int] = [:]
        public init() {}
    }

    /// The assertions guessing for `ids` (songs an import added or changed) on `basis`.
    ///
    /// - Parameter musicFolders: the library's music folders: names are read only from folders
    ///   inside them, never from a music folder itself or above it.
    public static func guesses(basis: DataBasis, songs ids: [SongID], musicFolders: [String])
        -> (assertions: [Assertion], summary: Summary) {
        var candidates = ids.compactMap { basis[$0] }.filter { !$0.missing }
        guard !candidates.isEmpty else { return ([], Summary()) }
        let folders = Set(candidates.map { PathKey(parent(of: $0.path)) })
        let discParents = Set(folders.compactMap { f in
            NameGuess.discNumber(folderName: lastComponent(of: f.path)) != nil ? PathKey(parent(of: f.path)) : nil
        })
        // One pass over the library: the songs of each candidate's folder (file names are read
        // over the whole folder) and the disc folders beside each disc folder.
        var inFolder: [PathKey: [Song]] = [:]
        var discTotals: [PathKey: Int] = [:]
        var chosen = Set(candidates.map(\.id))
        for (_, s) in basis.songs where !s.missing {
            let folder = parent(of: s.path)
            let key = PathKey(folder)
            if folders.contains(key) { inFolder[key, default: []].append(s) }
            guard !discParents.isEmpty, let n = NameGuess.discNumber(folderName: lastComponent(of: folder)) else { continue }
            let above = PathKey(parent(of: folder))
            guard discParents.contains(above) else { continue }
            discTotals[above] = max(discTotals[above] ?? 0, n)
            // A disc folder that appeared raises the guessed total of its siblings' songs.
            if s.guessed.contains(SongField.disctotal.rawValue), chosen.insert(s.id).inserted { candidates.append(s) }
        }
        var fromNames: [PathKey: [SongID: NameGuess.NameFields]] = [:]
        for (folder, songs) in inFolder where songs.contains(where: { FileView($0).lacks(.title) }) {
            let sorted = songs.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
            let fields = NameGuess.fromFileNames(sorted.map { baseName(of: $0.path) })
            guard !fields.isEmpty else { continue }
            fromNames[folder] = Dictionary(uniqueKeysWithValues: zip(sorted.map(\.id), fields))
        }

        var out: [Assertion] = []
        var summary = Summary()
        for old in candidates.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }) {
            let proposals = proposals(for: old, discTotals: discTotals,
                                      names: fromNames[PathKey(parent(of: old.path))]?[old.id], musicFolders: musicFolders)
            // Most songs of a tidy library: nothing to guess, nothing to compare.
            if proposals.isEmpty { continue }
            var new = old
            var marks = Set(old.guessed)
            let file = FileView(old)
            var took: [SongField] = []
            for (field, value) in proposals {
                let current = field.value(in: old)
                let mayGuess: Bool
                if marks.contains(field.rawValue) {
                    mayGuess = true
                } else if field == .album {
                    // The album tag itself, with its disc suffix: unless the user changed it.
                    mayGuess = current == file.value(field)
                } else {
                    mayGuess = file.lacks(field) && FileView.isEmpty(current)
                }
                guard mayGuess, field.normalize(value) != current else { continue }
                new.edit(field, to: value)
                marks.insert(field.rawValue)
                took.append(field)
            }
            new.guessed = marks.sorted()
            let p = old.patch(to: new)
            guard !p.isEmpty else { continue }
            out.append(.updateSong(old.id, p))
            summary.songs += 1
            for f in took { summary.fields[f, default: 0] += 1 }
        }
        return (out, summary)
    }

    /// Every value the song's place gives, before asking whether the song may take it.
    static func proposals(for s: Song, discTotals: [PathKey: Int], names: NameGuess.NameFields?,
                          musicFolders: [String]) -> [(SongField, FieldValue)] {
        let file = FileView(s)
        var out: [(SongField, FieldValue)] = []
        let folder = parent(of: s.path)
        var albumFolder = folder
        var disc: Int?
        if let n = NameGuess.discNumber(folderName: lastComponent(of: folder)) {
            disc = n
            albumFolder = parent(of: folder)
            out.append((.disctotal, .int(max(n, discTotals[PathKey(albumFolder)] ?? n))))
        }
        if case .string(let album) = file.value(.album), let (stripped, n) = NameGuess.albumWithoutDisc(album) {
            out.append((.album, .string(stripped)))
            if disc == nil { disc = n }
        }
        if let names {
            if let title = names.title { out.append((.title, .string(title))) }
            if let track = names.track, track <= 99_999 { out.append((.track, .int(track))) }
            if let artist = names.artist, !artist.isEmpty { out.append((.artists, .strings([artist]))) }
            if disc == nil, let n = names.disc { disc = n }
        }
        if let disc { out.append((.disc, .int(disc))) }
        // `Artist/Album/`: both folders inside a music folder (a folder of loose files right
        // in the music folder is no album).
        let artistFolder = parent(of: albumFolder)
        if file.hasNoTags, isInside(artistFolder, musicFolders) {
            let (album, year) = NameGuess.albumFolder(lastComponent(of: albumFolder))
            if !album.isEmpty { out.append((.album, .string(album))) }
            if let year { out.append((.year, .int(year))) }
            out.append((.albumartist, .string(lastComponent(of: artistFolder))))
        }
        return out
    }

    /// Strictly inside one of the folders (a music folder itself gives no name).
    static func isInside(_ folder: String, _ roots: [String]) -> Bool {
        roots.contains { root in
            let key = PathKey(folder)
            return key.isUnder(root) && !folder.utf8.elementsEqual(root.utf8)
                && !(root.hasSuffix("/") && folder.utf8.elementsEqual(root.utf8.dropLast()))
        }
    }

    static func parent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    static func lastComponent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// The file's name without its folder and its extension, as beets reads it.
    static func baseName(of path: String) -> String {
        let name = lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return name }
        return String(name[..<dot])
    }
}
