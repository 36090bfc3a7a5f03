import BoomicCore
import BoomicMedia
import BoomicSystem
import Foundation

/// `albumart` and `readpicture`: covers from the library's art store (content-hashed copies
/// made at import, whether the picture was embedded or a cover file, and folders' cover files
/// stored as clients ask for them), in chunks of the client's `binarylimit`. Looking for a
/// folder's cover file and reading a chunk touch the disk: both run off the event loop
/// (`Invocation.reading`).
enum ArtCommands {
    static let all: [CommandSpec] = [
        CommandSpec("albumart", 2...2) { inv throws(MPDError) in
            let request = try PictureRequest(&inv)
            inv.reading = { () throws(MPDError) in
                guard let (path, _) = try request.picture() else { throw request.error(.noExist, "No file exists") }
                return try request.chunk(path, mime: nil)
            }
        },
        CommandSpec("readpicture", 2...2) { inv throws(MPDError) in
            let request = try PictureRequest(&inv)
            inv.reading = { () throws(MPDError) in
                guard let (path, mime) = try request.picture() else { return MPDResponse() }
                return try request.chunk(path, mime: mime)
            }
        },
    ]
}

/// What `albumart` or `readpicture` asked, checked on the loop (the path is the library's, the
/// offset a number), for the work off the loop that finds the picture and reads its chunk.
private struct PictureRequest: Sendable {
    let command: String
    let uri: String
    let offset: Int
    let binaryLimit: Int
    let snapshot: ServerLibrary.Snapshot
    let library: ServerLibrary

    init(_ inv: inout Invocation) throws(MPDError) {
        command = inv.command
        uri = inv.args[0]
        try inv.refuseURL(uri)
        try inv.refuseLocalFileOverTCP(uri)
        offset = try inv.unsigned(1)
        binaryLimit = inv.client.binaryLimit
        snapshot = inv.snapshot
        library = inv.server.library
    }

    func error(_ code: MPDError.Code, _ message: String) -> MPDError {
        MPDError(code, message, command: command)
    }

    /// The stored file of the picture `albumart` or `readpicture` answers with, and its type.
    ///
    /// `albumart` is the folder's cover file, as MPD's (or, for a disc folder without one, the
    /// album folder's above it, which MPD does not look for): the folder a song is in, or the folder a
    /// path names (MPD looks in the folder the path is in, whatever its last part names, so
    /// `Album/`, what Cantata sends, and `Album/cover.jpg` mean `Album`). So every song of an
    /// album gets the same picture even where one of them embeds another. Without a cover
    /// file, it is the song's own picture, or a folder's first song's that has one (MPD has no
    /// answer there). `readpicture` is the song's own picture: embedded, else its folder's cover.
    func picture() throws(MPDError) -> (path: String, mime: String)? {
        let albumArt = command == "albumart"
        let parent = uri.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(uri[..<$0]) } ?? ""
        var song = snapshot.song(at: uri)
        let folderURI = song != nil ? parent : snapshot.tree.directory(uri) != nil ? uri : albumArt ? parent : nil
        // Only a folder of the library's tree: a client's path is never opened as it wrote it.
        // A disc folder without a cover file of its own shows the album folder's above it.
        if albumArt, let folderURI, snapshot.tree.directory(folderURI) != nil, let folder = snapshot.tree.path(for: folderURI),
           let covers = library.covers,
           let hash = ArtStore.coverFolders(forSongsIn: folder).lazy.compactMap({ covers.hash(in: $0) }).first,
           let picture = stored(hash) {
            return picture
        }
        if song == nil {
            song = folderURI.flatMap(snapshot.tree.directory).flatMap { snapshot.songs(in: $0).first { $0.art != nil } }
        }
        guard let song else { throw error(.noExist, albumArt ? "No file exists" : "No such song") }
        return song.art.flatMap { stored($0) }
    }

    private func stored(_ hash: String) -> (path: String, mime: String)? {
        library.art?.path(forHash: hash).map { ($0, Self.mime(of: $0)) }
    }

    /// The chunk a client asked for, read alone: a cover may be tens of megabytes, fetched in
    /// thousands of chunks, each on an event loop. The stored picture is opened as every file
    /// sent is (`ArtStore.openPicture`: a regular file in the store's folder, never waited for),
    /// right before its bytes are read.
    func chunk(_ path: String, mime: String?) throws(MPDError) -> MPDResponse {
        let file: FileDescriptor, size: Int
        do throws(SystemError) {
            guard let art = library.art else { throw SystemError(.open, path: path, errno: ENOENT) }
            file = try art.openPicture(path)
            size = Int(try file.status().st_size)
        } catch {
            throw self.error(.noExist, command == "albumart" ? "No file exists" : "No such song")
        }
        // MPD's words differ by command: albumart reads a file, readpicture a tag's picture.
        guard offset <= size else { throw error(.argument, command == "albumart" ? "Offset too large" : "Bad file offset") }
        let bytes: [UInt8]
        do { bytes = try file.read(count: min(size - offset, binaryLimit), at: offset) } catch {
            throw self.error(.system, "cannot read the picture: \(error.localizedDescription)")
        }
        var response = MPDResponse()
        response.add("size", size)
        if let mime { response.add("type", mime) }
        response.addBinary(bytes)
        return response
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
