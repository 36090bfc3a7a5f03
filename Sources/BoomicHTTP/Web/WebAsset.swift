import Foundation

/// One file of the web page, as the binary carries it (Plugins/WebAssets embeds the folder
/// Sources/BoomicHTTP/Web/Assets): its bytes, its `Content-Type` and its `ETag`.
///
/// Dropping a file in that folder adds it to `WebAsset.all` at the next build, served at
/// `BASE/assets/NAME`; nothing else is to be listed. Names are unversioned, so browsers keep a
/// copy but ask again each time (`Cache-Control: no-cache`) and get `304` while the file is the
/// same: a new binary's page is never mixed with an old one's cached modules.
public struct WebAsset: Sendable {
    public let name: String
    public let bytes: [UInt8]
    public let contentType: String
    /// A strong tag: the first 32 hex digits of the file's SHA-256, quoted.
    public let etag: String

    /// Every asset by name, decoded once from the literals the plugin wrote.
    public static let all: [String: WebAsset] = Dictionary(
        WebAssetFiles.all.map { file in
            (file.name, WebAsset(name: file.name, bytes: [UInt8](Data(base64Encoded: file.base64) ?? Data()),
                                 contentType: contentType(of: file.name), etag: "\"" + file.sha256.prefix(32) + "\""))
        }, uniquingKeysWith: { first, _ in first })

    /// The assets reachable without a session: the login page and what it loads. The page's
    /// modules and anything else wait for a login (they hold no secret, but nothing beyond the
    /// login is open).
    public static let open: Set<String> = ["login.html", "style.css", "icon.svg"]

    /// The MIME type by the name's extension; text is UTF-8.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last.map({ $0.lowercased() }) ?? "" {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "ico": "image/x-icon"
        case "webp": "image/webp"
        case "woff2": "font/woff2"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    /// The asset's text (for the pages the server fills in: the login page).
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
