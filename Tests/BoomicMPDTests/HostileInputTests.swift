import BoomicCore
import Foundation
import NIOCore
import NIOEmbedded
import Testing

/// What a hostile or clumsy client cannot do to the server, on one connection in process: long
/// lines, bad UTF-8, huge command lists, bad numbers and unknown commands are ACK lines and the
/// conversation goes on; a line MPD hangs up on closes the connection, after its ACK when the
/// command word is malformed. (`ServeRobustnessTests` keeps what needs real sockets: many
/// clients, a stop, memory.)
@Suite(.serialized) struct HostileInputTests {
    /// The answers in `output`, each its lines up to its `OK` or `ACK` line; the greeting apart.
    static func answers(_ output: String) -> [[String]] {
        var all: [[String]] = [], current: [String] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.hasPrefix("OK MPD ") && all.isEmpty && current.isEmpty { continue }
            current.append(String(line))
            if line == "OK" || line.hasPrefix("ACK ") {
                all.append(current)
                current = []
            }
        }
        if !current.isEmpty { all.append(current) }
        return all
    }

    /// Runs `input` on a fresh connection; its answers and whether the server closed it.
    static func talk(_ input: String) throws -> (answers: [[String]], closed: Bool) {
        var closed = false
        let output = try ServerConversation.run(input, then: { channel in closed = !channel.isActive }) { _ in [] }
        return (answers(output), closed)
    }

    @Test func hostileInputIsAnsweredWithACKs() throws {
        let input = String(repeating: "a", count: 70_000) + "\nping\n"
            + "frobnicate\nsetvol loud\nplay -5\nadd \"unterminated\ngetvol\n"
            + "command_list_begin\n" + String(repeating: "ping\n", count: 10_001) + "command_list_end\nping\n"
            + "command_list_ok_begin\nping\nstatus\nfrobnicate\nping\ncommand_list_end\n"
            + "idle\nnoidle\nping\n"
        let (a, closed) = try Self.talk(input)
        #expect(!closed)
        try #require(a.count == 12, "\(a.map { $0.prefix(3) })")
        #expect(a[0] == ["ACK [2@0] {} line too long"], "\(a[0])")
        #expect(a[1] == ["OK"])
        #expect(a[2] == ["ACK [5@0] {} unknown command \"frobnicate\""], "\(a[2])")
        #expect(a[3] == ["ACK [2@0] {setvol} Integer expected: loud"], "\(a[3])")
        #expect(a[4].first?.hasPrefix("ACK [2@0] {play}") == true, "\(a[4])")
        #expect(a[5] == ["ACK [5@0] {} Missing closing '\"'"], "\(a[5])")
        #expect(a[6] == ["volume: 100", "OK"], "\(a[6])")
        #expect(a[7].first?.hasPrefix("ACK [2@0] {} command list too long") == true, "\(a[7].prefix(2))")
        #expect(a[8] == ["OK"])
        #expect(a[9].first == "list_OK" && a[9].last == "ACK [5@2] {} unknown command \"frobnicate\"", "\(a[9])")
        #expect(a[10] == ["OK"], "noidle ends idle with OK: \(a[10])")
        #expect(a[11] == ["OK"], "\(a[11])")
    }

    /// Bytes that are not UTF-8 are the one ACK, the line's command never run.
    @Test func badUTF8IsOneACK() throws {
        let bytes = Array("find artist ".utf8) + [0xFF, 0xFE] + Array("\nping\n".utf8)
        var closed = false
        let output = try ServerConversation.run("", then: { channel in
            try channel.writeInbound(ByteBuffer(bytes: bytes))
            channel.embeddedEventLoop.run()
            closed = !channel.isActive
        }) { _ in [] }
        #expect(!closed)
        #expect(Self.answers(output) == [["ACK [2@0] {} not UTF-8"], ["OK"]], "\(output)")
    }

    /// MPD hangs up without a word on a line that does not start with a lower-case letter, and
    /// after answering one whose command word is malformed.
    @Test func linesMPDHangsUpOnCloseTheConnection() throws {
        for line in ["PING\n", " ping\n", "\n"] {
            let (answers, closed) = try Self.talk(line + "ping\n")
            #expect(answers.isEmpty && closed, "\(line.debugDescription): \(answers)")
        }
        let (answers, closed) = try Self.talk("ping!\nping\n")
        #expect(answers == [["ACK [5@0] {} Invalid word character"]] && closed, "\(answers)")
    }
}
