import BoomicSystem
import Glibc

/// Decodes WAV and AIFF/AIFF-C files: uncompressed samples read straight from the file, so
/// integer PCM (8 to 32 bits, any channel count) comes out bit-exact, as every other decoder's.
///
/// **Float files** (WAV IEEE float, AIFC `fl32`/`fl64`) report `PCMFormat.float` and are read
/// through `read(into: inout [Float], …)`: 32-bit float samples are handed on unchanged (a
/// `wav:` sink writes them back bit for bit), 64-bit ones rounded to 32-bit float. Their `Int32`
/// read path gives 32-bit integers at full scale (x · 2³¹, rounded, clipped), for a caller that
/// only takes integers; turning float into 24-bit integers instead would round every source
/// sample, and smuggling float bit patterns through `Int32` would make the integer path mean two
/// things.
///
/// A file cut short (a copy that stopped, a recorder that crashed) plays what is there, in whole
/// frames, with a warning. Not `Sendable`: one decoder belongs to one thread.
public final class PCMFileDecoder: AudioDecoder {
    public let path: String
    public let format: PCMFormat
    public let totalFrames: Int?
    public private(set) var warnings: [String] = []

    private let file: FileDescriptor
    private let reader: ChunkReader
    private let layout: PCMLayout
    private let frames: Int
    private var position = 0
    private var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 16)
    /// Integer samples on their way to float (the float read of an integer file).
    private var scratch: [Int32] = []

    /// Opens `path`, telling WAV from AIFF by its first bytes (not its name).
    public init(path: String) throws(AudioError) {
        self.path = path
        file = try AudioFile.open(path)
        do {
            reader = try ChunkReader(file)
        } catch {
            throw AudioError(path: path, reason: "cannot open: \(error.reason)")
        }
        let magic = (try? reader.bytes(at: 0, count: 4)) ?? []
        switch String(decoding: magic, as: UTF8.self) {
        case "RIFF": layout = try WAVHeader.parse(reader)
        case "FORM": layout = try AIFFHeader.parse(reader)
        default: throw AudioError(path: path, reason: "not a WAV or AIFF file")
        }
        format = layout.format
        let present = max(0, reader.size - layout.dataOffset)
        var bytes = present
        if let declared = layout.declaredBytes {
            bytes = min(declared, present)
            if declared > present {
                warnings.append("the file is cut short: \(present / layout.frameBytes) of \(declared / layout.frameBytes) frames are there")
            }
        } else {
            warnings.append("the header does not say how long the audio is; reading to the end of the file")
        }
        frames = bytes / layout.frameBytes
        if bytes % layout.frameBytes != 0 && layout.declaredBytes.map({ $0 > present }) != true {
            warnings.append("the audio ends in the middle of a frame; its last \(bytes % layout.frameBytes) bytes are left out")
        }
        totalFrames = frames
    }

    deinit { buffer.deallocate() }

    public func read(into out: inout [Int32], maxFrames: Int) throws(AudioError) -> Int {
        let n = try fill(maxFrames)
        appendInts(n * layout.channels, to: &out)
        return n
    }

    /// Exact by arithmetic: frames are fixed-size.
    public func seek(toFrame frame: Int) throws(AudioError) {
        position = max(0, min(frame, frames))
    }

    /// The first `count` samples in `buffer`, as unscaled integers.
    private func appendInts(_ count: Int, to out: inout [Int32]) {
        out.reserveCapacity(out.count + count)
        let width = layout.containerBytes
        switch layout.encoding {
        case .unsigned:
            let shift = Int32(8 - layout.validBits)
            for i in 0..<count { out.append((Int32(buffer[i]) - 128) >> shift) }
        case .signed:
            // The container's bytes at the top of 32 bits, then an arithmetic shift down to the
            // value's own width: sign extension and the left-justified padding bits in one step.
            let up = UInt32(32 - 8 * width), down = Int32(32 - layout.validBits)
            var at = 0
            for _ in 0..<count {
                var u: UInt32 = 0
                if layout.bigEndian {
                    for b in 0..<width { u = u << 8 | UInt32(buffer[at + b]) }
                } else {
                    for b in (0..<width).reversed() { u = u << 8 | UInt32(buffer[at + b]) }
                }
                out.append(Int32(bitPattern: u << up) >> down)
                at += width
            }
        case .float:
            for i in 0..<count {
                let x = floatSample(i) * 2_147_483_648
                out.append(Int32(x.rounded().clamped(-2_147_483_648, 2_147_483_647)))
            }
        }
    }

    /// Float samples (±1.0 full scale): unchanged for 32-bit float files, scaled by
    /// 1/2^(bits-1) for integer ones.
    public func read(into out: inout [Float], maxFrames: Int) throws(AudioError) -> Int {
        let n = try fill(maxFrames)
        let count = n * layout.channels
        out.reserveCapacity(out.count + count)
        if layout.encoding == .float {
            for i in 0..<count { out.append(Float(floatSample(i))) }
        } else {
            scratch.removeAll(keepingCapacity: true)
            appendInts(count, to: &scratch)
            let scale = 1 / Float(1 << (layout.validBits - 1))
            for s in scratch { out.append(Float(s) * scale) }
        }
        return n
    }

    /// Sample `i` of a float file, in Double so that a 64-bit one loses nothing on the way to
    /// integers.
    private func floatSample(_ i: Int) -> Double {
        if layout.containerBytes == 4 {
            var u: UInt32 = 0
            let at = 4 * i
            if layout.bigEndian { for b in 0..<4 { u = u << 8 | UInt32(buffer[at + b]) } }
            else { for b in (0..<4).reversed() { u = u << 8 | UInt32(buffer[at + b]) } }
            return Double(Float(bitPattern: u))
        }
        var u: UInt64 = 0
        let at = 8 * i
        if layout.bigEndian { for b in 0..<8 { u = u << 8 | UInt64(buffer[at + b]) } }
        else { for b in (0..<8).reversed() { u = u << 8 | UInt64(buffer[at + b]) } }
        return Double(bitPattern: u)
    }

    /// Reads the next whole frames (up to `maxFrames`) into `buffer`; their number.
    private func fill(_ maxFrames: Int) throws(AudioError) -> Int {
        let want = max(0, min(maxFrames, frames - position))
        let bytes = want * layout.frameBytes
        if buffer.count < bytes {
            buffer.deallocate()
            buffer = .allocate(byteCount: bytes, alignment: 16)
        }
        guard want > 0 else { return 0 }
        let got: Int
        do {
            got = try reader.read(at: layout.dataOffset + position * layout.frameBytes, count: bytes, into: buffer)
        } catch {
            throw AudioError(path: path, reason: "cannot read: \(error.reason)")
        }
        let n = got / layout.frameBytes
        if n < want {
            // The file shrank since it was opened: what is left is all there is.
            warnings.append("the file ended \(frames - position - n) frames early")
            position = frames
            return n
        }
        position += n
        return n
    }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}
