import BoomicCore
import BoomicMedia
import Foundation

/// `albumart` and `readpicture`: the song's cover from the library's art store (content-hashed
/// copies made at import, whether the picture was embedded or a cover file), in chunks of the
/// client's `binarylimit`.
enum ArtCommands {
    static let all: [CommandSpec] = [
        CommandSpec("albumart", 2...2) { inv throws(MPDError) in
            guard let (bytes, _) = try picture(&inv) else { throw inv.error(.noExist, "No file exists") }
            try chunk(&inv, bytes, mime: nil)
        },
        CommandSpec("readpicture", 2...2) { inv throws(MPDError) in
            guard let (bytes, mime) = try picture(&inv) else { return }
            try chunk(&inv, bytes, mime: mime)
        },
    ]

    private static func picture(_ inv: inout Invocation) throws(MPDError) -> ([UInt8], String)? {
        let snapshot = inv.snapshot
        let uri = inv.args[0]
        try inv.refuseURL(uri)
        var song: Song?
        if let path = snapshot.tree.path(for: uri) { song = snapshot.basis.song(atPath: path) }
        // A directory: the cover of its first song that has one. MPD's `albumart` looks in the
        // folder the path is in, whatever its last part names, so `Album/` (what Cantata sends)
        // and `Album/cover.jpg` mean `Album`.
        if song == nil {
            let parent = uri.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(uri[..<$0]) }
            let folder = snapshot.tree.directory(uri) ?? (inv.command == "albumart" ? parent.flatMap(snapshot.tree.directory) : nil)
            song = folder.flatMap { snapshot.songs(in: $0).first { $0.art != nil } }
        }
        guard let song else { throw inv.error(.noExist, inv.command == "albumart" ? "No file exists" : "No such song") }
        guard let hash = song.art, let store = try? ArtStore(directory: inv.server.library.session.location + "/art"),
              let path = store.path(forHash: hash), let data = FileManager.default.contents(atPath: path) else { return nil }
        return ([UInt8](data), mime(of: path))
    }

    private static func chunk(_ inv: inout Invocation, _ bytes: [UInt8], mime: String?) throws(MPDError) {
        let offset = try inv.unsigned(1)
        // MPD's words differ by command: albumart reads a file, readpicture a tag's picture.
        guard offset <= bytes.count else { throw inv.error(.argument, inv.command == "albumart" ? "Offset too large" : "Bad file offset") }
        inv.response.add("size", bytes.count)
        if let mime { inv.response.add("type", mime) }
        let end = min(bytes.count, offset + inv.client.binaryLimit)
        inv.response.addBinary(Array(bytes[offset..<end]))
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
