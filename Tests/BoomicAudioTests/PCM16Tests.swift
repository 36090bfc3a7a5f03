import BoomicAudio
import Testing

/// The output thread widens 16-bit samples packed at the start of a ring slot into the Int32s
/// that fill it, in place: every sample keeps its value, whatever the count (blocks of 16 and
/// the rest).
@Suite struct PCM16Tests {
    @Test(arguments: [0, 1, 2, 15, 16, 17, 31, 32, 33, 4_096, 4_101])
    func widenInPlaceKeepsEverySample(count: Int) {
        var state: UInt32 = 12_345
        let values: [Int16] = (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Int16(truncatingIfNeeded: state >> 16)
        } + (count > 0 ? [Int16.min, Int16.max] : [])
        // One more slot sample than needed: nothing past the samples is written.
        var slot = [Int32](repeating: -1, count: values.count + 1)
        slot.withUnsafeMutableBytes { raw in
            values.withUnsafeBytes { raw.copyMemory(from: $0) }
        }
        slot.withUnsafeMutableBufferPointer { PCM16.widenInPlace($0.baseAddress!, count: values.count) }
        #expect(slot == values.map(Int32.init) + [-1])
    }
}
