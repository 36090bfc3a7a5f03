extension Song {
    /// Keeps the credit and the list in step after `modify` set `fields`, the way beets users
    /// expect `artist=` to work: a new artist list replaces the credit too (else "A feat. B" would
    /// go on showing over the new artists), unless the same command sets the credit. A credit
    /// that says what the list says is none, and a credit with no list is the one artist.
    ///
    /// Goes through `edit`, so the file's values are remembered for `write` and rescans.
    mutating func settleArtistCredit(afterSetting fields: Set<SongField>) {
        if fields.contains(.artists) && !fields.contains(.artistCredit) {
            edit(.artistCredit, to: .null)
        }
        guard fields.contains(.artistCredit), let credit = artistCredit else { return }
        if artists.isEmpty {
            edit(.artists, to: .strings([credit]))
            edit(.artistCredit, to: .null)
        } else if credit == joinedArtists {
            edit(.artistCredit, to: .null)
        }
    }
}
