import BoomicAudio
import BoomicCore
import BoomicMedia
import BoomicSystem
import HTTPTypes
import Hummingbird
import NIOCore

/// `getCoverArt`: the picture of a song, an album or an artist, from the library's art store
/// (the content-hashed copies import makes of embedded pictures and cover files, which
/// `albumart` and `readpicture` send too), scaled to `size` when asked and cached
/// (`CoverCache`).
///
/// `id` is a song's, an album's or an artist's catalog id, or the `coverArt` value the catalog
/// gives (a picture's content hash). A song's picture is its own (embedded or its folder's cover
/// file at import), else its folder's cover file as it is now; an album's is its cover song's,
/// an artist's their first album's with one. None is error 70, as Subsonic answers it (Navidrome
/// sends a placeholder picture instead).
enum CoverEndpoints {
    /// Pictures larger than this are not sent: the store keeps none so large.
    static let maxPictureSize = 64 << 20

    static func coverArt(_ call: SubsonicCall) async throws -> SubsonicReply {
        let id = try call.parameters.required("id")
        let size = try call.parameters.int("size").flatMap { $0 > 0 ? $0 : nil }
        let folders = call.front.folders
        guard let store = try? call.front.library.session.artStore(musicFolders: folders) else {
            throw SubsonicError(.notFound, "Cover art not found.")
        }
        let hash = try await MediaBlocking.run { () -> String? in
            pictureHash(for: id, in: call.basis, store: store)
        }
        guard let hash else { throw SubsonicError(.notFound, "Cover art not found.") }
        var picture: [UInt8]
        if let size, let cached = try await MediaBlocking.run({ CoverCache.read(hash: hash, size: size) }) {
            picture = cached
        } else {
            let original = try await MediaBlocking.run { () -> [UInt8]? in
                guard let path = store.path(forHash: hash), let file = try? store.openPicture(path) else { return nil }
                return try? file.readAll(limit: maxPictureSize)
            }
            guard let original, !original.isEmpty else { throw SubsonicError(.notFound, "Cover art not found.") }
            picture = original
            if let size {
                do {
                    picture = try await ImageScaler.scale(original, longerSide: size, name: "cover \(hash)")
                } catch {
                    throw SubsonicError(.generic, "\(error)")
                }
                let scaled = picture
                try await MediaBlocking.run { CoverCache.write(scaled, hash: hash, size: size) }
            }
        }
        let mime = picture.withUnsafeBytes { ArtStore.mimeType(of: $0) } ?? "application/octet-stream"
        let headers: HTTPFields = [
            .contentType: mime,
            .eTag: "\"\(hash)-\(size ?? 0)\"",
            // A picture named by its content never changes: clients may keep it.
            .cacheControl: "public, max-age=31536000",
        ]
        if call.head.method == .head {
            var head = headers
            head[.contentLength] = String(picture.count)
            return .http(Response(status: .ok, headers: head))
        }
        return .http(Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: picture))))
    }

    /// The art store's hash of the picture `id` stands for, nil when it has none.
    static func pictureHash(for id: String, in basis: DataBasis, store: ArtStore) -> String? {
        if isHash(id) { return store.path(forHash: id) != nil ? id : nil }
        switch CatalogID.parse(id) {
        case .song(let songID)?:
            guard let song = basis[songID], !song.missing else { return nil }
            if let art = song.art { return art }
            let slash = song.path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(song.path[..<$0]) } ?? "."
            return store.folderCover(in: slash)
        case .album?, .artist?:
            let catalog = CoverCatalog.catalog(for: basis)
            switch catalog.entity(forID: id) {
            case .album(let album)?: return album.coverArt
            case .artist(let artist)?: return artist.coverArt
            default: return nil
            }
        case nil:
            return nil
        }
    }

    /// Sixteen lowercase hexadecimal digits: an art store hash, which names a file of the store's
    /// folder and nothing else.
    static func isHash(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
