import BoomicCore
import Testing

/// Rooms are capped as MPD 0.23 caps partitions: 16, `default` included, the 17th refused with
/// MPD's ACK, as is a name already taken; on one connection in process. (`ServeRoomsTests` keeps
/// what needs the process: the threads an idle room holds, and which rooms a restart brings back.)
@Suite(.serialized) struct PartitionLimitsTests {
    @Test func theSeventeenthPartitionAndATakenNameAreRefused() throws {
        let input = (0..<15).map { "newpartition p\($0)\n" }.joined()
            + "newpartition p15\nnewpartition p3\nnewpartition default\nlistpartitions\n"
        let answers = HostileInputTests.answers(try ServerConversation.run(input) { _ in [] })
        try #require(answers.count == 19, "\(answers)")
        #expect(answers.prefix(15).allSatisfy { $0 == ["OK"] }, "\(answers.prefix(15))")
        #expect(answers[15] == ["ACK [5@0] {newpartition} too many partitions"], "\(answers[15])")
        #expect(answers[16] == ["ACK [56@0] {newpartition} name already exists"], "\(answers[16])")
        #expect(answers[17] == ["ACK [56@0] {newpartition} name already exists"], "\(answers[17])")
        #expect(answers[18] == ["partition: default"] + (0..<15).map { "partition: p\($0)" } + ["OK"], "\(answers[18])")
    }
}
