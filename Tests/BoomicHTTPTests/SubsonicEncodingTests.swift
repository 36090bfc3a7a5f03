@testable import BoomicHTTP
import Foundation
import FoundationXML
import Testing

/// The response model's two encodings against Subsonic's and OpenSubsonic's examples and
/// conventions, without a socket.
struct SubsonicEncodingTests {
    /// OpenSubsonic's `ping` example (opensubsonic.netlify.app, "Subsonic response"), with our
    /// type and version.
    static let pingExample = """
        {
          "subsonic-response": {
            "status": "ok",
            "version": "1.16.1",
            "type": "boomic",
            "serverVersion": "0.1.3 (tag)",
            "openSubsonic": true
          }
        }
        """

    /// OpenSubsonic's error example.
    static let errorExample = """
        {
          "subsonic-response": {
            "status": "failed",
            "version": "1.16.1",
            "type": "boomic",
            "serverVersion": "0.1.3 (tag)",
            "openSubsonic": true,
            "error": {
              "code": 40,
              "message": "Wrong username or password."
            }
          }
        }
        """

    static func object(_ text: String) throws -> NSDictionary {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
    }

    @Test func pingAsJSONIsTheSpecExample() throws {
        let json = SubsonicJSON.encode(SubsonicResponse(), serverVersion: "0.1.3 (tag)")
        #expect(json == #"{"subsonic-response":{"status":"ok","version":"1.16.1","type":"boomic","serverVersion":"0.1.3 (tag)","openSubsonic":true}}"#)
        #expect(try Self.object(json) == Self.object(Self.pingExample))
    }

    @Test func errorAsJSONIsTheSpecExample() throws {
        let json = SubsonicJSON.encode(.failure(SubsonicError(.wrongCredentials)), serverVersion: "0.1.3 (tag)")
        #expect(try Self.object(json) == Self.object(Self.errorExample))
        // Typed: the code a number, openSubsonic a boolean.
        #expect(json.contains(#""code":40,"#) && json.contains(#""openSubsonic":true"#))
    }

    /// Subsonic's own `ping.xml` (`<subsonic-response xmlns=… status="ok" version=…/>`) with
    /// OpenSubsonic's attributes.
    @Test func pingAsXMLIsTheSpecExample() throws {
        let xml = SubsonicXML.encode(SubsonicResponse(), serverVersion: "0.1")
        #expect(xml == """
            <?xml version="1.0" encoding="UTF-8"?>
            <subsonic-response xmlns="http://subsonic.org/restapi" status="ok" version="1.16.1" type="boomic" serverVersion="0.1" openSubsonic="true"/>

            """)
        let root = try #require(try XMLDocument(xmlString: xml).rootElement())
        #expect(root.name == "subsonic-response" && root.uri == "http://subsonic.org/restapi")
        #expect(root.attributes?.first { $0.name == "status" }?.stringValue == "ok")
    }

    @Test func errorAsXMLIsAnElementWithAttributes() throws {
        let xml = SubsonicXML.encode(.failure(SubsonicError(.notFound, "No album 12.")), serverVersion: "0.1")
        #expect(xml.contains(#"status="failed""#) && xml.hasSuffix(#"><error code="70" message="No album 12."/></subsonic-response>"# + "\n"))
    }

    /// Navidrome's answer to `getOpenSubsonicExtensions` (its test of the OpenSubsonic
    /// example): a list of elements with a list of numbers inside, the same tree in both.
    @Test func listsAreRepeatedElementsInXMLAndArraysInJSON() throws {
        var body = SubsonicElement()
        body.set("openSubsonicExtensions", list: ["transcodeOffset", "formPost"].map {
            var e = SubsonicElement(["name": .string($0)])
            e.set("versions", values: [1])
            return e
        })
        let response = SubsonicResponse(body: body)
        let xml = SubsonicXML.encode(response, serverVersion: "0.1")
        #expect(xml.contains(#"openSubsonic="true"><openSubsonicExtensions name="transcodeOffset"><versions>1</versions></openSubsonicExtensions><openSubsonicExtensions name="formPost"><versions>1</versions></openSubsonicExtensions></subsonic-response>"#))
        let json = SubsonicJSON.encode(response, serverVersion: "0.1")
        #expect(json.contains(#""openSubsonicExtensions":[{"name":"transcodeOffset","versions":[1]},{"name":"formPost","versions":[1]}]"#))

        // One element, and none, are still arrays in JSON.
        var one = SubsonicElement()
        one.set("musicFolder", list: [SubsonicElement(["id": 1, "name": "Music"])])
        #expect(SubsonicJSON.encode(SubsonicResponse(body: one), serverVersion: "0").contains(#""musicFolder":[{"id":1,"name":"Music"}]"#))
        var none = SubsonicElement()
        none.set("musicFolder", list: [])
        #expect(SubsonicJSON.encode(SubsonicResponse(body: none), serverVersion: "0").contains(#""musicFolder":[]"#))
    }

    @Test func textIsXMLTextAndJSONValue() {
        var lyrics = SubsonicElement(["artist": "A & B"])
        lyrics.text = "line <1>\nline 2"
        var body = SubsonicElement()
        body.set("lyrics", element: lyrics)
        let response = SubsonicResponse(body: body)
        #expect(SubsonicXML.encode(response, serverVersion: "0").contains(#"<lyrics artist="A &amp; B">line &lt;1&gt;"# + "\nline 2</lyrics>"))
        #expect(SubsonicJSON.encode(response, serverVersion: "0").contains(#""lyrics":{"artist":"A & B","value":"line <1>\nline 2"}"#))
    }

    @Test func valuesAreTypedAndEscaped() throws {
        let e = SubsonicElement(["title": "Say \"hi\"\t\u{1}", "year": 1969, "rating": 4.5, "whole": 3.0, "starred": false,
                                 "absent": nil])
        var body = SubsonicElement()
        body.set("song", element: e)
        let json = SubsonicJSON.encode(SubsonicResponse(body: body), serverVersion: "0")
        #expect(json.contains(#""song":{"title":"Say \"hi\"\t\u0001","year":1969,"rating":4.5,"whole":3,"starred":false}"#))
        #expect(try Self.object(json)["subsonic-response"] != nil)
        let xml = SubsonicXML.encode(SubsonicResponse(body: body), serverVersion: "0")
        #expect(xml.contains(#"<song title="Say &quot;hi&quot;&#9;\#u{FFFD}" year="1969" rating="4.5" whole="3" starred="false"/>"#))
        #expect(try XMLDocument(xmlString: xml).rootElement() != nil)
    }

    @Test func jsonpWrapsTheJSONInTheCallback() throws {
        let format = try SubsonicFormat(SubsonicParameters(encoded: "f=jsonp&callback=app.got"))
        #expect(format.encode(SubsonicResponse(), serverVersion: "0").hasPrefix(#"app.got({"subsonic-response":"#))
        #expect(format.contentType.hasPrefix("application/javascript"))
        #expect(throws: SubsonicError.missing("callback")) { try SubsonicFormat(SubsonicParameters(encoded: "f=jsonp")) }
        #expect(throws: SubsonicError.self) { try SubsonicFormat(SubsonicParameters(encoded: "f=jsonp&callback=alert(1)")) }
        #expect(try SubsonicFormat(SubsonicParameters(encoded: "")) == .xml)
        #expect(try SubsonicFormat(SubsonicParameters(encoded: "f=JSON")) == .json)
    }

    /// Names are written whole when nothing in them needs escaping and a character at a time
    /// otherwise: both ways give the same text, whatever the bytes next to an escape are
    /// (non-ASCII letters; U+2028 and U+FFFE share their first byte with plain characters).
    @Test func plainAndEscapedTextMixWithinOneString() throws {
        let cases: [(String, json: String, xml: String)] = [
            ("Björk – Jóga ✓", #""Björk – Jóga ✓""#, "Björk – Jóga ✓"),
            ("a\u{2028}b\u{2029}c", #""a\u2028b\u2029c""#, "a\u{2028}b\u{2029}c"),
            ("x\u{FFFE}y\u{FFFD}\u{FFFF}", "\"x\u{FFFE}y\u{FFFD}\u{FFFF}\"", "x\u{FFFD}y\u{FFFD}\u{FFFD}"),
            ("AC/DC \"Live\" & <more>", #""AC/DC \"Live\" & <more>""#, "AC/DC &quot;Live&quot; &amp; &lt;more&gt;"),
            ("tab\tend\\", #""tab\tend\\""#, "tab&#9;end\\"),
            ("", #""""#, ""),
        ]
        for (text, json, xml) in cases {
            var j = ""
            SubsonicJSON.string(text, into: &j)
            #expect(j == json, "\(text.debugDescription)")
            var x = ""
            SubsonicXML.escape(text, attribute: true, into: &x)
            #expect(x == xml, "\(text.debugDescription)")
            let parsed = try #require(JSONSerialization.jsonObject(with: Data("[\(j)]".utf8)) as? [String])
            #expect(parsed == [text])
        }
    }

    /// The made-up path's components: a `/` in a name is `_`, and `.` and `..` are `_`, whether
    /// or not the name has a `/` to replace.
    @Test func madeUpPathComponentsHoldNoSlashAndNoDots() {
        #expect(SubsonicSong.component("AC/DC") == "AC_DC")
        #expect(SubsonicSong.component("/./") == "_._")
        #expect(SubsonicSong.component(".") == "_")
        #expect(SubsonicSong.component("..") == "_")
        #expect(SubsonicSong.component("...") == "...")
        #expect(SubsonicSong.component("Björk") == "Björk")
        #expect(SubsonicSong.component("") == "")
    }

    @Test func messagesAreOneLine() {
        #expect(SubsonicError(.generic, "disk\nfull \r\n  now").message == "disk full now")
        #expect(SubsonicError.Code.allCases.map(\.rawValue) == [0, 10, 20, 30, 40, 41, 42, 43, 44, 50, 70])
        #expect(SubsonicError.Code.allCases.allSatisfy { !$0.message.contains("\n") })
    }
}
