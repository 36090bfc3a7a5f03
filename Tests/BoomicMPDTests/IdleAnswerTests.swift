import BoomicCore
@testable import BoomicMPD
import BoomicTestSupport
import NIOCore
import NIOEmbedded
import Testing

/// An `idle` is answered once, and before whatever the client sent after it: also when a change
/// made on another thread ends it while the client's next requests are already on their way
/// (`idle`, then `noidle` and `status` in one write, a change between), where the change's
/// answer, sent to the connection's loop, would arrive after them. Serialized, as
/// `ReadSplitTests`.
@Suite(.serialized) struct IdleAnswerTests {
    static func songs(_ dir: String) -> [Song] {
        ServerConversation.titledSongs(3, artists: 1, albums: 1, seed: 3, in: dir)
    }

    /// The requests after the idle, read before the loop runs anything else.
    /// Reads `text` as one read from the client, then runs what that left on the loop (the
    /// answer of work handed off it, such as switching an output).
    static func read(_ text: String, _ channel: EmbeddedChannel) {
        channel.pipeline.fireChannelRead(ByteBuffer(string: text))
        channel.pipeline.fireChannelReadComplete()
        channel.embeddedEventLoop.run()
    }

    /// The answers after the greeting, each up to its `OK` line.
    static func answers(_ text: String) -> [String] {
        var answers: [String] = [], current = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast() {
            current += line + "\n"
            if line == "OK" || line.hasPrefix("ACK ") {
                answers.append(current)
                current = ""
            }
        }
        return answers
    }

    @Test(arguments: ["noidle\nstatus\n", "status\n", "noidle\nnoidle\nstatus\n"])
    func aChangeThatEndsTheIdleIsAnsweredBeforeTheRequestsAfterIt(_ after: String) throws {
        let text = try ServerConversation.run("idle\n", during: { channel, server in
            server.hub.post([.options])  // its answer is sent to the loop, which has not run it yet
            Self.read(after, channel)
            channel.embeddedEventLoop.run()  // the answer sent to the loop: taken already, nothing more
        }, songs: Self.songs)
        let answers = Self.answers(text)
        #expect(answers.first == "changed: options\nOK\n", "\(answers)")
        #expect(answers.count == 2 && answers[1].hasPrefix("volume: "), "one idle answer, then status's: \(answers)")
    }

    @Test func aChangeWhileNothingElseCameIsAnsweredFromTheLoop() throws {
        let text = try ServerConversation.run("idle player options\n", during: { channel, server in
            server.hub.post([.database])  // not asked for: no answer
            channel.embeddedEventLoop.run()
            server.hub.post([.options, .player])
            channel.embeddedEventLoop.run()
            Self.read("noidle\nping\n", channel)  // answered already: noidle says nothing
        }, songs: Self.songs)
        #expect(Self.answers(text) == ["changed: player\nchanged: options\nOK\n", "OK\n"])
    }

    /// `noidle` while not waiting does nothing: in a command list too, where it is no command of
    /// the list (no `list_OK`, no error), as in MPD.
    @Test func noidleOutsideAnIdleDoesNothing() throws {
        let text = try ServerConversation.run("command_list_ok_begin\nping\nnoidle\nping\ncommand_list_end\nnoidle\nping\n",
                                              songs: Self.songs)
        #expect(text == MPDSession.greeting + "list_OK\nlist_OK\nOK\nOK\n")
    }

    /// A move to another room (`partition`) tells the next `idle` what is the room's own, and
    /// nothing else the client had pending (`partition` from its `newpartition`, `subscription`),
    /// as MPD 0.23 does; moving to the room it is in changes nothing.
    @Test func aMoveToAnotherRoomTellsOnlyWhatIsTheRooms() throws {
        let rooms = "changed: playlist\nchanged: player\nchanged: mixer\nchanged: output\nchanged: options\nOK\n"
        // `newpartition` is blocking work: its answer comes back through the loop.
        let run = { (channel: EmbeddedChannel, _: ServerContext) in channel.embeddedEventLoop.run() }
        let moved = try ServerConversation.run("newpartition m\nsubscribe ch\npartition m\nidle\n", during: run, songs: Self.songs)
        #expect(Self.answers(moved) == ["OK\n", "OK\n", "OK\n", rooms], "\(moved)")
        let stayed = try ServerConversation.run("newpartition m\npartition default\nidle\n", during: run, songs: Self.songs)
        #expect(Self.answers(stayed) == ["OK\n", "OK\n", "changed: partition\nOK\n"], "\(stayed)")
    }

    /// `noidle` with arguments is no command to MPD 0.23, alone or in a list.
    @Test func noidleWithArgumentsIsAnUnknownCommand() throws {
        let text = try ServerConversation.run("noidle x\nping\ncommand_list_begin\nping\nnoidle x\nping\ncommand_list_end\nping\n",
                                              songs: Self.songs)
        #expect(Self.answers(text) == ["ACK [5@0] {} unknown command \"noidle\"\n", "OK\n",
                                       "ACK [5@1] {} unknown command \"noidle\"\n", "OK\n"])
    }

    /// An `idle` in a command list ends it, as in MPD: the commands after it are not run, the
    /// list gets no `OK`, and the idle is answered when it ends.
    @Test func anIdleEndsTheCommandListItIsIn() throws {
        let text = try ServerConversation.run("command_list_ok_begin\nping\nidle\nsetvol 10\ncommand_list_end\n", during: { channel, _ in
            Self.read("noidle\nping\n", channel)
        }, songs: Self.songs)
        #expect(Self.answers(text) == ["list_OK\nOK\n", "OK\n"], "\(text)")
        let bad = try ServerConversation.run("command_list_begin\nping\nidle bogus\nping\ncommand_list_end\nping\n", songs: Self.songs)
        #expect(Self.answers(bad) == ["ACK [2@1] {idle} Unrecognized idle event: bogus\n", "OK\n"])
    }

    @Test func noidleWithoutAChangeEndsTheIdleEmpty() throws {
        let text = try ServerConversation.run("idle\n", during: { channel, _ in
            Self.read("noidle\nping\n", channel)
        }, songs: Self.songs)
        #expect(Self.answers(text) == ["OK\n", "OK\n"])
    }

    /// `noidle` ends an idle with spaces or tabs after it, as MPD reads a line, not before it.
    @Test(arguments: [("noidle  \n", true), ("noidle\t\n", true), ("  noidle\n", false), ("\tnoidle\n", false)])
    func noidleWithSpacesAround(_ line: String, _ ends: Bool) throws {
        var open = true
        let text = try ServerConversation.run("idle\n", during: { channel, _ in
            Self.read(line + "ping\n", channel)
            open = channel.isActive
        }, songs: Self.songs)
        #expect(open == ends && Self.answers(text) == (ends ? ["OK\n", "OK\n"] : []), "\(text)")
    }

    /// In idle, anything but `noidle` ends the connection, as MPD does.
    @Test func anotherCommandInIdleHangsUp() throws {
        var open = true
        let text = try ServerConversation.run("idle\n", during: { channel, _ in
            Self.read("status\n", channel)
            open = channel.isActive
        }, songs: Self.songs)
        #expect(!open)
        #expect(Self.answers(text).isEmpty, "\(text)")
    }

    /// Switching the `null` output tells `output` alone: MPD tells `mixer` only for an output
    /// with a mixer, which its null, fifo and pipe outputs lack (Debian's mpd 0.23.12); a switch
    /// to what the output already is tells nothing.
    @Test(arguments: ["disableoutput 0\n", "toggleoutput 0\n", "disableoutput 0\nidle mixer output\nnoidle\nenableoutput 0\n"])
    func switchingTheNullOutputTellsNoMixer(_ switching: String) throws {
        let text = try ServerConversation.run(switching + "idle mixer output\n", during: { channel, _ in
            Self.read("noidle\nenableoutput 0\nidle mixer output\n", channel)
            Self.read("noidle\n", channel)
        }, songs: Self.songs)
        let answers = Self.answers(text).filter { $0 != "OK\n" }
        #expect(answers == ["changed: output\nOK\n", "changed: output\nOK\n"], "\(text)")
    }

    /// An output switched is told in its room only, as MPD tells a partition's outputs to its
    /// own clients: a client in another room hears the next change, not the switch.
    @Test func anOutputSwitchedIsToldInItsRoomOnly() throws {
        var elsewhere: Set<Subsystem>?
        let text = try ServerConversation.run("idle output\n", during: { channel, server in
            let other = server.hub.makeSlot()
            other.room = "m"
            Self.read("noidle\ndisableoutput 0\nidle output\n", channel)
            server.hub.post([.database])
            if other.wait(for: [.output, .mixer, .database], wake: {}) { elsewhere = other.take() }
        }, songs: Self.songs)
        #expect(Self.answers(text) == ["OK\n", "OK\n", "changed: output\nOK\n"], "\(text)")
        #expect(elsewhere == [.database])
    }
}
