/// The bytes of a snapshot image and whoever owns them: an array copied in (a read-only library,
/// the tests) or, later, a mapped file. Immutable once made; the image reads them in place.
///
/// `@unchecked Sendable`: the buffer is written only in `init`, before the value is shared, and
/// freed only in `deinit`, when nothing references it; every other access reads.
public final class ImageBytes: @unchecked Sendable {
    public let buffer: UnsafeRawBufferPointer
    private let release: () -> Void

    /// A private copy of `bytes`, 8-byte aligned so fixed-width values load in place.
    public init(copying bytes: some Collection<UInt8>) {
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 8)
        _ = raw.initializeMemory(as: UInt8.self, from: bytes)
        buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(raw)[0..<bytes.count])
        release = { raw.deallocate() }
    }

    deinit { release() }

    public var count: Int { buffer.count }
}
