/// What `f=` asks for: XML (Subsonic's default), JSON, or JSON wrapped in a JavaScript call
/// (`f=jsonp&callback=NAME`, which old browser clients use).
public enum SubsonicFormat: Sendable, Equatable {
    case xml
    case json
    case jsonp(callback: String)

    /// The format of a call's parameters; an unknown `f` is XML, as Subsonic answers it. A
    /// callback that is not a JavaScript name (dotted names allowed) is refused: it is written
    /// into a script the browser runs.
    public init(_ parameters: SubsonicParameters) throws(SubsonicError) {
        switch parameters["f"]?.lowercased() {
        case "json": self = .json
        case "jsonp":
            guard let callback = parameters["callback"] else {
                self = .json
                throw SubsonicError.missing("callback")
            }
            guard Self.isScriptName(callback) else {
                self = .json
                throw SubsonicError(.generic, "callback must be a JavaScript name such as handle or app.handle")
            }
            self = .jsonp(callback: callback)
        default: self = .xml
        }
    }

    /// The format an error about the format itself is answered in.
    public static func fallback(_ parameters: SubsonicParameters) -> SubsonicFormat {
        (try? SubsonicFormat(parameters)) ?? (parameters["f"]?.lowercased() == "xml" || parameters["f"] == nil ? .xml : .json)
    }

    public var contentType: String {
        switch self {
        case .xml: "text/xml; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        case .jsonp: "application/javascript; charset=utf-8"
        }
    }

    public func encode(_ response: SubsonicResponse, serverVersion: String) -> String {
        switch self {
        case .xml: SubsonicXML.encode(response, serverVersion: serverVersion)
        case .json: SubsonicJSON.encode(response, serverVersion: serverVersion)
        case let .jsonp(callback): callback + "(" + SubsonicJSON.encode(response, serverVersion: serverVersion) + ");"
        }
    }

    static func isScriptName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 128 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
            return part.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0 == "$" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        }
    }
}
