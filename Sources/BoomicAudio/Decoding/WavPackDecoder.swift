import CWavPack
import Foundation

/// Decodes a WavPack file with libwavpack, the reference decoder (as MPD does): the samples are
/// what `wvunpack` writes, at the container's width (16, 24 or 32 bits), or 32-bit float for a
/// float file; a `.wvc` correction file beside a hybrid one is used, so it decodes lossless.
/// FFmpeg's WavPack decoder gives the same samples at half the speed.
///
/// A block whose checksum fails is played as silence of its length (libwavpack keeps every
/// block's position), with a warning.
///
/// Not `Sendable`: one decoder belongs to one thread.
public final class WavPackDecoder: AudioDecoder {
    public let path: String
    public let format: PCMFormat
    public let totalFrames: Int?
    public private(set) var warnings: [String] = []

    /// The open file; a failed seek replaces it.
    private var file: WavPackFile
    private var context: OpaquePointer { file.context }
    private var block: [Int32] = []
    private var errorsSeen: Int32 = 0
    /// Set by a seek to the end or past it, which libwavpack refuses: `read` gives 0 until the
    /// next seek.
    private var atEnd = false
    /// The correction file if there is one, float samples at ±1.0, DSD decimated to PCM.
    private static let flags: Int32 = OPEN_WVC | OPEN_NORMALIZE | OPEN_DSD_AS_PCM

    public init(path: String) throws(AudioError) {
        self.path = path
        let file = try WavPackFile(path: path, flags: Self.flags)
        let context = file.context
        self.file = file
        let channels = Int(WavpackGetNumChannels(context))
        let rate = Int(WavpackGetSampleRate(context))
        let isFloat = WavpackGetMode(context) & MODE_FLOAT != 0
        let bytes = Int(WavpackGetBytesPerSample(context))
        guard channels > 0, rate > 0, (1...4).contains(bytes) else {
            throw AudioError(path: path, reason: "not a WavPack stream this player can play (\(channels) channels, \(bytes) bytes a sample)")
        }
        format = isFloat ? .float(sampleRate: rate, channels: channels)
                         : PCMFormat(sampleRate: rate, channels: channels, bitsPerSample: bytes * 8)
        let total = WavpackGetNumSamples64(context)
        totalFrames = total >= 0 ? Int(total) : nil
    }

    /// Unpacks up to `maxFrames` frames into `block`; the number unpacked, 0 at the end.
    private func unpack(_ maxFrames: Int) -> Int {
        if atEnd { return 0 }
        let count = maxFrames * format.channels
        if block.count < count { block = [Int32](repeating: 0, count: count) }
        let n = Int(block.withUnsafeMutableBufferPointer { WavpackUnpackSamples(context, $0.baseAddress, UInt32(maxFrames)) })
        let errors = WavpackGetNumErrors(context)
        if errors > errorsSeen {
            warnings.append("\(errors - errorsSeen) damaged block\(errors - errorsSeen == 1 ? "" : "s") (checksum), played as silence")
            errorsSeen = errors
        }
        return n
    }

    public func read(into out: inout [Int32], maxFrames: Int) throws(AudioError) -> Int {
        let n = unpack(maxFrames)
        SampleWords.appendInts(block[0..<(n * format.channels)], of: format, to: &out)
        return n
    }

    public func read(into out: inout [Float], maxFrames: Int) throws(AudioError) -> Int {
        let n = unpack(maxFrames)
        SampleWords.appendFloats(block[0..<(n * format.channels)], of: format, to: &out)
        return n
    }

    /// libwavpack's sample-exact seek. A failed seek leaves the context unusable (wavpack.h),
    /// so the file is opened again.
    public func seek(toFrame frame: Int) throws(AudioError) {
        let target = max(0, frame)
        atEnd = totalFrames.map { target >= $0 } ?? false
        if atEnd { return }
        if WavpackSeekSample64(context, Int64(target)) != 0 { return }
        file = try WavPackFile(path: path, flags: Self.flags)
        errorsSeen = 0
        guard target == 0 || WavpackSeekSample64(context, Int64(target)) != 0 else {
            throw AudioError(path: path, reason: "cannot seek to sample \(target)")
        }
    }
}
