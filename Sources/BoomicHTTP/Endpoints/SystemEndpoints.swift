import BoomicCore

/// `getLicense`, `getOpenSubsonicExtensions`, `getScanStatus`, `startScan` and
/// `getMusicFolders`: what a client asks first, before it browses.
enum SystemEndpoints {
    /// Boomic is free software: the license is always valid.
    static func license(_ call: SubsonicCall) async throws -> SubsonicReply {
        .answer("license", SubsonicElement(["valid": true]))
    }

    /// The OpenSubsonic extensions Boomic implements, each at version 1.
    static let extensionNames = ["apiKeyAuthentication", "formPost", "songLyrics", "transcodeOffset"]

    static func extensions(_ call: SubsonicCall) async throws -> SubsonicReply {
        var body = SubsonicElement()
        body.set("openSubsonicExtensions", list: extensionNames.map { name in
            var e = SubsonicElement(["name": .string(name)])
            e.set("versions", values: [1])
            return e
        })
        return .answer(body)
    }

    /// Whether a rescan runs, and the songs the library holds (not those whose files were
    /// gone at the last scan), as MPD's `stats` counts them.
    static func scanStatus(_ call: SubsonicCall) async throws -> SubsonicReply {
        .answer("scanStatus", status(call.front, basis: call.basis))
    }

    /// Starts the library's rescan (Boomic's import over the music folders, one transaction
    /// that `undo` can take back); an administrator's call, as in Navidrome. It answers
    /// `scanning` true, for the scan it started or queued: a small library's may have ended
    /// before the answer is written, and a client that sees false thinks none started.
    static func startScan(_ call: SubsonicCall) async throws -> SubsonicReply {
        guard await call.account()?.isAdmin == true else { throw SubsonicError(.notAuthorized, "Only an administrator may start a scan.") }
        call.front.scans.start()
        return .answer("scanStatus", status(call.front, basis: call.basis, scanning: true))
    }

    static func status(_ front: HTTPContext, basis: DataBasis, scanning: Bool? = nil) -> SubsonicElement {
        let songs = basis.songs.values.reduce(0) { $0 + ($1.missing ? 0 : 1) }
        return SubsonicElement(["scanning": .bool(scanning ?? front.scans.isScanning), "count": .int(songs)])
    }

    /// One music folder per library root, numbered from 1 in the library's order, named by the
    /// folder's last component.
    static func musicFolders(_ call: SubsonicCall) async throws -> SubsonicReply {
        var folders = SubsonicElement()
        folders.set("musicFolder", list: call.front.folders.enumerated().map { i, path in
            SubsonicElement(["id": .int(i + 1), "name": .string(folderName(path))])
        })
        return .answer("musicFolders", folders)
    }

    static func folderName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
