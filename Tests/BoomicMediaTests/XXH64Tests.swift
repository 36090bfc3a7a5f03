import BoomicCore
@testable import BoomicMedia
import Testing

@Suite struct XXH64Tests {
    // Reference values from the xxHash project (and python-xxhash's README).
    @Test(arguments: [
        ("", "ef46db3751d8e999"),
        ("a", "d24ec4f1a98c6e5b"),
        ("abc", "44bc2cf5ad770999"),
        ("Nobody inspects the spammish repetition", "fbcea83c8a378bf1"),
    ])
    func knownValues(_ text: String, _ hex: String) {
        #expect(XXH64.hex(Array(text.utf8)) == hex)
    }

    @Test func everyLengthUpTo100IsDistinctAndStable() {
        let data = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        var seen: Set<String> = []
        for n in 0...100 {
            let h = XXH64.hex(Array(data.prefix(n)))
            #expect(h.count == 16)
            #expect(h == XXH64.hex(Array(data.prefix(n))))
            seen.insert(h)
        }
        #expect(seen.count == 101)
    }

    @Test func unalignedInput() {
        let data = [UInt8](repeating: 7, count: 1) + Array("Nobody inspects the spammish repetition".utf8)
        let h = data.withUnsafeBytes { XXH64.hex(UnsafeRawBufferPointer(rebasing: $0.dropFirst())) }
        #expect(h == "fbcea83c8a378bf1")
    }
}
