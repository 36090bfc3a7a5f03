import Testing
@testable import BoomicCore

/// `DataBasis.songs(atURIPath:)`: what a path in a playlist, a sticker or a local `add` names,
/// now that a file may hold several songs (a CUE image's tracks, an MP3's chapters).
@Suite struct URIPathTests {
    static func track(_ n: Int, start: Int, end: Int?, missing: Bool = false) -> Song {
        var t = Song(id: songID(100 - n), path: "/m/A/image.flac")
        t.start = start; t.end = end; t.sheet = "/m/A/image.cue"; t.track = n; t.missing = missing
        return t
    }
    static let plain = Song(id: songID(1), path: "/m/B/one.flac")
    static let tracks = [track(1, start: 0, end: 588), track(2, start: 588, end: 1176), track(3, start: 1176, end: nil)]
    static let basis = DataBasis(songs: [plain] + tracks)

    @Test func aFileNamesItsSong() {
        #expect(Self.basis.songs(atURIPath: "/m/B/one.flac").map(\.id) == [Self.plain.id])
        #expect(Self.basis.songs(atURIPath: "/m/B/two.flac").isEmpty)
    }

    @Test func anImageNamesItsTracksInOrderAndATrackURIThatTrack() {
        // Ids run against the tracks' order, so the order comes from the start samples.
        #expect(Self.basis.songs(atURIPath: "/m/A/image.flac").map(\.id) == Self.tracks.map(\.id))
        #expect(Self.basis.songs(atURIPath: "/m/A/image.cue/track0002").map(\.id) == [Self.tracks[1].id])
        #expect(Self.basis.songs(atURIPath: "/m/A/image.cue/track0004").isEmpty)
        #expect(Self.basis.songs(atURIPath: "/m/A/image.cue").isEmpty)
    }

    @Test func anImagesMissingTracksAreLeftOutWhileOthersArePresent() {
        let b = DataBasis(songs: [Self.tracks[0], Self.track(2, start: 588, end: nil, missing: true)])
        #expect(b.songs(atURIPath: "/m/A/image.flac").map(\.id) == [Self.tracks[0].id])
    }
}
