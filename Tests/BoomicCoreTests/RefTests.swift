import Testing
@testable import BoomicCore

/// REF as typed (DESIGN §4): a sequence number, HEAD and its ancestors, an id prefix or a date.
@Suite("Ref parsing")
struct RefTests {
    @Test("REFs parse", arguments: [
        ("42", Ref.seq(42)),
        ("0", .seq(0)),
        (" 7 ", .seq(7)),
        ("HEAD", .head(back: 0)),
        ("head", .head(back: 0)),
        ("HEAD~3", .head(back: 3)),
        ("HEAD~0", .head(back: 0)),
        ("HEAD~", .head(back: 1)),
        ("HEAD^", .head(back: 1)),
        ("HEAD^^", .head(back: 2)),
        ("3fa2c1", .idPrefix("3fa2c1")),
        ("3FA2C1", .idPrefix("3fa2c1")),
        ("deadbeef-00", .idPrefix("deadbeef-00")),
        ("deadbeef00", .idPrefix("deadbeef00")),
        ("2026", .seq(2026)),
        ("00000000-0000-4000-8000-000000000001", .idPrefix("00000000-0000-4000-8000-000000000001")),
        ("2026-11-01", .date(year: 2026, month: 11, day: 1, hour: nil, minute: nil, second: nil)),
        ("2026-11-01T10:00", .date(year: 2026, month: 11, day: 1, hour: 10, minute: 0, second: nil)),
        ("2026-11-01 10:00:30", .date(year: 2026, month: 11, day: 1, hour: 10, minute: 0, second: 30)),
        ("2026-11-01T23", .date(year: 2026, month: 11, day: 1, hour: 23, minute: nil, second: nil)),
    ])
    func parses(text: String, expected: Ref) {
        #expect(Ref.parse(text) == expected)
    }

    @Test("garbage is not a REF", arguments: [
        "", "garbage", "HEAD~x", "HEAD~-1", "HEAD^x", "-1", "abc", "12:00", "2026-13-01", "2026-11-32",
        "2026-11-01T24:00", "2026-11-01T10:61", "2026-11-01 10:00 extra", "----", "-123", "3fa2c1!", "3fa-", "2026-11",
        "３ｆａ２ｃ１", "00000000-0000-4000-8000-0000000000011",
    ])
    func rejects(text: String) {
        #expect(Ref.parse(text) == nil)
    }
}
