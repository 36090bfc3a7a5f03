import BoomicCore
import BoomicMedia
import Foundation

/// `getLyricsBySongId` (OpenSubsonic's `songLyrics`) and `getLyrics`: a song's lyrics read from
/// its file's tags when asked (nothing is kept in the library), as `readcomments` reads a file.
/// The lyrics are TagLib's `LYRICS` property, which is a FLAC's or Ogg's `LYRICS` comment, an
/// MP3's `USLT` frame and an MP4's `©lyr` atom alike, else an `UNSYNCEDLYRICS` comment. The file
/// is read off the event loop, and only inside the music folders.
enum LyricsEndpoints {
    static func bySongID(_ call: SubsonicCall) async throws -> SubsonicReply {
        let song = try MediaSong.song(call)
        var list = SubsonicElement()
        var entries: [SubsonicElement] = []
        for text in try await lyrics(of: song, folders: call.front.folders) {
            let lyrics = LyricsText(text)
            var entry = SubsonicElement([
                "displayArtist": (lyrics.artist ?? song.artist).map(SubsonicValue.string),
                "displayTitle": (lyrics.title ?? song.title).map(SubsonicValue.string),
                "lang": "xxx",
                "offset": .int(lyrics.offset),
                "synced": .bool(lyrics.synced),
            ])
            entry.set("line", list: lyrics.lines.map { line in
                var element = SubsonicElement(["start": line.start.map(SubsonicValue.int)])
                element.text = line.text
                return element
            })
            entries.append(entry)
        }
        list.set("structuredLyrics", list: entries)
        return .answer("lyricsList", list)
    }

    /// Subsonic's `getLyrics`: the first song (by path) whose artist and title are the ones
    /// asked, compared folded, and its lyrics as plain text (an LRC's times dropped). No such
    /// song, or none with lyrics, is an empty `lyrics` element, as Subsonic answers it.
    static func byArtistAndTitle(_ call: SubsonicCall) async throws -> SubsonicReply {
        let artist = call.parameters["artist"].map(Fold.key), title = call.parameters["title"].map(Fold.key)
        var element = SubsonicElement()
        guard artist != nil || title != nil else { return .answer("lyrics", element) }
        let candidates = artist.flatMap { call.basis.artists[$0] }.map { ids in ids.compactMap { call.basis[$0] } }
            ?? Array(call.basis.songs.values)
        let matching = candidates
            .filter { song in
                !song.missing && title.map { Fold.key(song.title ?? "") == $0 } ?? true
                    && artist.map { Fold.key(song.artist ?? "") == $0 || Fold.key(song.albumartist ?? "") == $0 } ?? true
            }
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        for song in matching.prefix(16) {
            guard let text = try await lyrics(of: song, folders: call.front.folders).first else { continue }
            element = SubsonicElement(["artist": song.artist.map(SubsonicValue.string), "title": song.title.map(SubsonicValue.string)])
            element.text = LyricsText(text).plainText
            break
        }
        return .answer("lyrics", element)
    }

    /// The lyrics texts of the song's file (usually one), read off the event loop; none when the
    /// file has none or cannot be read.
    static func lyrics(of song: Song, folders: [String]) async throws -> [String] {
        // The file is opened as stream opens it: a song whose file lies outside the music
        // folders is not found.
        let media = try await MediaSong.open(song, folders: folders)
        return try await MediaBlocking.run { () -> [String] in
            guard let tags = try? TagFile(path: media.file.path).properties() else { return [] }
            let texts = tags["LYRICS"] ?? tags["UNSYNCEDLYRICS"] ?? []
            return texts.filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        }
    }
}
