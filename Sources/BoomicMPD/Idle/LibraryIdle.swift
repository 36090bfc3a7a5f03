import BoomicCore

/// What MPD clients are told of one step of the library, from one basis to the next: a pure
/// function of the two bases and the change between them, so that the rule is a table.
///
/// | what changed | subsystems |
/// |---|---|
/// | a song added, removed, marked missing or found again | `database` |
/// | a field a client sees (`shownFields`: a tag MPD names, the path, the length, the format, the file's time) | `database`; its queue entries are refreshed (`playlist` to their rooms) |
/// | a rating, a play count, a favourite, a client's own sticker (`stickerFields`) | `sticker` (not for the player's own count of a play) |
/// | any other field (`#tags`, guesses, bookmarks, skips, user fields, ReplayGain, art…) | nothing, unless a taglist gains or loses the song |
/// | a playlist created, renamed, deleted or its songs changed | `stored_playlist` |
/// | a taglist created, renamed, deleted or the songs it selects changed | `stored_playlist` |
///
/// MPD clients reload their whole library on `database` and the stored playlists on
/// `stored_playlist`, so neither is told for what they cannot see.
public struct LibraryIdle: Equatable, Sendable {
    /// What every connection hears.
    public var subsystems: Set<Subsystem> = []
    /// Songs still in the library whose lines changed: their entries in the queues take a new
    /// version, as MPD's queue takes a database update, and the rooms holding them are told
    /// `playlist` by their players.
    public var shown: Set<SongID> = []
    /// Songs the change took out of the library or marked missing: the queues drop them.
    public var gone: Set<SongID> = []
    /// Playlists and taglists whose name or songs changed: their `Last-Modified` moves.
    public var lists: Set<ListID> = []

    public init(subsystems: Set<Subsystem> = [], shown: Set<SongID> = [], gone: Set<SongID> = [], lists: Set<ListID> = []) {
        self.subsystems = subsystems
        self.shown = shown
        self.gone = gone
        self.lists = lists
    }

    /// The fields an MPD client reads of a song: the tags of `MPDTag` (and what they fall back to:
    /// the artist credit, the year), its path and place in its file (`file`, `Range`), the
    /// file's time, size and format, its length, when it was added (`added-since`) and whether
    /// it is there at all.
    public static let shownFields: Set<SongField> = Set(MPDTag.allCases.map(\.field)).union([
        .artistCredit, .year, .path, .start, .end, .sheet, .missing, .mtime, .size, .added,
        .samplerate, .bitdepth, .channels, .duration,
    ])

    /// The fields MPD clients see as stickers (`MPDSticker`): the rating, the play count, the
    /// favourite and their own stickers.
    public static let stickerFields: Set<SongField> = [.rating, .playcount, .favorite, .stickers]

    /// What `change` (the step from `before` to `after`) tells.
    ///
    /// Complexity: O(changed songs × (fields they changed + taglists)); a taglist whose rules
    /// changed is compared over the whole library.
    public init(from before: DataBasis, to after: DataBasis, change: LibraryChange) {
        let shownChanged = Self.shownFields.intersection(change.songFields)
        var database = false
        for id in change.songs {
            let was = before[id].flatMap { $0.missing ? nil : $0 }, now = after[id].flatMap { $0.missing ? nil : $0 }
            switch (was, now) {
            case (nil, nil): continue
            case (nil, _?), (_?, nil):
                database = true
                if now == nil { gone.insert(id) }
            case let (a?, b?):
                // By bytes, as MPD tells values apart: a path renamed from NFC to NFD is another path.
                if shownChanged.contains(where: { !FieldChange(old: $0.value(in: a), new: $0.value(in: b)).isNoOp }) {
                    database = true
                    shown.insert(id)
                }
            }
        }
        if database { subsystems.insert(.database) }
        // Not the player's own count of a play, at every song change: MPD changes no sticker by
        // itself, and a client told (Cantata) asks again for the rating of every song queued.
        if !change.songFields.isDisjoint(with: Self.stickerFields), change.kinds != [.play] { subsystems.insert(.sticker) }
        for id in change.playlists where before.playlists[id] != after.playlists[id] { lists.insert(id) }
        lists.formUnion(Self.taglistsChanged(from: before, to: after, change: change))
        if !lists.isEmpty { subsystems.insert(.storedPlaylist) }
    }

    /// The taglists whose name or songs differ between the two bases: over the whole library
    /// for one whose rules changed, else over the songs the change touched (a taglist's
    /// membership depends on the song alone).
    private static func taglistsChanged(from before: DataBasis, to after: DataBasis, change: LibraryChange) -> Set<ListID> {
        var out: Set<ListID> = []
        for id in change.taglists {
            let a = before.taglists[id], b = after.taglists[id]
            guard a != b else { continue }
            guard let a, let b, a.name == b.name else {
                out.insert(id)
                continue
            }
            if Set(before.songs(in: a).lazy.map(\.id)) != Set(after.songs(in: b).lazy.map(\.id)) { out.insert(id) }
        }
        guard !change.songs.isEmpty else { return out }
        for (id, taglist) in after.taglists where !change.taglists.contains(id) {
            let matcher = TaglistMatcher(taglist)
            let moved = change.songs.contains { song in
                (before[song].map(matcher.matches) ?? false) != (after[song].map(matcher.matches) ?? false)
            }
            if moved { out.insert(id) }
        }
        return out
    }
}
