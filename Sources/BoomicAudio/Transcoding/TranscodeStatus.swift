import Synchronization

/// What the decoding thread of a transcode tells its reader: the error that cut decoding short,
/// set before the encoder's input is closed (so the reader sees it once the output ends), and
/// how the encoder ended, once it has.
final class TranscodeStatus: Sendable {
    private let state = Mutex<(error: AudioError?, ending: String?)>((nil, nil))

    func failed(_ error: AudioError) { state.withLock { $0.error = error } }
    func ended(_ how: String) { state.withLock { $0.ending = how } }

    var error: AudioError? { state.withLock { $0.error } }
    var ending: String? { state.withLock { $0.ending } }
}
