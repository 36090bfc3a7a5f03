/// The rule that says whether a song was played or skipped (issue 10, "Counting"), as
/// Last.fm scrobbles: a song that ended, or of which half or 4 minutes was heard, is a play;
/// moving on earlier is a skip; quitting records only the bookmark.
public enum PlayCounting {
    /// How the song stopped being the current one.
    public enum Ending: String, Hashable, Sendable, Codable {
        /// It played to its end (also the end the sleep timer waits for).
        case finished
        /// The user or the queue moved on to another song (next, previous, a jump, stop).
        case movedOn
        /// The player quit (q, SIGINT, SIGTERM, the sleep timer): nothing is counted.
        case quit
    }

    /// Four minutes: heard that long, any song counts as played.
    public static let enoughSeconds = 240.0

    /// The outcome of `heard` seconds of a song of `duration` seconds (nil when unknown, then only
    /// the 4 minutes count) that stopped by `ending`.
    ///
    /// - Parameter heard: seconds actually heard (in the song's own time), not the position:
    ///   seeking to the end is not listening.
    public static func outcome(heard: Double, duration: Double?, ending: Ending) -> PlayRecord.Outcome {
        switch ending {
        case .finished: return .played
        case .quit: return .bookmarkOnly
        case .movedOn: return isPlay(heard: heard, duration: duration) ? .played : .skipped
        }
    }

    /// Half the song, or 4 minutes, whichever comes first.
    public static func isPlay(heard: Double, duration: Double?) -> Bool {
        if heard >= enoughSeconds { return true }
        guard let duration, duration > 0 else { return false }
        return heard >= duration / 2
    }
}
