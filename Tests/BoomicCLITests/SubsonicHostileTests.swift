import BoomicTestSupport
import Foundation
import Testing

/// Hostile input to `boomic serve --http`, from a raw client (python's http.client and
/// sockets): every endpoint refuses calls without credentials (10) and with a wrong token (40);
/// an id that is a path (relative, absolute, a URL, percent-encoded, a sample's own path, an
/// id prefix followed by a path) is never a file's bytes; a huge parameter (100 kB in the
/// query, 2 MB in a form body, 40-digit numbers) and malformed ones (bad percent-encoding, a
/// NUL, a non-UTF-8 name, a JSONP callback that is no name, empty and conflicting credentials)
/// are each answered, never with a 5xx, and the server answers a ping after them; 200 idle
/// connections and 200 half-sent requests held open while `mpc status` and a ping answer.
@Suite(.serialized, .enabled(if: RunningServer.mpcAvailable, "mpc is installed by scripts/setup"))
struct SubsonicHostileTests {
    static let script = #"""
    import hashlib, http.client, json, socket, subprocess, sys, threading, time, urllib.parse

    http_port, mpd_port, user, password = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    out = {}
    def call(path, body=None, headers={}):
        """(HTTP status, the Subsonic error code or None, the body) of one request."""
        c = http.client.HTTPConnection("127.0.0.1", http_port, timeout=20)
        c.request("POST" if body is not None else "GET", path, body=body, headers=headers)
        r = c.getresponse()
        data = r.read()
        c.close()
        try:
            answer = json.loads(data)["subsonic-response"]
            code = answer.get("error", {}).get("code") if answer["status"] == "failed" else None
        except ValueError:
            code = None
        return r.status, code, data
    def auth():
        salt = "c19b2d"
        return "u=%s&t=%s&s=%s&v=1.16.1&c=hostile&f=json" % (user, hashlib.md5((password + salt).encode()).hexdigest(), salt)
    def parallel(jobs):
        results = [None] * len(jobs)
        def one(i, job):
            try: results[i] = job()
            except Exception as e: results[i] = repr(e)
        threads = [threading.Thread(target=one, args=(i, j)) for i, j in enumerate(jobs)]
        for t in threads: t.start()
        for t in threads: t.join()
        return results
    def ping_ok():
        status, code, data = call("/rest/ping.view?" + auth())
        return status == 200 and b'"status":"ok"' in data

    endpoints = ["ping", "getLicense", "getMusicFolders", "getUser", "getScanStatus", "startScan", "getArtists",
                 "getAlbum", "getSong", "search3", "stream", "download", "getCoverArt", "getLyricsBySongId", "star"]
    out["unauthenticated"] = {e: call("/rest/%s.view?v=1.16.1&c=hostile&f=json&id=x" % e)[1] for e in endpoints}
    # A failed login is answered after a delay: the calls go at once, as a client's would.
    wrong = "u=%s&t=00000000000000000000000000000000&s=c19b2d&v=1.16.1&c=hostile&f=json&id=x" % user
    out["wrongToken"] = dict(zip(endpoints, parallel([lambda e=e: call("/rest/%s.view?%s" % (e, wrong))[1] for e in endpoints])))

    # Ids that are paths: never a file's bytes, whatever the endpoint.
    paths = ["../../etc/passwd", "/etc/passwd", "file:///etc/passwd", "..%2F..%2Fetc%2Fpasswd",
             "Miles Quartet/Blue Sketches/01 So Modal.flac", "so-../../etc/passwd", "al-/etc/passwd"]
    leaks = []
    for e in ["getSong", "getAlbum", "getArtist", "stream", "download", "getCoverArt", "getLyricsBySongId", "getMusicDirectory"]:
        for p in paths:
            status, code, data = call("/rest/%s.view?%s&id=%s" % (e, auth(), urllib.parse.quote(p, safe="%")))
            if b"root:" in data or b"fLaC" in data or code is None or status >= 500:
                leaks.append([e, p, status, code, data[:80].decode("latin-1")])
    out["pathIds"] = leaks

    # A huge parameter, in the query and in a form body; huge numbers.
    huge = []
    for path, body in [("/rest/search3.view?%s&query=%s" % (auth(), "a" * 100_000), None),
                       ("/rest/search3.view?" + auth(), "query=" + "a" * 2_000_000),
                       ("/rest/getAlbumList2.view?%s&type=random&size=%s&offset=%s" % (auth(), "9" * 40, "9" * 40), None),
                       ("/rest/getRandomSongs.view?%s&size=-99999999999999999999" % auth(), None)]:
        try:
            status, code, data = call(path, body, {"Content-Type": "application/x-www-form-urlencoded"} if body else {})
            huge.append(status)
        except (OSError, http.client.HTTPException) as e:
            huge.append(type(e).__name__)
    out["huge"] = huge
    out["pingAfterHuge"] = ping_ok()

    # Malformed parameters: each is answered, never with a 5xx (failed logins answer late: the
    # calls go at once).
    malformed = {"badEscape": "ping.view?%zz&f=json", "loneEscape": "ping.view?%&f=json", "badVersion": "ping.view?v=abc&c=x&f=json",
                 "emptyCredentials": "ping.view?v=1.16.1&c=x&u=&p=&f=json", "badFormat": "ping.view?f=%3Cscript%3E",
                 "badCallback": "ping.view?f=jsonp&callback=alert(1)//&" + auth(), "nonUTF8": "ping.view?u=%ff%fe&p=%00&v=1.16.1&c=x&f=json",
                 "nulId": "getSong.view?id=%00&" + auth(), "badNumber": "getAlbumList2.view?size=abc&type=random&" + auth(),
                 "badEnc": "ping.view?p=enc:zz&u=" + user + "&v=1.16.1&c=x&f=json", "emptyNames": "ping.view?=&==&&a=b=c&" + auth(),
                 "tokenWithoutSalt": "ping.view?t=abc&u=" + user + "&v=1.16.1&c=x&f=json", "emptyKey": "ping.view?apiKey=&v=1.16.1&c=x&f=json",
                 "keyAndUser": "ping.view?v=1.16.1&c=x&apiKey=k&u=" + user + "&f=json"}
    out["malformed"] = dict(zip(malformed, parallel([lambda q=q: list(call("/rest/" + q)[:2]) for q in malformed.values()])))
    out["pingAfterMalformed"] = ping_ok()

    # 200 idle connections, and 200 that sent half a request: the MPD side and a ping still answer.
    idle = [socket.create_connection(("127.0.0.1", http_port)) for _ in range(200)]
    half = [socket.create_connection(("127.0.0.1", http_port)) for _ in range(200)]
    for s in half: s.sendall(b"GET /rest/ping.view?v=1.16.1 HTTP/1.1\r\nHost: x\r\n")
    mpc = subprocess.run(["mpc", "--host", "127.0.0.1", "--port", str(mpd_port), "status"], capture_output=True, text=True, timeout=20)
    out["mpcWhileIdle"] = [mpc.returncode, mpc.stdout]
    out["pingWhileIdle"] = ping_ok()
    for s in idle + half: s.close()
    out["pingAfterIdle"] = ping_ok()
    print(json.dumps(out))
    """#

    @Test func hostileCallsAreRefusedAndTheServerKeepsAnswering() throws {
        let box = try Sandbox()
        let boomic = try BoomicSubsonic(box)
        let path = box.root + "/hostile.py"
        try Self.script.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try ChildProcess.run(systemPython, [path, String(boomic.http), String(boomic.server.port), BoomicSubsonic.user, BoomicSubsonic.password])
        try #require(run.succeeded, "\(run)\n\(boomic.server.serverLog)")
        let out = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let unauthenticated = try #require(out["unauthenticated"] as? [String: Int])
        #expect(unauthenticated.count == 15 && unauthenticated.values.allSatisfy { $0 == 10 }, "\(unauthenticated)")
        let wrong = try #require(out["wrongToken"] as? [String: Int])
        #expect(wrong.count == 15 && wrong.values.allSatisfy { $0 == 40 }, "\(wrong)")
        #expect((out["pathIds"] as? [Any])?.isEmpty == true, "answered with bytes or no Subsonic error: \(out["pathIds"] ?? "")")
        let huge = try #require(out["huge"] as? [Any])
        #expect(huge.count == 4 && huge.allSatisfy { ($0 as? Int).map { $0 < 500 } ?? false }, "\(huge)")
        #expect(huge[1] as? Int == 413, "a 2 MB form body: \(huge)")
        let malformed = try #require(out["malformed"] as? [String: [Any]])
        #expect(malformed.count == 14 && malformed.values.allSatisfy { ($0.first as? Int).map { $0 < 500 } ?? false }, "\(malformed)")
        let code = { (name: String) in malformed[name]?.last as? Int }
        for name in malformed.keys where !["badFormat", "emptyNames", "badCallback"].contains(name) {
            #expect(code(name) != nil, "\(name) is answered with a Subsonic error: \(malformed)")
        }
        #expect(code("badEscape") == 10 && code("tokenWithoutSalt") == 10 && code("nulId") == 70, "\(malformed)")
        // A malformed size is 10 where getAlbumList2 is answered, 70 where it is not yet.
        #expect([10, 70].contains(code("badNumber")), "\(malformed)")
        #expect(code("badEnc") == 40 && code("keyAndUser") == 43 && code("emptyNames") == nil, "\(malformed)")
        for key in ["pingAfterHuge", "pingAfterMalformed", "pingWhileIdle", "pingAfterIdle"] {
            #expect(out[key] as? Bool == true, "\(key): \(out)")
        }
        let mpc = try #require(out["mpcWhileIdle"] as? [Any])
        #expect(mpc.first as? Int == 0 && (mpc.last as? String)?.contains("volume:") == true, "\(mpc)")
        let log = boomic.server.serverLog
        #expect(!log.contains(BoomicSubsonic.password) && !log.contains("00000000000000000000000000000000"), "\(log)")
    }
}
