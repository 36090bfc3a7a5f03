import BoomicDecoderPipe
import Glibc

/// Writes `DecoderPipe` packets to standard output. The reader going away (the player skipped,
/// seeked or quit) is the normal way for this program to end: it exits quietly then.
struct PipeWriter {
    /// Samples are sent in packets of about this many bytes, so the player gets its first
    /// samples quickly and a packet never nears `DecoderPipe.maxPacket`.
    static let samplesPerPacket = 1 << 16

    var pending: [UInt8] = []

    mutating func send(_ kind: DecoderPipe.Kind, text: String) {
        flushSamples()
        write(DecoderPipe.packet(kind, text: text))
    }

    /// Queues samples (already encoded) and sends them once there are enough.
    mutating func sendSamples(_ append: (inout [UInt8]) -> Void) {
        append(&pending)
        if pending.count >= Self.samplesPerPacket { flushSamples() }
    }

    mutating func flushSamples() {
        guard !pending.isEmpty else { return }
        write(DecoderPipe.packet(.samples, pending))
        pending.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { b in
            var done = 0
            while done < b.count {
                let n = Glibc.write(1, b.baseAddress! + done, b.count - done)
                if n < 0 && errno == EINTR { continue }
                // EPIPE: the player closed its end and wants no more.
                guard n > 0 else { exit(0) }
                done += n
            }
        }
    }
}
