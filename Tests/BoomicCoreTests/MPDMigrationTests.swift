import Foundation
import Testing
@testable import BoomicCore

/// `boomic migrate mpd`'s generation: MPD's sticker rows and stored playlists in, assertions
/// out, by the sticker rules `serve` uses (`MPDSticker`); a second run gives nothing.
@Suite struct MPDMigrationTests {
    static let songs = ["A/1.flac", "A/2.flac", "B/3 x.flac"].enumerated().map { Song(id: songID($0.offset + 1), path: "/music/" + $0.element) }
    static let db = DataBasis(songs: songs)
    static var ids: [SongID] { songs.map(\.id) }

    static func run(_ basis: DataBasis = db, stickers: [MPDMigration.StickerRow] = [], playlists: [MPDMigration.StoredPlaylist] = [],
                    replace: Bool = false, folders: [String] = ["/music"]) -> MPDMigration.Outcome {
        var n = 500
        return MPDMigration.generate(basis, musicDirectories: folders, stickers: stickers, playlists: playlists, replace: replace,
                                     newListID: { n += 1; return ListID(uuid(n)) })
    }

    static let rows = [
        MPDMigration.StickerRow(uri: "A/1.flac", name: "rating", value: "7"),
        MPDMigration.StickerRow(uri: "A/1.flac", name: "playcount", value: "12"),
        MPDMigration.StickerRow(uri: "A/1.flac", name: "favorite", value: "1"),
        MPDMigration.StickerRow(uri: "A/1.flac", name: "playCount", value: "3"),
        MPDMigration.StickerRow(uri: "A/1.flac", name: "lastPlayed", value: "1700000000"),
        MPDMigration.StickerRow(uri: "B/3 x.flac", name: "rating", value: "10"),
        MPDMigration.StickerRow(uri: "B/3 x.flac", name: "rating", value: "x"),
        MPDMigration.StickerRow(uri: "A/2.flac", name: "favorite", value: "yes"),
        MPDMigration.StickerRow(uri: "Gone/9.flac", name: "rating", value: "4"),
        MPDMigration.StickerRow(uri: "Gone/9.flac", name: "playcount", value: "2"),
        MPDMigration.StickerRow(type: "playlist", uri: "Evening", name: "rating", value: "8"),
    ]

    @Test func stickersBecomeFieldsAndClientsStickersAsServeSetsThem() throws {
        let o = Self.run(stickers: Self.rows)
        let b = Self.db.applying(o.assertions)
        let one = try #require(b[Self.ids[0]]), three = try #require(b[Self.ids[2]])
        #expect(one.rating == 4 && one.playcount == 12 && one.favorite)
        #expect(one.stickers == ["lastPlayed=1700000000", "playCount=3"])
        #expect(three.rating == 5)
        #expect(b[Self.ids[1]] == Self.db[Self.ids[1]])
        #expect(o.songsChanged == 2 && o.stickersCarried == 6)
        #expect(o.notInLibrary == ["Gone/9.flac"] && o.stickersNotInLibrary == 2)
        #expect(o.refused.map(\.reason) == ["rating takes 0 to 10", "favorite takes 0 or 1"])
        #expect(o.otherTypes == ["playlist": 1])
        #expect(o.changesPlays)
        // What serve answers for the song is what MPD held.
        #expect(MPDSticker.stickers(of: one).map { "\($0.name)=\($0.value)" }
                == ["favorite=1", "lastPlayed=1700000000", "playCount=3", "playcount=12", "rating=8"])
    }

    @Test func aTrackOfACueSheetIsNamedByItsURIAndTheImageByNone() throws {
        var tracks: [Song] = []
        for (n, start) in [(1, 0), (2, 44_100)] {
            var t = Song(id: songID(10 + n), path: "/music/C/image.flac")
            t.start = start; t.end = n == 1 ? 44_100 : nil; t.sheet = "/music/C/image.cue"; t.track = n
            tracks.append(t)
        }
        let basis = DataBasis(songs: Self.songs + tracks)
        let o = Self.run(basis, stickers: [
            MPDMigration.StickerRow(uri: "C/image.cue/track0002", name: "rating", value: "8"),
            MPDMigration.StickerRow(uri: "C/image.flac", name: "rating", value: "2"),
        ], playlists: [MPDMigration.StoredPlaylist(name: "Side", entries: ["/music/C/image.cue/track0001", "/music/A/1.flac", "/music/C/image.flac"])])
        let b = basis.applying(o.assertions)
        #expect(try #require(b[tracks[1].id]).rating == 4)
        #expect(try #require(b[tracks[0].id]).rating == nil)
        #expect(o.notInLibrary == ["C/image.flac"])
        // The image's path in a playlist is the image played whole, as in MPD: its tracks.
        #expect(b.playlists.values.first?.songs == [tracks[0].id, Self.ids[0], tracks[0].id, tracks[1].id])
    }

    @Test func aSecondRunGivesNothing() {
        let lists = [MPDMigration.StoredPlaylist(name: "Evening", entries: ["/music/A/2.flac", "/music/A/1.flac", "/music/A/2.flac"])]
        let first = Self.run(stickers: Self.rows, playlists: lists)
        let b = Self.db.applying(first.assertions)
        let again = Self.run(b, stickers: Self.rows, playlists: lists)
        #expect(again.assertions.isEmpty)
        #expect(again.playlists.map(\.fate) == [.unchanged])
    }

    @Test func aPlayCountIsNeverLowered() throws {
        var played = Self.songs[0]
        played.playcount = 20
        let b = DataBasis(songs: [played] + Self.songs.dropFirst())
        let o = Self.run(b, stickers: [MPDMigration.StickerRow(uri: "A/1.flac", name: "playcount", value: "12")])
        #expect(o.assertions.isEmpty)
        let more = Self.run(b, stickers: [MPDMigration.StickerRow(uri: "A/1.flac", name: "playcount", value: "25")])
        #expect(b.applying(more.assertions)[Self.ids[0]]?.playcount == 25)
    }

    @Test func aClientsStickersJoinTheSongsOwnAndRatingZeroClears() throws {
        var song = Self.songs[0]
        song.stickers = ["like=1", "playCount=1"]
        song.rating = 3
        let b = DataBasis(songs: [song] + Self.songs.dropFirst())
        let o = Self.run(b, stickers: [MPDMigration.StickerRow(uri: "A/1.flac", name: "playCount", value: "4"),
                                       MPDMigration.StickerRow(uri: "A/1.flac", name: "rating", value: "0")])
        let after = try #require(b.applying(o.assertions)[Self.ids[0]])
        #expect(after.stickers == ["like=1", "playCount=4"])
        #expect(after.rating == nil)
    }

    @Test func aSongIsFoundUnderAnySpellingOfTheMusicDirectory() throws {
        let o = Self.run(stickers: [MPDMigration.StickerRow(uri: "A/1.flac", name: "rating", value: "2")], folders: ["/link/to/music", "/music"])
        #expect(Self.db.applying(o.assertions)[Self.ids[0]]?.rating == 1)
        #expect(o.notInLibrary.isEmpty)
    }

    @Test func playlistsComeInOrderWithWhatIsMissingSaid() throws {
        let lists = [
            MPDMigration.StoredPlaylist(name: "Evening", entries: ["/music/B/3 x.flac", "/music/A/1.flac", "/music/Gone/9.flac", "http://radio.example/stream", "/music/B/3 x.flac"]),
            MPDMigration.StoredPlaylist(name: "evening", entries: ["/music/A/2.flac"]),
            MPDMigration.StoredPlaylist(name: "Nothing here", entries: ["/music/Gone/9.flac"]),
            MPDMigration.StoredPlaylist(name: "Empty", entries: []),
            MPDMigration.StoredPlaylist(name: "taglist: x", entries: ["/music/A/2.flac"]),
        ]
        let o = Self.run(playlists: lists)
        let b = Self.db.applying(o.assertions)
        #expect(b.playlist(named: "Evening")?.playlist == Playlist(name: "Evening", songs: [Self.ids[2], Self.ids[0], Self.ids[2]]))
        #expect(b.playlist(named: "Empty")?.playlist.songs == [])
        #expect(o.playlists.map(\.fate) == [.created, .skipped, .skipped, .created, .skipped])
        #expect(o.playlists[0].missing == ["/music/Gone/9.flac", "http://radio.example/stream"])
        #expect(o.playlists[1].reason?.contains("already exists") == true)
        #expect(o.playlists[2].reason == "none of its entries is a song in the library")
        #expect(b.playlists.count == 2)
    }

    @Test func aPlaylistOfTheSameNameIsSkippedUnlessReplaced() throws {
        let b = Self.db.applying(try PlaylistGeneration.create("Evening", songs: [Self.ids[1]], id: ListID(uuid(9)), on: Self.db))
        let lists = [MPDMigration.StoredPlaylist(name: "Evening", entries: ["/music/A/1.flac"])]
        let kept = Self.run(b, playlists: lists)
        #expect(kept.assertions.isEmpty && kept.playlists.map(\.fate) == [.skipped])
        let replaced = Self.run(b, playlists: lists, replace: true)
        #expect(replaced.playlists.map(\.fate) == [.replaced])
        let after = b.applying(replaced.assertions)
        #expect(after.playlist(named: "Evening")?.id == ListID(uuid(9)))
        #expect(after.playlist(named: "Evening")?.playlist.songs == [Self.ids[0]])
    }
}

/// `mpd.conf` read as MPD's `src/config/File.cxx` reads it.
@Suite struct MPDConfigTextTests {
    @Test func settingsBlocksAndIncludesInOrder() throws {
        let text = """
            # a comment
            music_directory\t"~/Music"   # after a value
              playlist_directory "/var/lib/mpd/play \\"lists\\""
            audio_output {
                type "alsa"
                # inside
                name "My \\\\ ALSA"
            }
            include_optional "conf.d/*.conf"
            include "more.conf"\r
            db_file bare
            music_directory "/later"

            """
        #expect(try MPDConfigText.parse(text) == [
            .setting(name: "music_directory", value: "~/Music", line: 2),
            .setting(name: "playlist_directory", value: #"/var/lib/mpd/play "lists""#, line: 3),
            .block(name: "audio_output", settings: ["type": "alsa", "name": #"My \ ALSA"#], line: 4),
            .include(pattern: "conf.d/*.conf", optional: true, line: 9),
            .include(pattern: "more.conf", optional: false, line: 10),
            .setting(name: "db_file", value: "bare", line: 11),
            .setting(name: "music_directory", value: "/later", line: 12),
        ])
    }

    @Test(arguments: [
        (#"music_directory "/a"#, MPDConfigText.Failure(line: 1, reason: "Missing closing '\"'")),
        (#"music_directory "/a"x"#, MPDConfigText.Failure(line: 1, reason: "Space expected after closing '\"'")),
        (#"music_directory "/a" x"#, MPDConfigText.Failure(line: 1, reason: "Unknown tokens after value")),
        ("music_directory", MPDConfigText.Failure(line: 1, reason: "Value missing")),
        ("\naudio_output {\ntype \"null\"", MPDConfigText.Failure(line: 3, reason: "Expected '}' before end-of-file")),
    ])
    func linesMPDRefusesAreRefused(text: String, failure: MPDConfigText.Failure) {
        #expect(throws: failure) { try MPDConfigText.parse(text) }
    }
}
