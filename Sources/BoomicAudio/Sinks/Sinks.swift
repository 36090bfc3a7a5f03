/// Makes the sink a spec names. Nothing is opened yet: a `wav:` file is created and an ALSA
/// device opened at the sink's first `prepare`, which is also where a device that does not
/// exist is found (an `AudioError`, exit 1), while a badly written spec fails at parsing (a
/// `SinkSpecError`, exit 64).
public enum Sinks {
    public static func open(_ spec: SinkSpec) -> any AudioSink {
        switch spec {
        case .null: NullSink()
        case .wav(let path): WAVFileSink(path: path)
        case .alsa(let device): ALSASink(device: device)
        }
    }

    /// Parses `text` (`--output`) and makes its sink.
    public static func open(_ text: String) throws(SinkSpecError) -> any AudioSink {
        open(try SinkSpec(parsing: text))
    }
}
