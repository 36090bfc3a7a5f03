import BoomicCore
import BoomicSystem

/// What the CUE sheets a walk found say of the files it listed (`Walk.sheets`).
///
/// A sheet whose FILE lines each name a file with several tracks (an image) makes those
/// images' tracks the songs: each FILE its own tracks. A sheet whose FILE lines each hold one
/// track (a rip split per track) describes those files: they take its fields where their tags
/// are empty. A FILE names a file beside the sheet (a Windows `\` is a `/`); when no listed file
/// has the name exactly, one whose name differs only in case, else only in its audio extension
/// (EAC writes `.wav` in the sheet of an image later encoded to FLAC), is the one. A sheet that
/// cannot be read is one warning line, and its images come in as one song each.
public struct CueSheets: Sendable {
    /// An image a sheet cuts into tracks: the sheet, which of its FILEs the image is, its path.
    public struct Image: Sendable {
        public var sheet: CueSheet
        public var file: Int
        public var sheetPath: String
    }

    /// A separate track file a sheet describes.
    public struct Described: Sendable {
        public var sheet: CueSheet
        public var track: CueSheet.Track
    }

    public var images: [PathKey: Image] = [:]
    public var trackFiles: [PathKey: Described] = [:]
    /// One line per sheet that could not be used.
    public var warnings: [String] = []

    public init() {}

    /// Reads the sheets (in the walk's order: of two sheets naming one file, the first wins).
    public static func read(_ sheets: [String], listed: [ListedFile]) -> CueSheets {
        var out = CueSheets()
        guard !sheets.isEmpty else { return out }
        // The listed files by exact path, by lower-cased path, and by lower-cased path without
        // its extension.
        var exact = Set<PathKey>(), folded: [String: String] = [:], stems: [String: String] = [:]
        for f in listed {
            exact.insert(PathKey(f.path))
            let lower = f.path.lowercased()
            if folded[lower] == nil { folded[lower] = f.path }
            if let dot = lower.lastIndex(of: "."), stems[String(lower[..<dot])] == nil { stems[String(lower[..<dot])] = f.path }
        }
        func find(_ path: String) -> String? {
            if exact.contains(PathKey(path)) { return path }
            let lower = path.lowercased()
            if let p = folded[lower] { return p }
            let stem = lower.lastIndex(of: ".").map { String(lower[..<$0]) } ?? lower
            return stems[stem]
        }
        for sheetPath in sheets {
            let folder = sheetPath.lastIndex(of: "/").map { String(sheetPath[..<$0]) } ?? "."
            let sheet: CueSheet
            do {
                let file = try FileDescriptor.openRegular(sheetPath)
                defer { try? file.close() }
                sheet = try CueSheet(bytes: file.readAll(limit: 1 << 20))
            } catch {
                out.warnings.append("CUE sheet \(sheetPath): \(error.localizedDescription); its image comes in as one song")
                continue
            }
            let named = sheet.files.map { find(folder + "/" + $0.name.replacingOccurrences(of: "\\", with: "/")) }
            if sheet.describesTrackFiles {
                for (i, path) in named.enumerated() {
                    guard let path, out.trackFiles[PathKey(path)] == nil, out.images[PathKey(path)] == nil else { continue }
                    out.trackFiles[PathKey(path)] = Described(sheet: sheet, track: sheet.files[i].tracks[0])
                }
            } else {
                for (i, path) in named.enumerated() {
                    guard let path, out.images[PathKey(path)] == nil else { continue }
                    out.trackFiles[PathKey(path)] = nil
                    out.images[PathKey(path)] = Image(sheet: sheet, file: i, sheetPath: sheetPath)
                }
            }
            if named.allSatisfy({ $0 == nil }) {
                let names = sheet.files.map(\.name).joined(separator: ", ")
                out.warnings.append("CUE sheet \(sheetPath): no file beside it has the name its FILE gives (\(names))")
            }
        }
        return out
    }

    /// Whether a sheet names the file.
    public func names(_ path: String) -> Bool {
        images[PathKey(path)] != nil || trackFiles[PathKey(path)] != nil
    }

    /// The facts read, with each image replaced by its tracks (in order) and each described track
    /// file given its sheet's fields. An image its sheet does not fit (a track at or past its
    /// end) stays one song, with a warning.
    public func apply(to facts: [FileFacts], warn: (String) -> Void) -> [FileFacts] {
        guard !images.isEmpty || !trackFiles.isEmpty else { return facts }
        var out: [FileFacts] = []
        out.reserveCapacity(facts.count)
        for f in facts {
            if let image = images[PathKey(f.path)] {
                do {
                    out += try f.tracks(of: image.sheet, file: image.file, sheetPath: image.sheetPath)
                } catch {
                    warn("CUE sheet \(image.sheetPath): \(error.localizedDescription); \(f.path) comes in as one song")
                    out.append(f)
                }
            } else if let d = trackFiles[PathKey(f.path)] {
                out.append(f.described(by: d.sheet, track: d.track))
            } else {
                out.append(f)
            }
        }
        return out
    }
}
