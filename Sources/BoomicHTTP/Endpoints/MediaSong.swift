import BoomicCore
import BoomicSystem
import Glibc
import NIOPosix

/// The song a media call names and its file, opened for reading.
///
/// The id is a catalog song id (`CatalogID`), never a path: a client's text that is no such id,
/// or names a song the library does not have (or has as missing), is error 70. The file is the
/// one the library recorded for the song, opened only when it resolves inside the music folders
/// (`FileDescriptor.openRegular`): a song whose file lies elsewhere, or a link to outside, is
/// refused with error 70 as if it were not there.
struct MediaSong: Sendable {
    let song: Song
    let file: FileDescriptor
    let size: Int
    /// Modification time (seconds and nanoseconds), for `ETag` and `Last-Modified`.
    let modified: timespec

    /// The song `id` names in the call's basis, without opening anything.
    static func song(_ call: SubsonicCall, parameter: String = "id") throws(SubsonicError) -> Song {
        let id = try call.parameters.required(parameter)
        guard case .song(let songID)? = CatalogID.parse(id), let song = call.basis[songID], !song.missing else {
            throw SubsonicError(.notFound, "Song not found.")
        }
        return song
    }

    /// Opens the song's file off the event loop.
    static func open(_ song: Song, folders: [String]) async throws -> MediaSong {
        try await MediaBlocking.run { () throws(SubsonicError) in
            let file: FileDescriptor, st: stat
            do throws(SystemError) {
                file = try .openRegular(song.path, inside: ContainingFolders(folders))
                st = try file.status()
            } catch {
                throw SubsonicError(.notFound, "Song file not found.")
            }
            return MediaSong(song: song, file: file, size: Int(st.st_size), modified: st.st_mtim)
        }
    }

    /// The file's name, for `Content-Disposition`.
    var fileName: String {
        song.path.split(separator: "/").last.map(String.init) ?? "song"
    }

    /// The file's suffix in lowercase (`flac`), "" without one.
    var suffix: String {
        guard let dot = fileName.lastIndex(of: ".") else { return "" }
        return fileName[fileName.index(after: dot)...].lowercased()
    }
}

/// Blocking work (a file's reads, a tag's reading) on NIO's thread pool, never on an event loop
/// or the tasks' cooperative pool.
enum MediaBlocking {
    static func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive {
            try work()
        }
    }
}
