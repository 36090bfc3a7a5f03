/// `boomic migrate mpd`'s generation function: MPD's stickers and stored playlists in, the
/// assertions of one `migrate` transaction out, with everything that could not be carried.
///
/// Pure: the caller reads `mpd.conf`, the sticker database and the playlist files. Songs are
/// found by path: a sticker's URI and a playlist's relative entry are relative to MPD's
/// `music_directory`, as MPD stores them. Nothing is added to the library: a song MPD knows
/// and Boomic does not is reported and skipped (its user imports the music first).
///
/// Run twice on the same input it gives nothing the second time: a sticker's value already
/// on the song sets nothing, a play count never goes down (the higher of MPD's and Boomic's
/// stays, so plays made in Boomic since are not taken back), and a playlist of the same name
/// holding the same songs is left as it is.
public enum MPDMigration {
    /// One row of MPD's sticker table (`sticker(type, uri, name, value)`).
    public struct StickerRow: Hashable, Sendable {
        public var type: String
        public var uri: String
        public var name: String
        public var value: String

        public init(type: String = "song", uri: String, name: String, value: String) {
            self.type = type
            self.uri = uri
            self.name = name
            self.value = value
        }
    }

    /// One stored playlist: its name (the file's, without `.m3u`) and its entries in order,
    /// each an absolute path (relative entries already made absolute against
    /// `music_directory`, as `M3U.path(of:base:)` does) or a URL.
    public struct StoredPlaylist: Hashable, Sendable {
        public var name: String
        public var entries: [String]

        public init(name: String, entries: [String]) {
            self.name = name
            self.entries = entries
        }
    }

    /// A sticker that was not carried, and why.
    public struct Refused: Hashable, Sendable {
        public var uri: String
        public var name: String
        public var value: String
        public var reason: String
    }

    /// What became of one stored playlist.
    public struct PlaylistOutcome: Hashable, Sendable {
        public enum Fate: String, Hashable, Sendable {
            /// Made as a new Boomic playlist.
            case created
            /// An existing playlist of that name got MPD's entries (`--replace`).
            case replaced
            /// A playlist of that name already holds these songs: nothing to do.
            case unchanged
            /// Left out: `reason` says why (a name taken, a bad name, no entry in the library).
            case skipped
        }
        public var name: String
        public var fate: Fate
        /// Entries carried (songs found in the library).
        public var songs: Int
        /// Entries that are not songs of the library (paths, or URLs of streams), in order.
        public var missing: [String]
        public var reason: String?
    }

    /// The generated assertions and the report of the run.
    public struct Outcome: Sendable {
        public var assertions: [Assertion] = []
        /// Sticker rows found on songs of the library and understood.
        public var stickersCarried = 0
        /// Songs whose fields or stickers change.
        public var songsChanged = 0
        /// URIs of song stickers whose song is not in the library, each once, in order.
        public var notInLibrary: [String] = []
        /// Sticker rows on those songs.
        public var stickersNotInLibrary = 0
        /// Stickers with a value Boomic's field cannot hold (`rating` 11) or a bad name.
        public var refused: [Refused] = []
        /// Stickers on what is not a song (MPD 0.24's `playlist` and tag stickers), by type.
        public var otherTypes: [String: Int] = [:]
        public var playlists: [PlaylistOutcome] = []
        /// Whether the play count of some song changes (`undo` then needs `--plays`).
        public var changesPlays: Bool { assertions.contains { EditGeneration.keepingPlays([$0]) != [$0] } }

        public init() {}
    }

    /// The assertions that bring MPD's stickers and playlists onto `basis`.
    ///
    /// - Parameters:
    ///   - musicDirectories: MPD's `music_directory`, then any other spelling of it (the same
    ///     folder through its links): a URI's song is looked for under each, in order.
    ///   - replace: give an existing playlist of the same name MPD's entries instead of
    ///     skipping it.
    ///   - newListID: the id of each playlist made (the caller's generator, so tests repeat).
    public static func generate(_ basis: DataBasis, musicDirectories: [String], stickers: [StickerRow],
                                playlists: [StoredPlaylist], replace: Bool, newListID: () -> ListID) -> Outcome {
        var out = Outcome()
        out.assertions = stickerAssertions(basis, musicDirectories: musicDirectories, stickers: stickers, into: &out)
        out.songsChanged = out.assertions.count
        var working = basis.applying(out.assertions)
        for list in playlists {
            // Songs are found in the first basis (neither a sticker nor a playlist moves one),
            // names checked against the playlists made so far.
            let (assertions, outcome) = playlist(list, songsOf: basis, on: working, replace: replace, newListID: newListID)
            out.playlists.append(outcome)
            working = working.applying(assertions)
            out.assertions += assertions
        }
        return out
    }

    /// The song a URI names: the first of the music directories under which the library has it.
    static func song(uri: String, in basis: DataBasis, musicDirectories: [String]) -> Song? {
        for dir in musicDirectories {
            if let s = song(atPath: M3U.normalized(dir + "/" + uri), in: basis) { return s }
        }
        return nil
    }

    /// The song at an absolute path as MPD names it: a file's path, or a track's URI
    /// (`DataBasis.songs(atURIPath:)`). A path that holds tracks names no one song: MPD keeps a
    /// sticker of the whole image, which Boomic has no song for.
    static func song(atPath path: String, in basis: DataBasis) -> Song? {
        let found = basis.songs(atURIPath: path)
        return found.count == 1 && (found[0].start == nil || found[0].uriPath == path) ? found[0] : nil
    }

    private static func stickerAssertions(_ basis: DataBasis, musicDirectories: [String], stickers: [StickerRow],
                                          into out: inout Outcome) -> [Assertion] {
        // By URI, in the order first seen; a song's stickers are one update.
        var order: [String] = []
        var byURI: [String: [StickerRow]] = [:]
        for row in stickers {
            guard row.type == "song" else { out.otherTypes[row.type, default: 0] += 1; continue }
            if byURI[row.uri] == nil { order.append(row.uri) }
            byURI[row.uri, default: []].append(row)
        }
        var assertions: [Assertion] = []
        for uri in order {
            let rows = byURI[uri]!
            guard let song = song(uri: uri, in: basis, musicDirectories: musicDirectories) else {
                out.notInLibrary.append(uri)
                out.stickersNotInLibrary += rows.count
                continue
            }
            var set: [FieldAssignment] = []
            var own = song.stickers
            for row in rows {
                do {
                    switch try MPDSticker.meaning(name: row.name, value: row.value) {
                    case .field(let a) where a.field == .playcount:
                        set.append(FieldAssignment(field: .playcount, value: .int(max(song.playcount, a.value.int ?? 0))))
                    case .field(let a): set.append(a)
                    case .own(let name, let value): own.append(name + "=" + value)
                    }
                    out.stickersCarried += 1
                } catch {
                    out.refused.append(Refused(uri: uri, name: row.name, value: row.value, reason: error.description))
                }
            }
            let stickers = Song.normalizedStickers(own)
            if stickers != song.stickers { set.append(FieldAssignment(field: .stickers, value: .strings(stickers))) }
            assertions += EditGeneration.modify(basis, songs: [song.id], set: set)
        }
        return assertions
    }

    private static func playlist(_ list: StoredPlaylist, songsOf library: DataBasis, on basis: DataBasis, replace: Bool,
                                 newListID: () -> ListID) -> ([Assertion], PlaylistOutcome) {
        var songs: [SongID] = [], missing: [String] = []
        for entry in list.entries {
            if !M3U.isURL(entry), case let found = library.songs(atURIPath: entry), !found.isEmpty { songs += found.map(\.id) } else { missing.append(entry) }
        }
        var outcome = PlaylistOutcome(name: list.name, fate: .skipped, songs: songs.count, missing: missing, reason: nil)
        if songs.isEmpty && !list.entries.isEmpty {
            outcome.reason = "none of its entries is a song in the library"
            return ([], outcome)
        }
        do {
            if let (_, existing) = basis.playlist(named: list.name) {
                if existing.songs == songs {
                    outcome.fate = .unchanged
                    return ([], outcome)
                }
                guard replace else {
                    outcome.reason = "a playlist named '\(existing.name)' already exists; --replace gives it MPD's entries"
                    return ([], outcome)
                }
                outcome.fate = .replaced
                return (try PlaylistGeneration.replace(existing.name, songs: songs, on: basis), outcome)
            }
            outcome.fate = .created
            return (try PlaylistGeneration.create(list.name, songs: songs, id: newListID(), on: basis), outcome)
        } catch {
            outcome.fate = .skipped
            outcome.reason = error.message
            return ([], outcome)
        }
    }
}
