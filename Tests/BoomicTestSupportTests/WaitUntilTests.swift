import BoomicTestSupport
import Foundation
import Synchronization
import Testing

/// `waitUntil` ends when the event happens, not at its deadline, and a wait that fails says what
/// it waited for.
@Suite struct WaitUntilTests {
    @Test func returnsWhenAnotherThreadMakesTheConditionTrue() throws {
        final class Flag: Sendable { let raised = Atomic<Bool>(false) }
        let flag = Flag()
        let start = ContinuousClock.now
        Thread.detachNewThread { flag.raised.store(true, ordering: .releasing) }
        try waitUntil("the other thread's flag", timeout: .seconds(30)) { flag.raised.load(ordering: .acquiring) }
        #expect(ContinuousClock.now - start < .seconds(5), "the wait ended with the event, not at the deadline")
    }

    @Test func aConditionThatNeverHoldsNamesWhatWasAwaited() {
        let start = ContinuousClock.now
        #expect {
            try waitUntil("the kitchen to play", timeout: .milliseconds(50)) { false }
        } throws: { error in
            "\(error)".contains("waiting for the kitchen to play")
        }
        #expect(ContinuousClock.now - start >= .milliseconds(50))
    }

    @Test func itsErrorsPassThrough() {
        struct Broken: Error {}
        #expect(throws: Broken.self) { try waitUntil("nothing") { throw Broken() } }
    }
}
