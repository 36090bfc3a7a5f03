import BoomicAudio
import BoomicCore
@testable import BoomicMPD
import BoomicTestSupport
import Foundation
import Testing

/// What a change of the library tells MPD clients (`LibraryIdle`), as a table: `database` only
/// for what a client sees of the songs, `stored_playlist` only when a list's name or songs
/// change (a taglist's too, through the songs' fields), `sticker` for what clients see as
/// stickers, and nothing for a Boomic-only edit, on which clients would reload their library.
struct LibraryIdleTests {
    static let ids: [SongID] = {
        var ids = SplitMix64(seed: 35)
        return (0..<3).map { _ in SongID(ids.uuid()) }
    }()
    static let mix = ListID(UUID(uuidString: "00000000-0000-0000-0000-00000000000a")!)
    static let jazz = ListID(UUID(uuidString: "00000000-0000-0000-0000-00000000000b")!)
    static let late = ListID(UUID(uuidString: "00000000-0000-0000-0000-00000000000c")!)

    /// Three songs; the playlist `mix` holds the first; the taglist `jazz` selects `#jazz`
    /// (the second song), `late` the songs of the 2000s (none).
    static let basis: DataBasis = {
        let songs = ids.enumerated().map { i, id in
            var s = Song(id: id, path: "/music/Artist/Album/0\(i + 1) Song.flac")
            s.title = "Song \(i + 1)"
            s.artists = ["Artist"]
            s.album = "Album"
            s.year = 1969
            s.duration = 100
            s.tags = i == 1 ? ["jazz"] : []
            return s
        }
        return DataBasis(songs: songs, taglists: [
            jazz: try! Taglist.parse(name: "jazz", clauses: ["+#jazz"]),
            late: try! Taglist.parse(name: "late", clauses: ["+@year:2000..2009"]),
        ], playlists: [mix: Playlist(name: "mix", songs: [ids[0]])])
    }()

    static func song(_ i: Int) -> Song { basis[ids[i]]! }

    static func set(_ i: Int, _ field: SongField, _ value: FieldValue) -> Assertion {
        .updateSong(ids[i], [field: FieldChange(old: field.value(in: song(i)), new: value)])
    }

    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var kind: Transaction.Kind = .edit
        var assertions: [Assertion]
        var told: Set<Subsystem>
        var shown: Set<Int> = []
        var gone: Set<Int> = []
        var lists: Set<ListID> = []
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        // What a client sees of a song.
        Row(name: "a title", assertions: [set(0, .title, .string("New"))], told: [.database], shown: [0]),
        Row(name: "an artist", assertions: [set(1, .artists, .strings(["Other"]))], told: [.database], shown: [1]),
        Row(name: "the year (Date)", assertions: [set(0, .year, .int(1970))], told: [.database], shown: [0]),
        Row(name: "a MusicBrainz id", assertions: [set(0, .mbTrackID, .string("x"))], told: [.database], shown: [0]),
        Row(name: "the path", assertions: [set(0, .path, .string("/music/Artist/Album/01 Moved.flac"))], told: [.database], shown: [0]),
        Row(name: "the path, NFC to NFD", assertions: [set(0, .path, .string("/music/Artist/Album/01 Song\u{301}.flac"))],
            told: [.database], shown: [0]),
        Row(name: "the length", assertions: [set(2, .duration, .double(101))], told: [.database], shown: [2]),
        Row(name: "the file's time", kind: .import, assertions: [set(2, .mtime, .int(5_000_000_000))], told: [.database], shown: [2]),
        Row(name: "a song added", kind: .import, assertions: [.addSong(Song(id: SongID(UUID()), path: "/music/new.flac"))], told: [.database]),
        Row(name: "a song removed", assertions: [.deleteSong(song(2))], told: [.database], gone: [2]),
        Row(name: "a song missing", kind: .import, assertions: [set(2, .missing, .bool(true))], told: [.database], gone: [2]),
        // What clients see as stickers.
        Row(name: "a rating", kind: .rating, assertions: [set(0, .rating, .int(4))], told: [.sticker]),
        Row(name: "a client's sticker", assertions: [set(0, .stickers, .strings(["like=1"]))], told: [.sticker]),
        Row(name: "the player's play count", kind: .play, assertions: [set(0, .playcount, .int(1)), set(0, .lastplayed, .double(9))], told: []),
        // Boomic's own: nothing, unless a taglist gains or loses the song.
        Row(name: "a tag no taglist selects", kind: .tag, assertions: [set(0, .tags, .strings(["x"]))], told: []),
        Row(name: "a tag of a song the taglist keeps", kind: .tag, assertions: [set(1, .tags, .strings(["jazz", "x"]))], told: []),
        Row(name: "a tag a taglist selects", kind: .tag, assertions: [set(0, .tags, .strings(["jazz"]))],
            told: [.storedPlaylist], lists: [jazz]),
        Row(name: "a tag a taglist selected", kind: .tag, assertions: [set(1, .tags, .strings([]))],
            told: [.storedPlaylist], lists: [jazz]),
        Row(name: "a guess", assertions: [set(0, .guessed, .strings(["disc"]))], told: []),
        Row(name: "a bookmark", kind: .play, assertions: [set(0, .bookmark, .double(12))], told: []),
        Row(name: "a skip", kind: .play, assertions: [set(0, .skipcount, .int(1))], told: []),
        Row(name: "a user field", assertions: [set(0, .userFields, .strings(["mood=calm"]))], told: []),
        Row(name: "ReplayGain", assertions: [set(0, .replaygainTrackGain, .double(-3))], told: []),
        Row(name: "the track total", assertions: [set(0, .tracktotal, .int(9))], told: []),
        Row(name: "a title and a year into a taglist", assertions: [set(0, .title, .string("New")), set(2, .year, .int(2001))],
            told: [.database, .storedPlaylist], shown: [0, 2], lists: [late]),
        // The lists themselves.
        Row(name: "a playlist's songs", kind: .playlist,
            assertions: [.playlist(mix, EntityChange(old: Playlist(name: "mix", songs: [ids[0]]), new: Playlist(name: "mix", songs: [ids[0], ids[2]])))],
            told: [.storedPlaylist], lists: [mix]),
        Row(name: "a playlist renamed", kind: .playlist,
            assertions: [.playlist(mix, EntityChange(old: Playlist(name: "mix", songs: [ids[0]]), new: Playlist(name: "Mix 2", songs: [ids[0]])))],
            told: [.storedPlaylist], lists: [mix]),
        Row(name: "a taglist made", kind: .taglist,
            assertions: [.taglist(ListID(UUID(uuidString: "00000000-0000-0000-0000-00000000000d")!),
                                  EntityChange(old: nil, new: try! Taglist.parse(name: "all", clauses: ["+@year:1969"])))],
            told: [.storedPlaylist], lists: [ListID(UUID(uuidString: "00000000-0000-0000-0000-00000000000d")!)]),
        Row(name: "a taglist's rules, the same songs", kind: .taglist,
            assertions: [.taglist(late, EntityChange(old: basis.taglists[late], new: try! Taglist.parse(name: "late", clauses: ["+@year:2001..2009"])))],
            told: []),
        Row(name: "a taglist's rules, other songs", kind: .taglist,
            assertions: [.taglist(late, EntityChange(old: basis.taglists[late], new: try! Taglist.parse(name: "late", clauses: ["+@year:1969"])))],
            told: [.storedPlaylist], lists: [late]),
    ]

    @Test(arguments: rows)
    func aChangeTellsWhatClientsSee(_ row: Row) {
        let t = Transaction(id: UUID(), parent: nil, timestamp: 0, kind: row.kind, label: row.name, assertions: row.assertions)
        let after = Self.basis.applying(t)
        let idle = LibraryIdle(from: Self.basis, to: after, change: LibraryChange(from: 1, transactions: [t]))
        #expect(idle == LibraryIdle(subsystems: row.told, shown: Set(row.shown.map { Self.ids[$0] }),
                                    gone: Set(row.gone.map { Self.ids[$0] }), lists: row.lists))
    }

    /// `enableoutput`, `disableoutput`, `toggleoutput`: `mixer` only for an output with a mixer
    /// (ALSA, as MPD's default `mixer_type` gives one), and not when `toggleoutput` turns it on,
    /// as Debian's mpd 0.23.12 tells them.
    @Test(arguments: [
        (SinkSpec.alsa(device: "default"), true, false, [Subsystem.mixer, .output]),
        (.alsa(device: "default"), false, false, [.mixer, .output]),
        (.alsa(device: "hw:1"), false, true, [.mixer, .output]),
        (.alsa(device: "hw:1"), true, true, [.output]),
        (.null, true, false, [.output]),
        (.null, false, true, [.output]),
        (.wav(path: "/tmp/x.wav"), true, false, [.output]),
        (.wav(path: "/tmp/x.wav"), false, false, [.output]),
    ])
    func anOutputSwitchedTellsMixerOnlyWithAMixer(_ spec: SinkSpec, _ on: Bool, _ toggled: Bool, _ told: [Subsystem]) {
        #expect(OutputIdle.switched(spec, on: on, toggled: toggled) == Set(told))
    }
}
