/// The rule that counts a song streamed to an API user and scrobbled by their client once.
///
/// OpenSubsonic clients tell what they played in two ways: the server streams them the song
/// (`stream`), and most also send `scrobble` with `submission=true` when it has been heard (at
/// `time`); some (a browser's `<audio>`, simple clients) never scrobble. So:
/// 1. A stream of a song from its start opens a *pending play* for that user and song, unless the
///    client streaming it has scrobbled since the server started: its scrobbles say what it played.
/// 2. A scrobble is one play, keyed by the user, the song and its `time`: the same scrobble sent
///    again (an offline queue retried) has the same key, and the log counts it once.
/// 3. A scrobble claims the oldest unclaimed stream of that song to that user (by any of the
///    user's clients) that started at most `window` before its `time` (and not after it, give
///    or take `slack`): a pending play claimed is dropped (the scrobble is its play); a stream
///    already counted by rule 4 gives the scrobble the stream's key instead, so the commit finds that
///    play in the log and counts nothing more (and so does a retry while the claim is kept,
///    `window` after the stream's start).
/// 4. A pending play no scrobble claimed counts once the song has had time to be heard (its
///    duration, or `window` when unknown, past its start): `due(at:)` hands it over, keeps it
///    claimable by a late scrobble until `window` after its start, then forgets it.
///
/// A pure value: times are seconds since 1970, passed in. The keys are `PlayKey`s whose entry
/// is a hash of the user and song with bit 61 set, apart from any queue entry a player numbers.
public struct ListeningLedger: Sendable, Equatable {
    /// How long after a stream's start a scrobble may claim it, and how long an unknown-length
    /// song is given to be heard: a scrobble arrives within an hour of the play it reports.
    public var window: Double = 3600
    /// How far a scrobble's `time` may lie before the stream's start (clocks of phones differ).
    public var slack: Double = 120

    public struct Stream: Hashable, Sendable {
        public var caller: Caller
        public var song: SongID
        public var started: Double
        public var duration: Double?
        /// Counted by rule 4 and still claimable by a late scrobble.
        public var counted = false

        public var key: PlayKey { ListeningLedger.key(user: caller.user, song: song, at: started) }
    }

    public private(set) var streams: [Stream] = []
    /// Scrobbles that claimed a counted stream (rule 3), kept for `window` after its start.
    private var claims: [Claim] = []

    private struct Claim: Hashable, Sendable {
        var user: String
        var song: SongID
        var time: Double
        var key: PlayKey
        var started: Double
    }
    /// The clients (user and name) that have scrobbled a play: their streams open no pending play.
    public private(set) var scrobblingClients: Set<Caller> = []

    public init() {}

    /// Rule 1: the front sent `song` from its start to `user` through `client` at `time`.
    public mutating func streamed(_ song: SongID, duration: Double?, by caller: Caller, at time: Double) {
        guard !scrobblingClients.contains(caller) else { return }
        streams.append(Stream(caller: caller, song: song, started: time, duration: duration))
    }

    /// Rules 2 and 3: the key under which a scrobble of `song` by `user` at `time` is committed.
    public mutating func scrobbled(_ song: SongID, by caller: Caller, at time: Double) -> PlayKey {
        scrobblingClients.insert(caller)
        if let claim = claims.first(where: { $0.user == caller.user && $0.song == song && $0.time == time }) {
            return claim.key
        }
        if let i = streams.indices.filter({ i in
            let s = streams[i]
            return s.caller.user == caller.user && s.song == song && time >= s.started - slack && time <= s.started + window
        }).min(by: { streams[$0].started < streams[$1].started }) {
            let stream = streams.remove(at: i)
            if stream.counted {
                claims.append(Claim(user: caller.user, song: song, time: time, key: stream.key, started: stream.started))
                return stream.key
            }
        }
        return Self.key(user: caller.user, song: song, at: time)
    }

    /// Rule 4: the pending plays due at `now` (each handed over once, as a play at the end of its
    /// listening time), and the streams past their window forgotten.
    public mutating func due(at now: Double) -> [(stream: Stream, time: Double)] {
        var out: [(Stream, Double)] = []
        for i in streams.indices where !streams[i].counted {
            let heard = streams[i].started + (streams[i].duration ?? window)
            if heard <= now {
                streams[i].counted = true
                out.append((streams[i], heard))
            }
        }
        streams.removeAll { $0.counted && $0.started + window < now }
        claims.removeAll { $0.started + window < now }
        return out
    }

    /// The play key of `user` hearing `song` from `time`.
    public static func key(user: String, song: SongID, at time: Double) -> PlayKey {
        let bytes = Array(user.utf8) + [0] + Array(song.description.utf8)
        let hash = bytes.withUnsafeBytes { XXH64.hash($0) }
        let entry = Int(truncatingIfNeeded: (hash & (1 << 61 - 1)) | 1 << 61)
        return PlayKey(entry: PlayQueue.EntryID(entry), at: time)
    }
}
