@testable import BoomicMPD
import Testing

/// `lsinfo` of the root ends with the stored playlists, each with its `Last-Modified`, as MPD
/// lists them there and in `listplaylists` (clients show the date, and ncmpcpp sorts by it).
@Suite struct RootListingTests {
    @Test func storedPlaylistsCarryTheirDateAtTheRoot() throws {
        let text = try ServerConversation.run("save Evening\nlsinfo\nlistplaylists\n") {
            ServerConversation.titledSongs(2, artists: 1, albums: 1, seed: 3, in: $0)
        }
        let answers = text.components(separatedBy: "OK\n")
        let root = answers[1], listed = answers[2]
        #expect(listed.hasPrefix("playlist: Evening\nLast-Modified: 20"), "\(listed)")
        #expect(root.hasSuffix(listed), "the root's playlists as listplaylists gives them: \(root)")
    }
}
