import BoomicCore
@testable import BoomicMPD
import BoomicTestSupport
import NIOCore
import NIOEmbedded
import Testing

/// However a client's requests are cut into reads, it gets the same answers. The `status`
/// poll's shortcut (a `status` alone in its read, answered with the kept answer) takes its
/// turn behind whatever the connection has under way: a command list, a line half read,
/// requests read but not yet answered. Serialized: each case starts a library and a player,
/// and side by side they wait on each other (18 s for what takes 0.2 s one after another).
@Suite(.serialized) struct ReadSplitTests {
    /// Requests whose answers do not move between runs (the player stays stopped), with
    /// `status` everywhere a lone read could put it: in lists, after errors, between lines.
    static let script = [
        "status", "ping", "command_list_begin", "status", "status", "command_list_end",
        "status", "command_list_ok_begin", "status", "ping", "status", "command_list_end",
        "status", "nosuchcommand", "status", "repeat 1", "status", "add \"\"", "status",
        "playlistinfo", "status", "random 1", "command_list_begin", "status", "repeat 0", "command_list_end",
        "status", "consume x", "status", "clear", "status",
    ].map { $0 + "\n" }.joined()

    static func songs(_ dir: String) -> [Song] {
        ServerConversation.titledSongs(30, artists: 3, albums: 5, seed: 7, in: dir)
    }

    /// Cuts the script at random: at most line ends (so that many a `status` is alone in its
    /// read), now and then inside a line.
    static func reads(seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        var reads: [String] = [], current = ""
        for character in script {
            current.append(character)
            let cut = character == "\n" ? Double.random(in: 0..<1, using: &random) < 0.7
                                        : Double.random(in: 0..<1, using: &random) < 0.04
            if cut {
                reads.append(current)
                current = ""
            }
        }
        if !current.isEmpty { reads.append(current) }
        return reads
    }

    /// A line read in two, its end a lone `status`: the end of `nostatus`, not a poll.
    @Test func theEndOfAHalfReadLineIsNoPoll() throws {
        let reads = ["status\n", "no", "status\n", "ping\n"]
        let whole = try ServerConversation.run(reads.joined(), playerSettled: true, songs: Self.songs)
        #expect(whole.contains("{} unknown command \"nostatus\""), "\(whole)")
        let cut = try ServerConversation.run(reads[0], playerSettled: true, then: { channel in
            for read in reads.dropFirst() { try channel.send(read) }
        }, songs: Self.songs)
        #expect(cut == whole)
    }

    /// The script's answers when it comes in one read (made once for every cut).
    static let whole = Result { try ServerConversation.run(script, playerSettled: true, songs: songs) }

    @Test(arguments: 0..<16)
    func anyCutGetsTheAnswersOfOneRead(seed: UInt64) throws {
        let whole = try Self.whole.get()
        #expect(whole.components(separatedBy: "state: stop\n").count > 10, "status was answered: \(whole.prefix(300))")
        let reads = Self.reads(seed: seed)
        let cut = try ServerConversation.run(reads[0], playerSettled: true, then: { channel in
            for read in reads.dropFirst() { try channel.send(read) }
        }, songs: Self.songs)
        let same = zip(cut.utf8, whole.utf8).prefix { $0 == $1 }.count
        #expect(cut == whole, "seed \(seed), reads \(reads): first difference at byte \(same): \(cut.utf8.dropFirst(same).prefix(80).map { Character(UnicodeScalar($0)) })")
    }
}
