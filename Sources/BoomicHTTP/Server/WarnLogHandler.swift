import Logging

/// Hummingbird's log, at errors only, as the front's one-line notes: nothing below the CLI
/// prints, so the messages go to the closure the CLI gave.
struct WarnLogHandler: LogHandler {
    let warn: @Sendable (String) -> Void
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .error

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        warn("http: \(SubsonicError.oneLine(event.message.description))")
    }
}
