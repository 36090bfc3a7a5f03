import BoomicCore
import BoomicDecoderPipe
import BoomicSystem

/// A decoder program's output, read packet by packet (`DecoderPipe`): the process, its pipe and
/// what has been read of it, in one owner, so that a seek replaces all three at once.
///
/// Not `Sendable`: it belongs to the decode thread.
final class DecoderPipeReader {
    enum Packet {
        case header(String)
        case samples([UInt8])
        case warning(String)
        case error(String)
        case end
        /// The pipe closed without an end: the program died (how, as `DecoderProcess` says).
        case cutShort(String)
    }

    private let process: DecoderProcess
    private var parser = DecoderPipeParser()
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    init(program: String, arguments: [String], input: FileDescriptor? = nil) throws(AudioError) {
        process = try DecoderProcess(program: program, arguments: arguments, input: input)
    }

    /// The next packet, waiting for the program to write it.
    func next() throws(AudioError) -> Packet {
        while true {
            let packet: Packet?
            do {
                packet = try parser.next { kind, payload -> Packet in
                    switch kind {
                    case .header: .header(String(decoding: payload, as: UTF8.self))
                    case .samples: .samples(Array(payload))
                    case .warning: .warning(String(decoding: payload, as: UTF8.self))
                    case .error: .error(String(decoding: payload, as: UTF8.self))
                    case .end: .end
                    }
                }
            } catch {
                throw AudioError(path: process.program, reason: "its output is garbled (\(error))")
            }
            if let packet { return packet }
            let n = try process.read(into: &chunk)
            if n == 0 { return .cutShort(process.ending()) }
            parser.feed(chunk[0..<n])
        }
    }
}
