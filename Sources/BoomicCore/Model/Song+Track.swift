extension Song {
    /// The part of its file a track plays (`start`, `end` in samples, at the song's sample
    /// rate), in the player's seconds; nil for a whole file. Seconds lose nothing: a sample `n`
    /// of a file at rate `r` is `n / r` seconds, and the engine's `(n / r × r).rounded()` is `n`
    /// again for every sample of any file shorter than 2^50 samples.
    public var playRange: PlayRange? {
        guard let start else { return nil }
        let rate = Double(samplerate ?? 44_100)
        let first = Double(start) / rate, last = end.map { Double($0) / rate }
        guard last.map({ $0 > first }) ?? true else { return nil }
        return PlayRange(start: first, end: last)
    }

    /// Where the song starts playing in its file's seconds, for its bookmark (a position in
    /// the song's own time) or its start.
    public func startSeconds(bookmark: Double?) -> Double {
        (bookmark ?? 0) + (playRange?.start ?? 0)
    }
}

extension Song {
    /// The path MPD clients know the song by, before it is made relative to the music folder:
    /// its file's, or for a track of a CUE sheet the sheet's path and `track` with the track's
    /// number in four digits (`Album/image.cue/track0002`), as MPD's cue playlist plugin names
    /// a sheet's tracks, so that stickers and stored playlists name tracks as clients expect.
    public var uriPath: String {
        guard let sheet, start != nil else { return path }
        let n = String(max(0, track ?? 0))
        return sheet + "/track" + String(repeating: "0", count: max(0, 4 - n.count)) + n
    }
}
