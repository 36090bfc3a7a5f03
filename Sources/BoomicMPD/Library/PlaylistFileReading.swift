import BoomicCore
import BoomicSystem
import Foundation
import Glibc

extension MusicTree.PlaylistFile {
    /// The most of a playlist file that is read: a list of 100,000 songs is a few megabytes.
    static let maxBytes = 16 << 20

    /// The client paths the file lists, in order: its entries made absolute against its folder
    /// (`PlaylistFileFormat.parse`), kept when they lie in a music folder (streams and paths
    /// elsewhere are left out). Spaces and tabs around an M3U entry are dropped as MPD drops
    /// them, unless the entry names a song (`exists`) with them. Read when asked, so an edit
    /// shows at once; nil when the file cannot be read or is not of its format. UTF-8, or
    /// Latin-1 for an old file that is not.
    ///
    /// Opened as every file sent to a client is (`FileDescriptor.openRegular`): a regular file
    /// whose real path lies inside the music folders, checked again here whatever the walk
    /// saw, so a link to `/etc/shadow` named `x.m3u` is no playlist, and a FIFO is not waited
    /// for.
    func uris(in tree: MusicTree, exists: (String) -> Bool = { _ in false }) -> [String]? {
        guard let format = PlaylistFileFormat(path: path),
              let file = try? FileDescriptor.openRegular(path, inside: ContainingFolders(tree.folders)) else { return nil }
        defer { try? file.close() }
        guard let bytes = try? file.readAll(limit: Self.maxBytes) else { return nil }
        let text = String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
        let folder = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? ""
        let base = folder.isEmpty ? "/" : folder
        guard format == .m3u || format == .m3u8 else {
            return format.parse(text, base: base)?.paths.compactMap { tree.uri(for: $0) }
        }
        let exact = M3U.parse(text, base: base).paths, trimmed = M3U.parse(text, base: base, trimming: true).paths
        guard exact.count == trimmed.count else { return trimmed.compactMap { tree.uri(for: $0) } }
        return zip(exact, trimmed).compactMap { exact, trimmed in
            if exact != trimmed, let uri = tree.uri(for: exact), exists(uri) { return uri }
            return tree.uri(for: trimmed)
        }
    }
}
