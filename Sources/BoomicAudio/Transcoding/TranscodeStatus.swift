import Synchronization

/// What the decoding thread of a transcode tells its reader: the error that cut decoding short,
/// set before the encoder's input is closed (so the reader sees it once the output ends), how
/// far it has decoded, and how the encoder ended, once it has.
final class TranscodeStatus: Sendable {
    private let state = Mutex<(error: AudioError?, ending: String?, decoded: Double)>((nil, nil, 0))

    func failed(_ error: AudioError) { state.withLock { $0.error = error } }
    func ended(_ how: String) { state.withLock { $0.ending = how } }
    func decoded(_ seconds: Double) { state.withLock { $0.decoded = seconds } }

    var error: AudioError? { state.withLock { $0.error } }
    var ending: String? { state.withLock { $0.ending } }
    var decodedSeconds: Double { state.withLock { $0.decoded } }
}
