import BoomicCore
import BoomicMedia
import BoomicSystem
import Foundation

/// `albumart` and `readpicture`: covers from the library's art store (content-hashed copies
/// made at import, whether the picture was embedded or a cover file, and folders' cover files
/// stored as clients ask for them), in chunks of the client's `binarylimit`.
enum ArtCommands {
    static let all: [CommandSpec] = [
        CommandSpec("albumart", 2...2) { inv throws(MPDError) in
            guard let (path, _) = try picture(&inv) else { throw inv.error(.noExist, "No file exists") }
            try chunk(&inv, path, mime: nil)
        },
        CommandSpec("readpicture", 2...2) { inv throws(MPDError) in
            guard let (path, mime) = try picture(&inv) else { return }
            try chunk(&inv, path, mime: mime)
        },
    ]

    /// The stored file of the picture `albumart` or `readpicture` answers with, and its type.
    ///
    /// `albumart` is the folder's cover file, as MPD's (or, for a disc folder without one, the
    /// album folder's above it, which MPD does not look for): the folder a song is in, or the folder a
    /// path names (MPD looks in the folder the path is in, whatever its last part names, so
    /// `Album/`, what Cantata sends, and `Album/cover.jpg` mean `Album`). So every song of an
    /// album gets the same picture even where one of them embeds another. Without a cover
    /// file, it is the song's own picture, or a folder's first song's that has one (MPD has no
    /// answer there). `readpicture` is the song's own picture: embedded, else its folder's cover.
    private static func picture(_ inv: inout Invocation) throws(MPDError) -> (path: String, mime: String)? {
        let snapshot = inv.snapshot
        let uri = inv.args[0]
        try inv.refuseURL(uri)
        try inv.refuseLocalFileOverTCP(uri)
        let albumArt = inv.command == "albumart"
        let parent = uri.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(uri[..<$0]) } ?? ""
        var song = snapshot.song(at: uri)
        let folderURI = song != nil ? parent : snapshot.tree.directory(uri) != nil ? uri : albumArt ? parent : nil
        // Only a folder of the library's tree: a client's path is never opened as it wrote it.
        // A disc folder without a cover file of its own shows the album folder's above it.
        if albumArt, let folderURI, snapshot.tree.directory(folderURI) != nil, let folder = snapshot.tree.path(for: folderURI),
           let covers = inv.server.library.covers,
           let hash = ArtStore.coverFolders(forSongsIn: folder).lazy.compactMap({ covers.hash(in: $0) }).first,
           let picture = stored(hash, &inv) {
            return picture
        }
        if song == nil {
            song = folderURI.flatMap(snapshot.tree.directory).flatMap { snapshot.songs(in: $0).first { $0.art != nil } }
        }
        guard let song else { throw inv.error(.noExist, albumArt ? "No file exists" : "No such song") }
        return song.art.flatMap { stored($0, &inv) }
    }

    private static func stored(_ hash: String, _ inv: inout Invocation) -> (path: String, mime: String)? {
        inv.server.library.art?.path(forHash: hash).map { ($0, mime(of: $0)) }
    }

    /// The chunk a client asked for, read alone: a cover may be tens of megabytes, fetched in
    /// thousands of chunks, each on an event loop. The stored picture is opened as every file
    /// sent is (`ArtStore.openPicture`: a regular file in the store's folder, never waited for),
    /// right before its bytes are read.
    private static func chunk(_ inv: inout Invocation, _ path: String, mime: String?) throws(MPDError) {
        let offset = try inv.unsigned(1)
        let file: FileDescriptor, size: Int
        do throws(SystemError) {
            guard let art = inv.server.library.art else { throw SystemError(.open, path: path, errno: ENOENT) }
            file = try art.openPicture(path)
            size = Int(try file.status().st_size)
        } catch {
            throw inv.error(.noExist, inv.command == "albumart" ? "No file exists" : "No such song")
        }
        // MPD's words differ by command: albumart reads a file, readpicture a tag's picture.
        guard offset <= size else { throw inv.error(.argument, inv.command == "albumart" ? "Offset too large" : "Bad file offset") }
        let bytes: [UInt8]
        do { bytes = try file.read(count: min(size - offset, inv.client.binaryLimit), at: offset) } catch {
            throw inv.error(.system, "cannot read the picture: \(error.localizedDescription)")
        }
        inv.response.add("size", size)
        if let mime { inv.response.add("type", mime) }
        inv.response.addBinary(bytes)
    }

    private static func mime(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": "image/png"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "bmp": "image/bmp"
        default: "image/jpeg"
        }
    }
}
