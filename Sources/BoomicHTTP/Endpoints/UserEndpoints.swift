/// `getUser` and `getUsers`, from the authenticator's accounts. The library is the household's
/// (one library, shared), so every user may stream, download, edit playlists and rate; only an
/// administrator scans and lists the other accounts.
enum UserEndpoints {
    /// One account; a user may ask for their own, an administrator for anyone's.
    static func user(_ call: SubsonicCall) async throws -> SubsonicReply {
        let me = try call.requireUser()
        let name = try call.parameters.required("username")
        let users = await call.front.authenticator.users()
        let caller = users.first { $0.name == me }
        guard name == me || caller?.isAdmin == true else {
            throw SubsonicError(.notAuthorized, "Only an administrator may see another user.")
        }
        guard let user = users.first(where: { $0.name == name }) else { throw SubsonicError(.notFound, "No user \(name).") }
        return .answer("user", element(user, folders: call.front.folders.count))
    }

    /// Every account: an administrator's call.
    static func users(_ call: SubsonicCall) async throws -> SubsonicReply {
        let me = try call.requireUser()
        let users = await call.front.authenticator.users()
        guard users.first(where: { $0.name == me })?.isAdmin == true else {
            throw SubsonicError(.notAuthorized, "Only an administrator may list the users.")
        }
        var list = SubsonicElement()
        list.set("user", list: users.map { element($0, folders: call.front.folders.count) })
        return .answer("users", list)
    }

    /// OpenSubsonic's `tokenInfo` (part of `apiKeyAuthentication`): whose key this is.
    static func tokenInfo(_ call: SubsonicCall) async throws -> SubsonicReply {
        .answer("tokenInfo", SubsonicElement(["username": .string(try call.requireUser())]))
    }

    /// Subsonic's user element: the roles as attributes, the music folders the user sees
    /// (every one) as `folder` children.
    static func element(_ user: SubsonicUser, folders: Int) -> SubsonicElement {
        var e = SubsonicElement([
            "username": .string(user.name), "email": user.email.map(SubsonicValue.string),
            "scrobblingEnabled": true, "adminRole": .bool(user.isAdmin), "settingsRole": .bool(user.isAdmin),
            "downloadRole": true, "uploadRole": false, "playlistRole": true, "coverArtRole": true,
            "commentRole": false, "podcastRole": false, "streamRole": true, "jukeboxRole": false,
            "shareRole": false, "videoConversionRole": false,
        ])
        e.set("folder", values: (0..<folders).map { .int($0 + 1) })
        return e
    }
}
