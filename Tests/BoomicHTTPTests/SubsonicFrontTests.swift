@testable import BoomicHTTP
import BoomicTestSupport
import Foundation
import FoundationXML
import Testing

/// The front over a real loopback port: formats, `.view`, formPost, CORS, each authentication
/// failure, what is reachable without credentials, `X-Forwarded-*`, the base path, and the
/// endpoints answered in full.
@Suite(.serialized)
struct SubsonicFrontTests {
    static let anna = FrontFixture.anna

    @Test func pingAnswersInXMLByDefaultAndInJSON() async throws {
        let front = try await FrontFixture()
        let xml = try await front.get("/rest/ping?\(Self.anna)")
        #expect(xml.status == 200 && xml.headers["content-type"] == "text/xml; charset=utf-8", "\(xml)")
        let root = try #require(try XMLDocument(xmlString: xml.body).rootElement())
        let attributes = Dictionary(uniqueKeysWithValues: (root.attributes ?? []).map { ($0.name ?? "", $0.stringValue ?? "") })
        #expect(root.uri == "http://subsonic.org/restapi" && attributes["status"] == "ok" && attributes["serverVersion"] == "9.9-test",
                "\(attributes)")

        let json = try await front.json("/rest/ping.view?\(Self.anna)&f=json")
        #expect(json["status"] as? String == "ok" && json["version"] as? String == "1.16.1" && json["type"] as? String == "boomic")
        #expect(json["openSubsonic"] as? Bool == true)
        let jsonp = try await front.get("/rest/ping.view?\(Self.anna)&f=jsonp&callback=got")
        #expect(jsonp.body.hasPrefix(#"got({"subsonic-response":{"status":"ok""#) && jsonp.body.hasSuffix(");"), "\(jsonp)")
        await front.stop()
    }

    /// OpenSubsonic's formPost: the parameters in an urlencoded body, with or beside the query.
    @Test func formPostCarriesTheParameters() async throws {
        let front = try await FrontFixture()
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        let all = try await RawHTTP.send(front.port, "POST", "/rest/ping.view", headers: form, body: Self.anna + "&f=json")
        #expect(all.body.contains(#""status":"ok""#), "\(all)")
        let split = try await RawHTTP.send(front.port, "POST", "/rest/getMusicFolders?f=json&v=1.16.1&c=test", headers: form,
                                           body: "u=anna&p=enc%3A736573616d65")
        #expect(split.body.contains(#""musicFolder":[{"id":1,"#), "\(split)")
        await front.stop()
    }

    @Test func corsAllowsBrowserClients() async throws {
        let front = try await FrontFixture()
        let preflight = try await RawHTTP.send(front.port, "OPTIONS", "/rest/getAlbumList2.view", headers: [
            "Origin": "https://feishin.example", "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "content-type,x-custom",
        ])
        #expect(preflight.status == 204, "\(preflight)")
        #expect(preflight.headers["access-control-allow-origin"] == "*")
        #expect(preflight.headers["access-control-allow-methods"]?.contains("POST") == true)
        #expect(preflight.headers["access-control-allow-headers"] == "content-type,x-custom")
        let get = try await front.get("/rest/ping.view?\(Self.anna)", headers: ["Origin": "https://feishin.example"])
        #expect(get.headers["access-control-allow-origin"] == "*", "\(get)")
        // An error answer carries them too: the browser must be let read why.
        let refused = try await front.get("/rest/ping.view?u=anna&p=x&v=1.16.1&c=t", headers: ["Origin": "https://feishin.example"])
        #expect(refused.headers["access-control-allow-origin"] == "*" && refused.body.contains(#"code="40""#), "\(refused)")
        await front.stop()
    }

    /// Each of Subsonic's authentication codes, in JSON.
    @Test func authenticationFailuresAnswerTheirCodes() async throws {
        let front = try await FrontFixture()
        let v = "v=1.16.1&c=test&f=json"
        let cases: [(String, Int?)] = [
            ("\(v)", 10),                                             // no credentials
            ("u=anna&p=sesame&c=test&f=json", 10),                    // no v
            ("u=anna&p=sesame&v=1.16.1&f=json", 10),                  // no c
            ("u=anna&p=sesame&v=2.0.0&c=test&f=json", 30),
            ("u=anna&p=sesame&v=0.9&c=test&f=json", 20),
            ("u=anna&p=wrong&\(v)", 40),
            ("u=nobody&p=sesame&\(v)", 40),
            ("u=anna&p=enc:736573616d65&\(v)", nil),                   // enc: hex of "sesame"
            ("u=anna&p=enc:7365ZZ&\(v)", 40),
            ("u=anna&t=\(TestAccounts.annaToken)&s=\(TestAccounts.annaSalt)&\(v)", nil),
            ("u=anna&t=\(TestAccounts.annaToken.uppercased())&s=\(TestAccounts.annaSalt)&\(v)", nil),
            ("u=anna&t=e2ea00c8ef3be6356952018c1c5950fb&s=wrong1&\(v)", 40),
            ("u=anna&t=\(TestAccounts.annaToken)&\(v)", 10),           // t without s
            ("u=carl&t=00&s=11&\(v)", 41),
            ("u=anna&p=sesame&t=\(TestAccounts.annaToken)&s=\(TestAccounts.annaSalt)&\(v)", 43),
            ("apiKey=key-anna&u=anna&\(v)", 43),
            ("apiKey=key-anna&\(v)", nil),
            ("apiKey=stolen&\(v)", 44),
            ("u=ben&p=bens&\(v)", nil),
        ]
        for (query, code) in cases {
            #expect(try await front.code("/rest/ping.view?" + query) == code, "\(query)")
        }
        // 50: an administrator's call by another user; 70: known but not answered, and unknown.
        #expect(try await front.code("/rest/getUsers?u=ben&p=bens&\(v)") == 50)
        let notYet = try await FrontFixture(endpoints: [.notYet("getIndexes")])
        #expect(try await notYet.code("/rest/getIndexes?\(Self.anna)&f=json") == 70)
        await notYet.stop()
        let unknown = try await front.get("/rest/getNothing.view?\(Self.anna)&f=json")
        #expect(unknown.status == 404 && unknown.body.contains(#""code":70"#), "\(unknown)")
        let messages = try await front.json("/rest/ping.view?u=anna&p=wrong&\(v)")
        #expect((messages["error"] as? [String: Any])?["message"] as? String == "Wrong username or password.")
        await front.stop()
    }

    /// A handler's failure that is not a Subsonic error is error 0 with its message.
    @Test func otherFailuresAreErrorZero() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "the disk\nis gone" } }
        let front = try await FrontFixture(endpoints: SubsonicEndpoints.all + [SubsonicEndpoint("getSong") { _ in throw Broken() }])
        let json = try await front.json("/rest/getSong?\(Self.anna)&f=json&id=1")
        #expect(json["status"] as? String == "failed")
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["code"] as? Int == 0 && error["message"] as? String == "the disk is gone")
        await front.stop()
    }

    /// Nothing but getOpenSubsonicExtensions answers without credentials.
    @Test func onlyTheExtensionsAreOpen() async throws {
        let front = try await FrontFixture()
        let open = try await front.json("/rest/getOpenSubsonicExtensions.view?f=json")
        #expect(open["status"] as? String == "ok", "\(open)")
        let names = (open["openSubsonicExtensions"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["apiKeyAuthentication", "formPost", "songLyrics", "transcodeOffset"])
        #expect((open["openSubsonicExtensions"] as? [[String: Any]])?.first?["versions"] as? [Int] == [1])
        for endpoint in SubsonicEndpoints.all where !endpoint.isOpen {
            #expect(try await front.code("/rest/\(endpoint.name).view?f=json&v=1.16.1&c=test") == 10, "\(endpoint.name)")
        }
        #expect(SubsonicEndpoints.all.filter(\.isOpen).map(\.name) == ["getOpenSubsonicExtensions"])
        await front.stop()
    }

    @Test func failedLoginsWaitAndAreLoggedWithoutThePassword() async throws {
        let front = try await FrontFixture()
        let clock = ContinuousClock()
        let started = clock.now
        #expect(try await front.code("/rest/ping?u=anna&p=hunter2&v=1.16.1&c=test&f=json") == 40)
        #expect(clock.now - started >= .milliseconds(50), "answered before the login delay")
        #expect(try await front.code("/rest/ping?u=anna&t=abcdef&s=salt&v=1.16.1&c=test&f=json") == 40)
        #expect(try await front.code("/rest/ping?apiKey=secret-key&v=1.16.1&c=test&f=json") == 44)
        // A name is what a client sent: one line, cut short.
        #expect(try await front.code("/rest/ping?u=\(String(repeating: "x", count: 5000))%0A%1B[31m&p=x&v=1.16.1&c=test&f=json") == 40)
        let log = front.warned
        #expect(log.count == 4, "\(log)")
        #expect(log.last == "failed login of user '\(String(repeating: "x", count: 63))…' from 127.0.0.1: Wrong username or password.")
        #expect(log.first == "failed login of user 'anna' from 127.0.0.1: Wrong username or password.", "\(log)")
        #expect(!log.joined().contains("hunter2") && !log.joined().contains("abcdef") && !log.joined().contains("secret-key"))
        await front.stop()
    }

    /// Behind a proxy on this machine: the client's address, scheme and host from
    /// `X-Forwarded-*`.
    @Test func forwardedHeadersNameTheClientAndTheOrigin() async throws {
        let front = try await FrontFixture()
        let page = try await front.get("/login", headers: ["X-Forwarded-Proto": "https", "X-Forwarded-Host": "music.example.org"])
        #expect(page.body.contains("at <code>https://music.example.org/rest</code>"), "\(page)")
        let plain = try await front.get("/login")
        #expect(plain.body.contains("at <code>http://127.0.0.1:\(front.port)/rest</code>"), "\(plain)")
        _ = try await front.code("/rest/ping?u=anna&p=x&v=1.16.1&c=t&f=json")
        _ = try await front.get("/rest/ping?u=anna&p=x&v=1.16.1&c=t", headers: ["X-Forwarded-For": "198.51.100.1, 203.0.113.7"])
        #expect(front.warned.map { $0.components(separatedBy: " from ")[1].prefix(while: { $0 != ":" }) } == ["127.0.0.1", "203.0.113.7"],
                "\(front.warned)")
        #expect(ForwardedOrigin(headers: [.init("X-Forwarded-For")!: "203.0.113.7"], authority: "h", peer: "192.0.2.1").client == "192.0.2.1",
                "believed from a loopback peer only")
        await front.stop()
    }

    @Test func aBasePathPrefixesEveryRoute() async throws {
        let front = try await FrontFixture(basePath: "/music/")
        #expect(try await front.code("/music/rest/ping.view?\(Self.anna)&f=json") == nil)
        #expect(try await front.get("/rest/ping.view?\(Self.anna)&f=json").status == 404)
        let page = try await front.get("/music/login", headers: ["X-Forwarded-Proto": "https", "X-Forwarded-Host": "home.example.org"])
        #expect(page.body.contains("at <code>https://home.example.org/music/rest</code>"), "\(page)")
        #expect(HTTPContext.normalized(basePath: "/") == "" && HTTPContext.normalized(basePath: "a/b/") == "/a/b")
        await front.stop()
    }

    @Test func systemEndpointsAnswer() async throws {
        let front = try await FrontFixture()
        let license = try await front.json("/rest/getLicense?\(Self.anna)&f=json")
        #expect((license["license"] as? [String: Any])?["valid"] as? Bool == true)
        let folders = try await front.json("/rest/getMusicFolders?\(Self.anna)&f=json")
        let list = (folders["musicFolders"] as? [String: Any])?["musicFolder"] as? [[String: Any]]
        #expect(list?.map { "\($0["id"]!) \($0["name"]!)" } == ["1 music", "2 More Music"], "\(folders)")
        let xml = try await front.get("/rest/getMusicFolders?\(Self.anna)")
        #expect(xml.body.contains(#"<musicFolders><musicFolder id="1" name="music"/><musicFolder id="2" name="More Music"/></musicFolders>"#))

        let status = try await front.json("/rest/getScanStatus?\(Self.anna)&f=json")
        let scanStatus = try #require(status["scanStatus"] as? [String: Any])
        #expect(scanStatus["scanning"] as? Bool == false && scanStatus["count"] as? Int == 2, "\(status)")
        #expect(try await front.code("/rest/startScan?u=ben&p=bens&v=1&c=t&f=json") == 50)
        let started = try await front.json("/rest/startScan?\(Self.anna)&f=json")
        #expect((started["scanStatus"] as? [String: Any])?["scanning"] as? Bool == true)
        #expect((try await front.json("/rest/getScanStatus?\(Self.anna)&f=json")["scanStatus"] as? [String: Any])?["scanning"] as? Bool == true)
        front.scanGate.signal()
        try await waitUntil("the scan to end") { !front.front.scans.isScanning }
        #expect((try await front.json("/rest/getScanStatus?\(Self.anna)&f=json")["scanStatus"] as? [String: Any])?["scanning"] as? Bool == false)
        #expect(front.scans == 1)
        await front.stop()
    }

    @Test func usersFromTheAuthenticator() async throws {
        let front = try await FrontFixture()
        let ben = try await front.json("/rest/getUser?u=ben&p=bens&v=1.16.1&c=t&f=json&username=ben")
        let user = try #require(ben["user"] as? [String: Any])
        #expect(user["username"] as? String == "ben" && user["adminRole"] as? Bool == false && user["streamRole"] as? Bool == true)
        #expect(user["folder"] as? [Int] == [1, 2])
        #expect(try await front.code("/rest/getUser?u=ben&p=bens&v=1.16.1&c=t&f=json&username=anna") == 50)
        #expect(try await front.code("/rest/getUser?\(Self.anna)&f=json&username=anna") == nil)
        #expect(try await front.code("/rest/getUser?\(Self.anna)&f=json&username=zed") == 70)
        #expect(try await front.code("/rest/getUser?\(Self.anna)&f=json") == 10)
        let all = try await front.json("/rest/getUsers?\(Self.anna)&f=json")
        let names = ((all["users"] as? [String: Any])?["user"] as? [[String: Any]])?.compactMap { $0["username"] as? String }
        #expect(names == ["anna", "ben"])
        let token = try await front.json("/rest/tokenInfo?apiKey=key-anna&v=1.16.1&c=t&f=json")
        #expect((token["tokenInfo"] as? [String: Any])?["username"] as? String == "anna", "\(token)")
        let xml = try await front.get("/rest/getUser?\(Self.anna)&username=anna")
        #expect(xml.body.contains(#"<user username="anna" email="anna@example.org" scrobblingEnabled="true" adminRole="true""#))
        #expect(xml.body.contains(#"<folder>1</folder><folder>2</folder></user>"#), "\(xml)")
        await front.stop()
    }
}
