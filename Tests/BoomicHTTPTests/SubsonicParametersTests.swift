@testable import BoomicHTTP
import Testing

struct SubsonicParametersTests {
    @Test func repeatedNamesKeepEveryValueInOrder() {
        let p = SubsonicParameters(encoded: "id=1&u=anna&id=2&&id=3")
        #expect(p.all("id") == ["1", "2", "3"])
        #expect(p["id"] == "1" && p["u"] == "anna" && p["x"] == nil)
    }

    @Test func percentAndPlusDecode() {
        let p = SubsonicParameters(encoded: "query=Miles+Davis%20%26%20co&c=D%C3%A9j%C3%A0&bad=%zz%4&flag")
        #expect(p["query"] == "Miles Davis & co")
        #expect(p["c"] == "Déjà")
        #expect(p["bad"] == "%zz%4")
        #expect(p["flag"] == "" && p.contains("flag"))
    }

    @Test func aFormBodyAddsToTheQuery() {
        var p = SubsonicParameters(encoded: "f=json")
        p.append(encoded: "u=anna&id=7")
        #expect(p.pairs.map(\.name) == ["f", "u", "id"])
    }

    @Test func typedReads() throws {
        let p = SubsonicParameters(encoded: "size=10&bad=x&yes=true&one=1")
        #expect(try p.int("size") == 10)
        #expect(try p.int("none") == nil)
        #expect(throws: SubsonicError.self) { try p.int("bad") }
        #expect(p.bool("yes") == true && p.bool("one") == true && p.bool("bad") == nil)
        #expect(throws: SubsonicError.missing("id")) { try p.required("id") }
    }
}
