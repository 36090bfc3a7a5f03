import BoomicTestSupport
import Foundation
import Testing

/// `boomic serve --http` as the OpenSubsonic client libraries from PyPI see it: py-opensonic
/// (token, `enc:` password and API key) and py-sonic (token and `enc:`) log in and call the
/// system endpoints; a wrong password is error 40 to both, no credentials error 10. The script
/// keeps each call's result or its error's code (the libraries raise a class per code).
/// py-opensonic 10.4.1 reads `getMusicFolders` as a bare list where the spec nests `musicFolder`
/// (supysonic's answer fails it the same way), so py-sonic alone checks the folders.
@Suite(.serialized, .enabled(if: SubsonicVenv.available, "scripts/setup installs the Subsonic clients in /opt/subsonic"))
struct SubsonicClientTests {
    static let script = #"""
    import json, sys, time, urllib.request
    import libopensonic, libsonic
    from libopensonic import errors as oerrors
    from libsonic import errors as serrors

    port, user, password, key = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    out = {}
    CODES = {"ParameterError": 10, "VersionError": 20, "CredentialError": 40, "AuthError": 50, "LicenseError": 60, "DataNotFoundError": 70}
    def plain(x):
        if hasattr(x, "to_dict"): return x.to_dict()
        if isinstance(x, list): return [plain(y) for y in x]
        return x
    def run(name, f):
        try:
            out[name] = plain(f())
        except (oerrors.SonicError, serrors.SonicError) as e:
            out[name] = {"error": CODES.get(type(e).__name__, 0), "message": str(e)}

    def settled(scanning):
        # A scan runs after startScan answers: the next mode starts once it has ended.
        deadline = time.monotonic() + 30
        while scanning():
            if time.monotonic() > deadline: sys.exit("the scan did not end in 30 s")
            time.sleep(0.02)  # the poll's pause
    def opensonic(**auth):
        return libopensonic.Connection("http://127.0.0.1", port=port, app_name="py-opensonic", **auth)
    for mode, conn in [("token", opensonic(username=user, password=password)),
                       ("enc", opensonic(username=user, password=password, legacy_auth=True)),
                       ("apikey", opensonic(api_key=key))]:
        p = "opensonic." + mode + "."
        run(p + "ping", conn.ping)
        run(p + "license", lambda: conn.get_license())
        # py-opensonic 10.4.1 reads getMusicFolders as a bare list (the spec nests musicFolder): py-sonic checks it.
        run(p + "user", lambda: conn.get_user(user))
        run(p + "extensions", lambda: sorted(e.name for e in conn.get_open_subsonic_extensions()))
        run(p + "scanStatus", lambda: conn.get_scan_status())
        run(p + "startScan", lambda: conn.start_scan())
        run(p + "startScanAgain", lambda: conn.start_scan())  # while the first runs: queued
        settled(lambda: conn.get_scan_status().scanning)
        conn.cleanup()
    bad = opensonic(username=user, password=password + "x")
    run("opensonic.wrong.ping", bad.ping)
    bad.cleanup()

    for mode, legacy in [("token", False), ("enc", True)]:
        conn = libsonic.Connection("http://127.0.0.1", user, password, port=port, appName="py-sonic", legacyAuth=legacy)
        p = "sonic." + mode + "."
        run(p + "ping", conn.ping)
        run(p + "license", lambda: conn.getLicense()["license"])
        run(p + "folders", lambda: [f["name"] for f in conn.getMusicFolders()["musicFolders"]["musicFolder"]])
        run(p + "user", lambda: conn.getUser(user)["user"])
        run(p + "scanStatus", lambda: conn.getScanStatus()["scanStatus"])
        run(p + "startScan", lambda: conn.startScan()["scanStatus"])
        run(p + "startScanAgain", lambda: conn.startScan()["scanStatus"])  # while the first runs: queued
        settled(lambda: conn.getScanStatus()["scanStatus"]["scanning"])
    run("sonic.wrong.ping", libsonic.Connection("http://127.0.0.1", user, "nope", port=port, appName="py-sonic").ping)
    def raw(query):
        with urllib.request.urlopen("http://127.0.0.1:%d/rest/ping.view?v=1.16.1&c=raw&f=json%s" % (port, query), timeout=10) as r:
            return json.load(r)["subsonic-response"].get("error", {}).get("code")
    run("raw.nocredentials", lambda: raw(""))
    run("raw.wrongtoken", lambda: raw("&u=%s&t=00000000000000000000000000000000&s=c19b2d" % user))
    print(json.dumps(out))
    """#

    @Test func theClientLibrariesLogInAndCallTheSystemEndpoints() throws {
        let box = try Sandbox()
        let boomic = try BoomicSubsonic(box)
        let out = try #require(try SubsonicVenv.json(Self.script, [String(boomic.http), BoomicSubsonic.user, BoomicSubsonic.password, boomic.apiKey],
                                                     in: box, log: { boomic.server.serverLog }) as? [String: Any])
        let songs = try box.songs().count
        for mode in ["opensonic.token", "opensonic.enc", "opensonic.apikey", "sonic.token", "sonic.enc"] {
            #expect(out[mode + ".ping"] as? Bool == true, "\(mode): \(out)")
            let license = out[mode + ".license"] as? [String: Any]
            #expect((license?["license"] as? [String: Any] ?? license)?["valid"] as? Bool == true, "\(mode): \(out)")
            let user = out[mode + ".user"] as? [String: Any]
            #expect(user?["username"] as? String == BoomicSubsonic.user && user?["streamRole"] as? Bool == true, "\(mode): \(out)")
            let status = out[mode + ".scanStatus"] as? [String: Any]
            #expect(status?["scanning"] as? Bool == false && status?["count"] as? Int == songs, "\(mode): \(out)")
            // A scan started, or queued behind the one running, is answered as scanning, however
            // fast it ends.
            for call in [".startScan", ".startScanAgain"] {
                #expect((out[mode + call] as? [String: Any])?["scanning"] as? Bool == true, "\(mode)\(call): \(out)")
            }
        }
        for mode in ["opensonic.token", "opensonic.enc", "opensonic.apikey"] {
            #expect(out[mode + ".extensions"] as? [String] == ["apiKeyAuthentication", "formPost", "songLyrics", "transcodeOffset"], "\(mode): \(out)")
        }
        #expect(out["sonic.token.folders"] as? [String] == ["music"] && out["sonic.enc.folders"] as? [String] == ["music"], "\(out)")
        for wrong in ["opensonic.wrong.ping", "sonic.wrong.ping"] {
            #expect((out[wrong] as? [String: Any])?["error"] as? Int == 40, "\(wrong): \(out)")
        }
        #expect(out["raw.nocredentials"] as? Int == 10 && out["raw.wrongtoken"] as? Int == 40, "\(out)")
        #expect(boomic.server.serverLog.contains("failed login of user 'anna'") && !boomic.server.serverLog.contains("sesame"), "\(boomic.server.serverLog)")
    }
}
