@testable import BoomicMPD
import Testing

/// `rangeid`'s `START:END`, against what Debian's MPD 0.23.12 answered to each (OK, or `Bad range`).
@Suite struct TimeRangeTests {
    @Test(arguments: [
        ("1:", 1000, 0), (":2", 0, 2000), (":", 0, 0), ("1.5:2.5", 1500, 2500), ("0:0", 0, 0),
        ("3:0", 3000, 0), (" 1:2", 1000, 2000), ("1: 2", 1000, 2000), ("0x1:2", 1000, 2000),
        ("1e1:2e1", 10000, 20000), ("inf:", 0, 0), ("1e400:", 0, 0), ("nan:1", 0, 1000),
    ])
    func aRangeMPDTakes(text: String, start: Int, end: Int) throws {
        let range = try #require(TimeRange.parse(text), "\(text)")
        #expect(Int(range.start) == start && Int(range.end) == end, "\(text): \(range)")
    }

    @Test(arguments: ["2:1", "-1", "1:-2", "abc", "1:2x", "1:1", "-1:2", "", "1 :2", "1.0001:1.0001", "1", "1:2:3"])
    func aRangeMPDCallsBad(text: String) {
        #expect(TimeRange.parse(text) == nil, "\(text)")
    }
}
