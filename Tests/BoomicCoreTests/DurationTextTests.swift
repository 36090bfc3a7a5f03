import BoomicCore
import Testing

@Suite struct DurationTextTests {
    @Test(arguments: [("90s", 90.0), ("30m", 1800), ("1h", 3600), ("1h30m", 5400), ("2.5m", 150), ("1H5S", 3605), ("0s", 0)])
    func readsWhatPeopleType(_ text: String, _ seconds: Double) throws {
        #expect(try DurationText.seconds(text) == seconds)
    }

    @Test(arguments: ["30", "", "m", "5x", "1h30", "-5m", "1..5m", "h5"])
    func refusesTheRest(_ text: String) {
        #expect(throws: DurationText.Invalid.self) { try DurationText.seconds(text) }
    }
}
