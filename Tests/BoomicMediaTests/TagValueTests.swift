import BoomicMedia
import Testing

@Suite struct TagValueTests {
    struct Pair: Sendable, CustomTestStringConvertible {
        var text: String
        var number: Int?
        var total: Int?
        var testDescription: String { "\"\(text)\"" }
    }

    @Test(arguments: [
        Pair(text: "3/12", number: 3, total: 12),
        Pair(text: "03", number: 3, total: nil),
        Pair(text: "1/2", number: 1, total: 2),
        Pair(text: " 7 / 9 ", number: 7, total: 9),
        Pair(text: "3 of 12", number: 3, total: 12),
        Pair(text: "/12", number: nil, total: 12),
        Pair(text: "5/", number: 5, total: nil),
        Pair(text: "0", number: nil, total: nil),
        Pair(text: "-3", number: nil, total: nil),
        Pair(text: "A1", number: nil, total: nil),
        Pair(text: "3a", number: nil, total: nil),
        Pair(text: "", number: nil, total: nil),
        Pair(text: "   ", number: nil, total: nil),
        Pair(text: "99999999999999999999999", number: nil, total: nil),
        Pair(text: "1/99999999999999999999999", number: 1, total: nil),
        Pair(text: "٣", number: nil, total: nil), // Arabic-Indic digit: not a tag number
        Pair(text: "2/2/2", number: 2, total: nil),
    ])
    func numberPair(_ row: Pair) {
        let parsed = TagValue.numberPair(row.text)
        #expect(parsed.number == row.number)
        #expect(parsed.total == row.total)
    }

    struct Dated: Sendable, CustomTestStringConvertible {
        var text: String
        var year: Int?
        var date: String?
        var testDescription: String { "\"\(text)\"" }
    }

    @Test(arguments: [
        Dated(text: "1969-09-26", year: 1969, date: "1969-09-26"),
        Dated(text: "1969", year: 1969, date: nil),
        Dated(text: " 1971 ", year: 1971, date: nil),
        Dated(text: "1969-09", year: 1969, date: "1969-09"),
        Dated(text: "2001-03-04T10:00:00", year: 2001, date: "2001-03-04T10:00:00"),
        Dated(text: "26.09.1969", year: 1969, date: "26.09.1969"),
        Dated(text: "0000", year: nil, date: nil),
        Dated(text: "69", year: nil, date: nil),
        Dated(text: "12345", year: nil, date: nil),
        Dated(text: "unknown", year: nil, date: nil),
        Dated(text: "", year: nil, date: nil),
    ])
    func yearAndDate(_ row: Dated) {
        let parsed = TagValue.yearAndDate(row.text)
        #expect(parsed.year == row.year)
        #expect(parsed.date == row.date)
    }

    @Test(arguments: [
        ("-6.50 dB", -6.5), ("+1.2 dB", 1.2), ("1.2dB", 1.2), ("-0.00 dB", 0), ("0.987654", 0.987654),
        ("  -7.35 DB ", -7.35), ("-6,5 dB", -6.5), ("1e-3", 0.001),
    ] as [(String, Double)])
    func decibels(_ text: String, _ expected: Double) {
        #expect(TagValue.decibels(text) == expected)
    }

    @Test(arguments: ["", "dB", "loud", "nan", "inf", "-inf", "0x10", "1.2.3 dB", "--1", "+ dB"])
    func decibelsGarbage(_ text: String) {
        #expect(TagValue.decibels(text) == nil)
    }

    @Test(arguments: [("1", true), ("true", true), ("YES", true), (" 1 ", true),
                      ("0", false), ("", false), ("no", false), ("2", false)] as [(String, Bool)])
    func flag(_ text: String, _ expected: Bool) {
        #expect(TagValue.flag(text) == expected)
    }
}
