import BoomicCore
import BoomicMedia

/// `readcomments URI`: every tag the song's file holds, key by key, for clients that show what
/// a file says beyond the tags MPD knows (Cantata's song information). MPD prints its decoders'
/// raw comments, which differ by decoder; Boomic prints TagLib's property map, whose keys are
/// the Vorbis names in every format (`ARTISTSORT`, `MUSICBRAINZ_ALBUMID`, `MOOD`, …).
///
/// The file is the one the library has at that path: a client's path is looked up in the
/// library's tree, never opened as given.
enum CommentCommands {
    static let all: [CommandSpec] = [
        CommandSpec("readcomments", 1...1) { inv throws(MPDError) in
            try inv.refuseLocalFileOverTCP(inv.args[0])
            guard let song = inv.snapshot.song(at: inv.args[0]) else { throw inv.error(.noExist, "No such song") }
            let path = song.path, failed = inv.error(.system, "Failed to load file")
            // The file is read off the event loop.
            inv.reading = { () throws(MPDError) in
                let tags: [String: [String]]
                do { tags = try TagFile(path: path).properties() } catch { throw failed }
                var response = MPDResponse()
                // A key that could break the line (a hostile file's TXXX description) is left out.
                for key in tags.keys.sorted() where !key.isEmpty && key.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) {
                    for value in tags[key]! { response.add(key, value) }
                }
                return response
            }
        },
    ]
}
